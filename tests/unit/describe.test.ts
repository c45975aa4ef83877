// Each algorithm's page description (src/engine/algorithms/pages/, the shape in describe.ts) exists
// for every kind and says what that algorithm's own rules do, with its own settings' numbers:
// nothing falls back to another algorithm's words ("0 s coordinator timeout", "nothing expires"
// where a session does).
import { describe, expect, it } from 'vitest';
import { ALGORITHM_KINDS, algorithmFor, pageOf, parseExperiment, type Experiment } from '../../src/engine';

const experimentOf = (algorithm: string): Experiment => {
  const r = parseExperiment({ algorithm });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.experiment;
};

describe('every algorithm has its own page description', () => {
  it.each(ALGORITHM_KINDS)('%s', (kind) => {
    const page = pageOf({ algorithm: kind });
    expect(page, `${kind} has no page description`).toBeDefined();
    const e = experimentOf(kind);
    const hold = page.hold(e);
    const expiry = page.expiry(e);
    // Every span it names is one of its own settings, and none is zero.
    expect(expiry.ms).toBeGreaterThan(0);
    expect(`${hold.text} ${expiry.what} ${expiry.keep}`).not.toMatch(/\b0 s\b/);
    // The step that says nothing expires belongs to the two algorithms where nothing does.
    const nothingExpires = /nothing expires/.test(hold.text);
    expect(nothingExpires).toBe(kind === 'bully' || kind === 'ring');
    // A quorum is claimed only where the algorithm has one.
    expect(/no quorum/.test(page.elect.how)).toBe(kind === 'bully' || kind === 'ring');
    if (kind !== 'raft') expect(page.elect.how.length).toBeGreaterThan(0);
    // The lease dial belongs to the Kubernetes Lease alone; so does the name "Lease", and only
    // Raft's wait is drawn from a range (its randomized timeout).
    expect(hold.ring).toBe(kind === 'k8s-lease');
    expect(expiry.name === 'Lease').toBe(kind === 'k8s-lease');
    expect(expiry.maxMs === expiry.ms).toBe(kind !== 'raft');
    // The renewal limit is drawn where the leader stops by itself, in its own settings' terms.
    const limit = page.renewLimit(e);
    if (limit) expect(limit.ms).toBeGreaterThan(0);
    expect(algorithmFor(kind).kind).toBe(kind);
  });

  it('uses the numbers of the run it describes', () => {
    const k8s = parseExperiment({
      algorithm: 'k8s-lease',
      lease: { durationMs: 20000, renewDeadlineMs: 12000, retryPeriodMs: 3000 },
    });
    if (!k8s.ok) throw new Error('bad');
    const page = pageOf({ algorithm: 'k8s-lease' });
    expect(page.hold(k8s.experiment).text).toBe('TTL 20 s, renew every 3 s');
    expect(page.expiry(k8s.experiment).what).toBe('20 s lease');
    expect(page.renewLimit(k8s.experiment)).toEqual({ ms: 12000, label: 'RenewDeadline 12 s' });
  });
});
