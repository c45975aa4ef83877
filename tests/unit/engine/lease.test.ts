// Kubernetes' lease timing: heartbeats every RetryPeriod, a leader steps down when it has not
// renewed within RenewDeadline by its own clock, followers wait LeaseDuration since they last
// heard from a leader before they campaign or vote.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { due, localNow, realAtLocal } from '../../../src/engine/core';
import { onElectionTimer } from '../../../src/engine/algorithms/raft';
import type { Simulation } from '../../../src/engine';
import { bench, benchNode, bootToLeader, deliver, eventsOf, nodeView, flat } from './harness';

/** Send times of the leader's heartbeats to one follower, watched message by message. */
function heartbeatTimes(sim: Simulation, leader: string, to: string, untilMs: number): number[] {
  const seen = new Map<number, number>();
  while (sim.nowMs < untilMs && sim.step()) {
    for (const m of sim.snapshot().messages) {
      if (m.type === 'heartbeat' && m.from === leader && m.to === to) seen.set(m.id, m.sentAtMs);
    }
  }
  return [...seen.values()].sort((a, b) => a - b);
}

const gaps = (xs: number[]) => xs.slice(1).map((x, i) => x - xs[i]);

describe('heartbeats', () => {
  it('are sent every RetryPeriod', () => {
    const lease = { durationMs: 12_000, renewDeadlineMs: 8000, retryPeriodMs: 3000 };
    const { sim, leader } = bootToLeader({ seed: 2, lease });
    const to = leader.id === 'n1' ? 'n2' : 'n1';
    const times = heartbeatTimes(sim, leader.id, to, 20_000);
    expect(times.length).toBeGreaterThanOrEqual(5);
    expect(new Set(gaps(times))).toEqual(new Set([3000]));
  });

  it("are sent every RetryPeriod of the leader's own clock", () => {
    const { sim, leader } = bootToLeader({ seed: 2 });
    sim.apply({ do: 'clockRate', node: leader.id, rate: 0.5 });
    const to = leader.id === 'n1' ? 'n2' : 'n1';
    const times = heartbeatTimes(sim, leader.id, to, 30_000);
    expect(new Set(gaps(times).slice(1))).toEqual(new Set([4000]));
  });
});

describe('renewal and RenewDeadline', () => {
  it('keeps renewing while a majority acknowledges (3 of 5 alive)', () => {
    const { sim, leader } = bootToLeader({ seed: 6 });
    const others = sim
      .snapshot()
      .nodes.filter((n) => n.id !== leader.id)
      .map((n) => n.id);
    sim.apply({ do: 'kill', node: others[0] });
    sim.apply({ do: 'kill', node: others[1] });
    for (let t = 5000; t <= 60_000; t += 5000) {
      sim.runUntil(t);
      const l = nodeView(sim, leader.id);
      expect(l.role).toBe('leader');
      expect(t - l.lastRenewAtMs).toBeLessThanOrEqual(2000 + 20);
    }
  });

  for (const rate of [1, 0.5, 2]) {
    it(`steps down exactly RenewDeadline after its last renewal, by its own clock (rate ${rate})`, () => {
      const { sim, leader } = bootToLeader({ seed: 7 });
      sim.runUntil(10_000);
      const cutAtMs = sim.nowMs;
      sim.apply({ do: 'clockRate', node: leader.id, rate });
      // Cut off from every peer, with the storage on its side so no newer token can fence it:
      // only the missing acks, measured by its own clock, end its leadership.
      const others = sim
        .snapshot()
        .nodes.filter((n) => n.id !== leader.id)
        .map((n) => n.id);
      sim.apply({ do: 'partition', groups: [[leader.id, 'storage'], others] });
      const lastRenewAtMs = nodeView(sim, leader.id).lastRenewAtMs;
      sim.runUntil(60_000);
      const down = eventsOf(sim, 'steppedDown').filter((e) => e.node === leader.id);
      expect(down).toHaveLength(1);
      expect(down[0].reason).toBe('renew deadline passed');
      // Real time for 10 s of its clock, counted from the cut (before it, its clock ran at 1).
      const expected = cutAtMs + (lastRenewAtMs + 10_000 - cutAtMs) / rate;
      expect(Math.abs(down[0].atMs - expected)).toBeLessThanOrEqual(1);
      // It stops acting: no privileged write leaves it after it stepped down.
      const late = eventsOf(sim, 'write').filter((w) => w.node === leader.id && w.atMs > down[0].atMs + 10);
      expect(late).toEqual([]);
    });
  }

  it('steps down when a majority is gone (2 of 5 alive)', () => {
    const { sim, leader } = bootToLeader({ seed: 6 });
    const others = sim
      .snapshot()
      .nodes.filter((n) => n.id !== leader.id)
      .map((n) => n.id);
    for (const id of others.slice(0, 3)) sim.apply({ do: 'kill', node: id });
    sim.runUntil(30_000);
    expect(eventsOf(sim, 'steppedDown')).toEqual([
      expect.objectContaining({ node: leader.id, reason: 'renew deadline passed' }),
    ]);
  });
});

