// The leaderless model (src/leaderless) pinned: the same work run with one leader assigning it
// and with keys owned on a consistent-hash ring, through a worker's death and then the leader's.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_CONFIG,
  DEFAULT_WINDOW,
  buildRing,
  configProblems,
  hash32,
  ringOwner,
  runLeaderless,
  unavailableAt,
  unavailableKeyMsUntil,
} from '../../src/leaderless/model';
import { windowFromRun } from '../../src/leaderless/window';
import { runScenario } from '../../src/scenario/run';
import { parseScenario } from '../../src/scenario/schema';
import { stepCaption } from '../../scenes/LeaderlessScene/captions';

function gameDay() {
  const file = new URL('../../scenes/scenarios/19-leaderless-partition-the-work.json', import.meta.url);
  const r = parseScenario(JSON.parse(readFileSync(file, 'utf8')));
  if (!r.ok) throw new Error(r.errors.map((e) => `${e.field}: ${e.message}`).join('; '));
  return r.scenario;
}

describe('the failover window of design (a)', () => {
  it("the default is the measured Raft failover of the game day 'Don't have a leader: partition the work'", () => {
    const trace = runScenario(gameDay()).trace;
    const w = windowFromRun(trace.summary.failovers, 'Raft');
    expect({ detectMs: w.detectMs, totalMs: w.totalMs }).toEqual({
      detectMs: DEFAULT_WINDOW.detectMs,
      totalMs: DEFAULT_WINDOW.totalMs,
    });
    expect(w.source).toBe("this run's failover (Raft, n2 lost at 10.0 s)");
  });

  it('a run without a finished failover gives the default; an unfinished one is skipped', () => {
    expect(windowFromRun([], 'Raft')).toBe(DEFAULT_WINDOW);
    const f = {
      lostAtMs: 1000,
      detectedAtMs: 2000,
      electedAtMs: 2500,
      node: 'n1',
      term: 2,
      from: 'n2',
      cause: 'killed',
    };
    expect(windowFromRun([{ ...f, readyAtMs: -1 }], 'Raft')).toBe(DEFAULT_WINDOW);
    expect(windowFromRun([{ ...f, readyAtMs: 4500 }], 'Raft')).toMatchObject({
      detectMs: 1000,
      totalMs: 3500,
    });
    // A failover longer than the model takes (a run left without a leader for hours) is skipped.
    expect(windowFromRun([{ ...f, readyAtMs: 1000 + 3_600_001 }], 'Raft')).toBe(DEFAULT_WINDOW);
  });
});

