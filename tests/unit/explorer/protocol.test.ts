// The explorer's message protocol, as the worker speaks it, driven in Node: a clock and a queue of
// slices the test owns, so "stop" can arrive between any two slices, as it would in a worker.
import { describe, expect, it } from 'vitest';
import { createExplorerHost, type FromExplorer } from '../../../src/explorer/protocol';
import { violationsOf } from './helpers';

/** A host whose slices wait in a queue until the test runs them; each slice is one run long. */
function harness() {
  const posted: FromExplorer[] = [];
  const queue: (() => void)[] = [];
  let now = 0;
  const host = createExplorerHost({
    post: (m) => posted.push(m),
    // Every reading of the clock is a millisecond later: a slice of 1 ms runs one step.
    nowMs: () => now++,
    later: (fn) => queue.push(fn),
    sliceMs: 1,
    progressEveryMs: 0,
  });
  const runSlices = (max = Infinity) => {
    for (let i = 0; i < max && queue.length; i++) queue.shift()!();
  };
  const of = <T extends FromExplorer['type']>(type: T) =>
    posted.filter((m): m is Extract<FromExplorer, { type: T }> => m.type === type);
  return { host, posted, runSlices, of, pending: () => queue.length };
}

describe('the explorer host (worker protocol)', () => {
  it('start: reports progress, then found, then shrinking progress, then done with the finding', () => {
    const h = harness();
    h.host.receive({
      type: 'start',
      setup: { safety: { fencing: false } },
      seed: 1,
      budget: { schedules: 100 },
    });
    expect(h.host.running).toBe(true);
    expect(h.posted).toEqual([]); // nothing runs until the first slice
    h.runSlices();
    expect(h.host.running).toBe(false);
    const types = h.posted.map((m) => (m.type === 'progress' ? `progress:${m.phase}` : m.type));
    const found = types.indexOf('found');
    expect(found).toBeGreaterThan(0);
    expect(types.slice(0, found).every((t) => t === 'progress:search')).toBe(true);
    expect(types.slice(found + 1, -1).every((t) => t === 'progress:shrink')).toBe(true);
    expect(types.at(-1)).toBe('done');

    const [first] = h.of('found');
    expect(first.violation.invariant).toBe('staleWriteAccepted');
    expect(violationsOf(first.experiment).length).toBeGreaterThan(0);
    const [done] = h.of('done');
    expect(done.result.outcome).toBe('found');
    expect(done.result.finding?.minimal).toBe(true);
    expect(done.result.finding?.caption).toContain('No stale write accepted');
    const search = h.of('progress').filter((m) => m.phase === 'search');
    expect(search.map((m) => (m.phase === 'search' ? m.schedulesTried : 0))).toEqual(
      search.map((_, i) => i + 1),
    );
    // Everything posted survives structured cloning (what postMessage does).
    expect(structuredClone(h.posted)).toEqual(h.posted);
  });

  it('stop during the search: done with outcome "stopped" after the slice that heard it', () => {
    const h = harness();
    h.host.receive({ type: 'start', setup: {}, budget: { schedules: 10_000 } });
    h.runSlices(5);
    h.host.receive({ type: 'stop' });
    h.runSlices();
    const [done] = h.of('done');
    expect(done.result).toMatchObject({ outcome: 'stopped', finding: null });
    expect(done.result.schedulesTried).toBeGreaterThanOrEqual(5);
    expect(done.result.schedulesTried).toBeLessThan(10);
    expect(h.host.running).toBe(false);
  });

  it('stop during shrinking: done with the smallest failing schedule so far, not minimal', () => {
    const h = harness();
    h.host.receive({ type: 'start', setup: { safety: { fencing: false } }, seed: 1 });
    while (h.of('found').length === 0) h.runSlices(1);
    h.runSlices(3);
    h.host.receive({ type: 'stop' });
    h.runSlices();
    const [done] = h.of('done');
    expect(done.result.outcome).toBe('found');
    expect(done.result.finding?.minimal).toBe(false);
    expect(violationsOf(done.result.finding!.experiment).length).toBeGreaterThan(0);
  });

  it('nothing found: done with outcome "nothing" at the schedule budget', () => {
    const h = harness();
    h.host.receive({ type: 'start', setup: {}, budget: { schedules: 20 } });
    h.runSlices();
    expect(h.of('done')[0].result).toMatchObject({ outcome: 'nothing', schedulesTried: 20, finding: null });
  });

  it('a bad setup or start message: one error naming each bad field, and nothing runs', () => {
    const h = harness();
    h.host.receive({ type: 'start', setup: { nodes: 0 }, seed: 'x', budget: { ms: -1 }, colour: 'red' });
    expect(h.of('error')[0].errors.map((e) => e.field)).toEqual(['colour']);
    h.host.receive({ type: 'start', setup: { nodes: 0 }, seed: 'x', budget: { ms: -1 } });
    expect(
      h
        .of('error')[1]
        .errors.map((e) => e.field)
        .sort(),
    ).toEqual(['budgetMs', 'nodes', 'seed']);
    h.host.receive({ type: 'explode' });
    expect(h.of('error')[2].errors[0].field).toBe('type');
    expect(h.pending()).toBe(0);
    expect(h.host.running).toBe(false);
  });

  it('a second start while one runs is refused; after done, a new start runs', () => {
    const h = harness();
    h.host.receive({ type: 'start', setup: {}, budget: { schedules: 3 } });
    h.host.receive({ type: 'start', setup: {}, budget: { schedules: 3 } });
    expect(h.of('error')).toHaveLength(1);
    h.runSlices();
    h.host.receive({ type: 'start', setup: {}, budget: { schedules: 3 } });
    h.runSlices();
    expect(h.of('done')).toHaveLength(2);
  });
});
