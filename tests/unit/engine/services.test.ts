// The shared coordination store (src/engine/services/quorumStore.ts): its timers are cancellable,
// so a learner who partitions and heals for an hour does not grow the queue. Before, every
// partition, heal and isolation armed the store's expiry check again without cancelling the one
// armed before, and each armed check re-armed itself for ever: measured with 5 nodes and k
// isolate/heal cycles then a quiet 220 s, etcd's election processed 3,238 / 5,229 / 10,934 queue
// events for k = 0 / 20 / 80, with 5 / 67 / 253 service timers pending.
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../../src/engine';
import { K, type Core } from '../../../src/engine/core';

const coreOf = (sim: Simulation) => (sim as unknown as { c: Core }).c;

/** k isolate/heal cycles from 10 s, then a quiet 220 s: the quiet stretch's queue events and pending service timers. */
function quietAfter(algorithm: 'etcd-election' | 'zookeeper', k: number) {
  const sim = new Simulation({ algorithm, nodes: 5, seed: 7, untilMs: 10_000 + k * 2_000 + 220_000 });
  let t = 10_000;
  for (let i = 0; i < k; i++) {
    sim.runUntil(t);
    sim.apply({ do: 'isolate', node: `n${(i % 5) + 1}` });
    sim.runUntil(t + 1_000);
    sim.apply({ do: 'heal' });
    t += 2_000;
  }
  sim.runUntil(t);
  const before = sim.eventsProcessed;
  sim.runUntil(t + 220_000);
  const serviceTimers = coreOf(sim).heap.filter((ev) => ev.kind === K.serviceTimer).length;
  return { events: sim.eventsProcessed - before, serviceTimers };
}

describe('the store\u2019s timers', () => {
  for (const algorithm of ['etcd-election', 'zookeeper'] as const) {
    it(`${algorithm}: a quiet stretch costs the same after 0, 20 and 80 isolate/heal cycles`, () => {
      const [base, twenty, eighty] = [0, 20, 80].map((k) => quietAfter(algorithm, k));
      for (const after of [twenty, eighty]) {
        expect(Math.abs(after.events - base.events) / base.events).toBeLessThanOrEqual(0.1);
        expect(after.serviceTimers).toBeLessThanOrEqual(Math.ceil(base.serviceTimers * 1.1));
      }
      // One expiry check armed at a time (etcd's raft election and held renewals are armed only
      // while they are due).
      expect(eighty.serviceTimers).toBeLessThanOrEqual(3);
    });
  }
});