describe('leaderless model', () => {
  const run = runLeaderless();

  it('pins the default run: who dies, how many keys move, the unavailable key-seconds', () => {
    expect(run.workerNames[run.victim]).toBe('w5');
    expect(run.workerNames[run.leader]).toBe('w4');
    expect(run.shares[0]).toEqual([167, 178, 233, 223, 199]);
    expect(run.moved).toMatchObject([
      { worker: 'w5', ring: 199, modN: 819, keys: 199 },
      { worker: 'w4', ring: 275, modN: 779, keys: 275 },
    ]);
    // In hash order, the ring's moved keys are the dead worker's arcs; hash % N's are everywhere.
    const total = (r: [number, number][]) => r.reduce((n, [a, b]) => n + b - a, 0);
    expect(run.moved.map((m) => [total(m.ringRanges), m.ringRanges.length])).toEqual([
      [199, 54],
      [275, 55],
    ]);
    expect(run.moved.map((m) => [total(m.modNRanges), m.modNRanges.length])).toEqual([
      [819, 152],
      [779, 170],
    ]);
    expect(run.moved[0].modNRanges.every(([a, b], i, all) => a < b && (i === 0 || all[i - 1][1] < a))).toBe(
      true,
    );
    expect(run.unavailableKeyMs).toEqual({ leader: 10_073_899, ring: 2_986_674 });
    expect(run.shares[2][run.victim] + run.shares[2][run.leader]).toBe(0);
    expect(run.shares.every((s) => s.reduce((a, b) => a + b, 0) === 1000)).toBe(true);
  });

  it('consistent hashing moves about 1/N of the keys (only the dead worker’s); hash % N moves most', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const r = runLeaderless({ ...DEFAULT_CONFIG, seed });
      const [first, second] = r.moved;
      expect(first.ring).toBe(first.keys);
      expect(second.ring).toBe(second.keys);
      expect(first.ring / 1000).toBeGreaterThan(0.12);
      expect(first.ring / 1000).toBeLessThan(0.3);
      expect(first.modN / 1000).toBeGreaterThan(0.65);
      expect(second.modN / 1000).toBeGreaterThan(0.65);
    }
  });

  it("(a)'s unavailable key-seconds far exceed (b)'s: a leader's death stops every key", () => {
    expect(run.unavailableKeyMs.leader).toBeGreaterThan(3 * run.unavailableKeyMs.ring);
    // The leader's death alone: every key for the whole failover against one share for detection.
    const leaderKill = (d: 'leader' | 'ring') =>
      unavailableKeyMsUntil(run, d, run.endMs) - unavailableKeyMsUntil(run, d, run.killLeaderAtMs);
    expect(leaderKill('leader')).toBe(1000 * DEFAULT_WINDOW.totalMs);
    expect(leaderKill('ring')).toBe(275 * DEFAULT_WINDOW.detectMs);
    expect(leaderKill('leader')).toBeGreaterThan(5 * leaderKill('ring'));
    const mid = run.killLeaderAtMs + 1000;
    expect(unavailableAt(run, 'leader', mid)).toBe(1000);
    expect(unavailableAt(run, 'ring', mid)).toBe(275);
    expect(unavailableAt(run, 'ring', run.killLeaderAtMs + DEFAULT_WINDOW.detectMs)).toBe(0);
    expect(unavailableAt(run, 'leader', run.killWorkerAtMs)).toBe(199);
    expect(unavailableKeyMsUntil(run, 'leader', run.endMs)).toBe(run.unavailableKeyMs.leader);
    expect(unavailableKeyMsUntil(run, 'ring', run.killLeaderAtMs)).toBe(199 * DEFAULT_WINDOW.detectMs);
  });

  it('is deterministic for a seed and differs across seeds', () => {
    expect(runLeaderless({ ...DEFAULT_CONFIG })).toEqual(run);
    expect(runLeaderless({ ...DEFAULT_CONFIG, seed: 2 }).shares[0]).not.toEqual(run.shares[0]);
  });

  it('the ring gives each hash to the first point at or after it, wrapping around', () => {
    const ring = buildRing([0, 1, 2], 4, 7);
    expect(ring).toHaveLength(12);
    expect(ringOwner(ring, ring[3].at)).toBe(ring[3].worker);
    expect(ringOwner(ring, ring[3].at + 1)).toBe(ring[4].worker);
    expect(ringOwner(ring, ring[11].at + 1)).toBe(ring[0].worker);
    expect(hash32(5, 1)).toBe(hash32(5, 1));
  });

  it('names the field of a bad configuration', () => {
    expect(configProblems({ ...DEFAULT_CONFIG, workers: 2 })[0]).toMatch(/^workers:/);
    expect(
      configProblems({ ...DEFAULT_CONFIG, window: { detectMs: 5000, totalMs: 100, source: 'x' } })[0],
    ).toMatch(/^window\.totalMs:/);
    expect(() => runLeaderless({ ...DEFAULT_CONFIG, keys: 0 })).toThrow(/keys:/);
  });

  it('the captions say the run’s numbers', () => {
    expect(stepCaption(run, 1)).toContain(
      'On the ring 199 keys move (19.9%, about 1/5); with hash % N, 819 would (81.9%)',
    );
    expect(stepCaption(run, 2)).toContain('no key gets work for the 8.8 s failover window, all 1000 of them');
    expect(stepCaption(run, 3)).toContain('(a) 10073.9, (b) 2986.7: 3.4 times as many with a leader');
  });
});
