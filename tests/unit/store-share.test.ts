// Structural sharing of snapshots: unchanged parts keep their identity, changed ones do not.
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../src/engine';
import { share } from '../../src/store/share';

describe('share', () => {
  it('returns the previous value when everything is equal', () => {
    const prev = { a: 1, b: [1, { c: 'x' }], d: null };
    expect(share(prev, { a: 1, b: [1, { c: 'x' }], d: null })).toBe(prev);
  });

  it('keeps unchanged parts and replaces changed ones', () => {
    const prev = { same: { x: [1, 2] }, changed: { y: 1 }, list: [{ id: 1 }, { id: 2 }] };
    const next = share(prev, { same: { x: [1, 2] }, changed: { y: 2 }, list: [{ id: 1 }, { id: 3 }] });
    expect(next).not.toBe(prev);
    expect(next.same).toBe(prev.same);
    expect(next.changed).toEqual({ y: 2 });
    expect(next.list).not.toBe(prev.list);
    expect(next.list[0]).toBe(prev.list[0]);
    expect(next.list[1]).toEqual({ id: 3 });
  });

  it('tells apart added and removed keys and items', () => {
    const prev: Record<string, unknown> = { a: 1, b: 2 };
    expect(share(prev, { a: 1 })).toEqual({ a: 1 });
    expect(share(prev, { a: 1 })).not.toBe(prev);
    expect(share(prev, { a: 1, b: 2, c: undefined })).not.toBe(prev);
    const list = [1, 2];
    expect(share(list, [1, 2, 3])).toEqual([1, 2, 3]);
    expect(share(list, [1])).toEqual([1]);
  });

  it('leaves a snapshot equal to what the engine built', () => {
    const sim = new Simulation({
      nodes: 5,
      workload: { clients: 20 },
      faults: [{ atMs: 9_000, do: 'kill', node: 'leader' }],
    });
    let prev = sim.snapshot();
    for (let t = 500; t <= 30_000; t += 500) {
      sim.runUntil(t);
      const fresh = sim.snapshot();
      const shared = share(prev, sim.snapshot());
      expect(shared).toEqual(fresh);
      expect(shared.safety).toBe(prev.safety);
      prev = shared;
    }
  });
});