describe('LeaseDuration on the followers', () => {
  for (const rate of [1, 2]) {
    it(`no follower campaigns until LeaseDuration of its own clock after it last heard (rate ${rate})`, () => {
      const { sim, leader } = bootToLeader({ seed: 8 });
      sim.runUntil(7000);
      const fast = sim.snapshot().nodes.find((n) => n.id !== leader.id)!.id;
      sim.apply({ do: 'clockRate', node: fast, rate });
      sim.runUntil(9000);
      const heard = new Map(sim.snapshot().nodes.map((n) => [n.id, n.lastRenewAtMs]));
      sim.apply({ do: 'kill', node: leader.id });
      sim.runUntil(40_000);
      const campaigns = eventsOf(sim, 'campaign').filter((e) => e.atMs > 9000);
      expect(campaigns.length).toBeGreaterThan(0);
      for (const e of campaigns) {
        const r = e.node === fast ? rate : 1;
        expect(e.atMs, `${e.node} campaigned early`).toBeGreaterThanOrEqual(
          heard.get(e.node)! + 15_000 / r - 1,
        );
      }
      // Jitter is at most 2 s, so the first campaign comes no later than that after the lease.
      const first = campaigns[0];
      const r = first.node === fast ? rate : 1;
      expect(first.atMs).toBeLessThanOrEqual(heard.get(first.node)! + (15_000 + 2000) / r + 1);
    });
  }

  it('refuses votes and pre-votes until LeaseDuration after the last heartbeat, then grants', () => {
    const b = bench();
    deliver(b, 'n2', 'n1', { type: 'heartbeat', term: 1, round: 1 });
    b.c.nowMs = 14_999;
    expect(deliver(b, 'n3', 'n1', { type: 'preVote', term: 2 })).toEqual([
      expect.objectContaining({ granted: false }),
    ]);
    expect(deliver(b, 'n3', 'n1', { type: 'requestVote', term: 2 })).toEqual([
      expect.objectContaining({ granted: false }),
    ]);
    expect(flat(benchNode(b, 'n1'))).toMatchObject({ term: 1, votedFor: null, knownLeader: 1 });
    b.c.nowMs = 15_000;
    expect(deliver(b, 'n3', 'n1', { type: 'preVote', term: 2 })).toEqual([
      expect.objectContaining({ granted: true }),
    ]);
    expect(deliver(b, 'n3', 'n1', { type: 'requestVote', term: 2 })).toEqual([
      expect.objectContaining({ granted: true }),
    ]);
  });
});

describe('own-clock deadlines', () => {
  // Regression: at a clock rate other than 1 the float clock could read 1e-11 short of a deadline
  // at the very millisecond its timer fired, so the timer re-armed itself at that millisecond
  // forever and the simulation hung (seed 251, a 3-node cluster with n3's clock at 0.8).
  it('finds a deadline due at the millisecond its timer was scheduled for', () => {
    const b = bench({ nodes: 3 });
    const n3 = benchNode(b, 'n3');
    Object.assign(n3, { clockRate: 0.8, anchorRealMs: 6933, anchorLocalMs: 6933 });
    b.c.nowMs = realAtLocal(b.c, n3, 41518.600000000006);
    expect(b.c.nowMs).toBe(50165);
    expect(localNow(b.c, n3)).toBeLessThan(41518.600000000006);
    expect(due(b.c, n3, 41518.600000000006)).toBe(true);
    n3.p.electionDeadlineLocalMs = 41518.600000000006;
    onElectionTimer(b.c, b.out, n3);
    expect(b.out.events).toContainEqual(expect.objectContaining({ type: 'campaign', node: 'n3' }));
  });

  it('never finds a deadline due before its real time, and always at it', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.05, max: 20, noNaN: true }),
        fc.integer({ min: 0, max: 1e6 }),
        fc.double({ min: 0, max: 1e6, noNaN: true }),
        fc.double({ min: 0, max: 1e5, noNaN: true }),
        (rate, anchorRealMs, anchorLocalMs, aheadMs) => {
          const b = bench();
          const n = benchNode(b, 'n1');
          Object.assign(n, { clockRate: rate, anchorRealMs, anchorLocalMs });
          b.c.nowMs = anchorRealMs;
          const deadline = anchorLocalMs + aheadMs;
          const at = realAtLocal(b.c, n, deadline);
          b.c.nowMs = at;
          expect(due(b.c, n, deadline)).toBe(true);
          if (at > anchorRealMs) {
            b.c.nowMs = at - 1;
            expect(due(b.c, n, deadline)).toBe(false);
          }
        },
      ),
      { seed: 4242, numRuns: 2000 },
    );
  });
});
