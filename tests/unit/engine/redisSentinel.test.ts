// Redis Sentinel's rules, as redis.io's Sentinel documentation and src/sentinel.c state them: a
// sentinel calls the primary down (SDOWN) after down-after-milliseconds without a valid PING reply;
// it is objectively down (ODOWN) only once `quorum` sentinels agree; the failover is authorized
// only by votes from a majority of the sentinels (and never fewer than the quorum); a failed try
// is repeated after twice the failover-timeout; the replica with the most data is promoted; a
// primary with fewer than min-replicas-to-write replicas acknowledging within min-replicas-max-lag
// refuses writes. And Pacemaker's STONITH on the same model: no promotion before the fence
// device confirms the power-off, retried every stonith-timeout.
import { describe, expect, it } from 'vitest';
import { parseExperiment, runExperiment, Simulation, type ExperimentInput } from '../../../src/engine';
import { commonPrefix, votesNeeded, type RedisShared } from '../../../src/engine/algorithms/redisSentinel';
import type { Core } from '../../../src/engine/core';
import { eventsOf } from './harness';
import { commandProblems } from '../../../src/engine/experiment';
import { monitorEvents } from '../../engineChecks';

const redis = (extra: Partial<ExperimentInput> = {}): ExperimentInput => ({
  algorithm: 'redis-sentinel',
  nodes: 3,
  untilMs: 60_000,
  ...extra,
});

const campaigns = (t: ReturnType<typeof runExperiment>) =>
  t.events.filter((e) => e.type === 'campaign').map((e) => e.atMs);
const promoted = (t: ReturnType<typeof runExperiment>) =>
  t.events.filter((e) => e.type === 'elected').map((e) => e.node);

describe('Redis Sentinel: who may fail the primary over', () => {
  it('calls the primary down after down-after-milliseconds without a valid reply, not before', () => {
    const t = runExperiment(
      redis({ sentinel: { downAfterMs: 5000 }, faults: [{ atMs: 10_000, do: 'kill', node: 'n1' }] }),
    );
    const [first] = campaigns(t);
    // The last good reply came at most one ping period before the kill.
    expect(first).toBeGreaterThan(10_000 + 5000 - 1000);
    expect(first).toBeLessThanOrEqual(10_000 + 5000 + 1000 + 20);
    expect(promoted(t)).toEqual(['n1', 'n2']);
  });

  it('needs `quorum` sentinels to agree (ODOWN): quorum 3 with one sentinel dead never fails over', () => {
    const faults = [
      { atMs: 1000, do: 'kill' as const, node: 's3' },
      { atMs: 10_000, do: 'kill' as const, node: 'n1' },
    ];
    const three = runExperiment(redis({ sentinel: { quorum: 3, downAfterMs: 5000 }, faults }));
    expect(campaigns(three)).toEqual([]);
    expect(promoted(three)).toEqual(['n1']);
    const two = runExperiment(redis({ sentinel: { quorum: 2, downAfterMs: 5000 }, faults }));
    expect(promoted(two)).toEqual(['n1', 'n2']);
  });

  it('needs votes from a majority of the sentinels: quorum 1 lets a lone sentinel see ODOWN, not promote', () => {
    expect(votesNeeded(1, 3)).toBe(2);
    expect(votesNeeded(2, 3)).toBe(2);
    expect(votesNeeded(3, 3)).toBe(3);
    const t = runExperiment(
      redis({
        sentinel: { quorum: 1, downAfterMs: 5000, failoverTimeoutMs: 20_000 },
        faults: [
          { atMs: 1000, do: 'kill', node: 's2' },
          { atMs: 1000, do: 'kill', node: 's3' },
          { atMs: 10_000, do: 'kill', node: 'n1' },
        ],
        untilMs: 120_000,
      }),
    );
    expect(promoted(t)).toEqual(['n1']);
    // It keeps trying, each try 2 x failover-timeout after the last (plus up to 1 s of desync).
    const tries = campaigns(t);
    expect(tries.length).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < tries.length; i++) {
      expect(tries[i] - tries[i - 1]).toBeGreaterThanOrEqual(40_000);
      expect(tries[i] - tries[i - 1]).toBeLessThanOrEqual(42_000);
    }
  });

  it('promotes the replica with the largest replication offset', () => {
    // n2 is cut off from the primary for a while, so n3 holds more of its writes when it dies.
    const t = runExperiment(
      redis({
        sentinel: { downAfterMs: 5000 },
        faults: [
          // The sentinels, named in no group, reach both sides.
          { atMs: 5000, do: 'partition', groups: [['n2'], ['n1', 'n3']] },
          { atMs: 15_000, do: 'kill', node: 'n1' },
        ],
      }),
    );
    expect(promoted(t)).toEqual(['n1', 'n3']);
  });
});

describe('Redis Sentinel: the old primary and its writes', () => {
  it('turns a returning old primary into a replica, which discards what the new primary never had', () => {
    const sim = new Simulation(
      redis({
        sentinel: { downAfterMs: 5000 },
        faults: [
          { atMs: 10_000, do: 'isolate', node: 'n1' },
          { atMs: 30_000, do: 'heal' },
        ],
      }),
    );
    sim.runUntil(60_000);
    const down = eventsOf(sim, 'steppedDown');
    expect(down).toMatchObject([{ node: 'n1', reason: 'reconfigured as a replica' }]);
    // Not before the sentinels have seen it claim the primary role for 8 s (SENTINEL_PUBLISH_PERIOD x 4).
    expect(down[0].atMs).toBeGreaterThanOrEqual(38_000);
    const n1Writes = eventsOf(sim, 'write').filter(
      (w) => w.node === 'n1' && w.atMs > 10_000 && w.atMs <= down[0].atMs,
    ).length;
    // Every write n1 took after the cut is lost (one more may have been in flight to its replicas).
    expect(sim.summary().writesLost).toBeGreaterThanOrEqual(n1Writes);
    expect(sim.summary().writesLost).toBeLessThanOrEqual(n1Writes + 1);
    expect(
      sim
        .snapshot()
        .nodes.filter((n) => n.role === 'leader')
        .map((n) => n.id),
    ).toEqual(['n2']);
  });

  it("has no token to check: storage takes the old primary's writes, and the snapshot counts the lost ones", () => {
    const sim = new Simulation(
      redis({
        sentinel: { downAfterMs: 5000 },
        faults: [
          { atMs: 10_000, do: 'isolate', node: 'n1' },
          { atMs: 30_000, do: 'heal' },
        ],
      }),
    );
    expect(sim.experiment.safety.fencing).toBeUndefined();
    expect(sim.snapshot().writesLost).toBe(0);
    sim.runUntil(60_000);
    const s = sim.snapshot();
    expect(s.counters.fencingRejections).toBe(0);
    expect(s.counters.staleWritesAccepted).toBeGreaterThan(0);
    // The snapshot's count is the summary's, and the events alone fold to it (a recording agrees).
    expect(s.writesLost).toBeGreaterThan(0);
    expect(s.writesLost).toBe(sim.summary().writesLost);
    const t = sim.trace();
    expect(monitorEvents(t.experiment, t.events, 60_000).writesLost).toBe(s.writesLost);
    // A switch it does not have is refused by name, live as in a file.
    expect(commandProblems(sim.experiment, { do: 'safety', fencing: true })).toEqual([
      { field: 'fencing', message: 'means nothing under the Redis Sentinel algorithm' },
    ]);
  });

  it("min-replicas-to-write: refuses writes, its own and clients', once the freshest ACK is older than the max lag", () => {
    const t = runExperiment(
      redis({
        sentinel: { minReplicasToWrite: 2, minReplicasMaxLagMs: 4000 },
        workload: { clients: 5, clientWriteEveryMs: 500 },
        faults: [{ atMs: 10_000, do: 'partition', groups: [['n1', 'n2'], ['n3']] }],
        untilMs: 30_000,
      }),
    );
    // It needs both replicas; n3's last ACK came just before the cut, so writes stop 4-5 s later.
    const mine = t.events.filter((e) => e.type === 'write' && e.node === 'n1').map((e) => e.atMs);
    const last = Math.max(...mine);
    expect(last).toBeGreaterThan(13_000);
    expect(last).toBeLessThan(15_100);
    const refused = t.events.filter(
      (e) => e.type === 'clientWrite' && e.to === 'n1' && e.result === 'unavailable' && e.atMs > 15_100,
    );
    expect(refused.length).toBeGreaterThan(10);
    // One replica is enough for 1: the same cut leaves n1 writing.
    const one = runExperiment(
      redis({
        sentinel: { minReplicasToWrite: 1, minReplicasMaxLagMs: 4000 },
        faults: [{ atMs: 10_000, do: 'partition', groups: [['n1', 'n2'], ['n3']] }],
        untilMs: 30_000,
      }),
    );
    expect(
      Math.max(...one.events.filter((e) => e.type === 'write' && e.node === 'n1').map((e) => e.atMs)),
    ).toBeGreaterThan(28_000);
  });

  it('lets a restarted old primary come back a primary, as its configuration says, then turns it into a replica', () => {
    const t = runExperiment(
      redis({
        sentinel: { downAfterMs: 5000 },
        faults: [
          { atMs: 10_000, do: 'kill', node: 'n1' },
          { atMs: 30_000, do: 'restart', node: 'n1' },
        ],
      }),
    );
    const elected = t.events.filter((e) => e.type === 'elected').map((e) => [e.node, e.term, e.atMs]);
    expect(elected.map(([n, term]) => [n, term])).toEqual([
      ['n1', 0],
      ['n2', 1],
      ['n1', 0],
    ]);
    const down = t.events.filter((e) => e.type === 'steppedDown' && e.reason === 'reconfigured as a replica');
    expect(down).toMatchObject([{ node: 'n1' }]);
    expect(down[0].atMs - 30_000).toBeGreaterThanOrEqual(8000);
    // What it took as a primary again in the meantime is gone.
    expect(t.summary.writesLost).toBeGreaterThan(0);
    // Its writes with the old epoch are stale, and Redis, with no token to check, lets them in.
    expect(new Set(t.summary.violations.map((v) => `${v.invariant} ${v.allowedBy}`))).toEqual(
      new Set(['staleWriteAccepted algorithm']),
    );
  });

  it('counts what two data sets share through the chain of promotions', () => {
    const promotions: RedisShared['promotions'] = [
      { epoch: 1, fromLineage: 0, fromOffset: 10 },
      { epoch: 2, fromLineage: 1, fromOffset: 15 },
    ];
    expect(commonPrefix(promotions, { lineage: 0, offset: 30 }, { lineage: 1, offset: 40 })).toBe(10);
    expect(commonPrefix(promotions, { lineage: 0, offset: 8 }, { lineage: 1, offset: 40 })).toBe(8);
    expect(commonPrefix(promotions, { lineage: 0, offset: 30 }, { lineage: 2, offset: 40 })).toBe(10);
    expect(commonPrefix(promotions, { lineage: 1, offset: 20 }, { lineage: 2, offset: 16 })).toBe(15);
    expect(commonPrefix(promotions, { lineage: 2, offset: 20 }, { lineage: 2, offset: 16 })).toBe(16);
  });

  it('names min-replicas-to-write that no cluster of this size could satisfy', () => {
    const r = parseExperiment(redis({ sentinel: { minReplicasToWrite: 3 } }));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors.map((e) => e.field)).toEqual(['sentinel.minReplicasToWrite']);
  });
});

describe('Pacemaker with STONITH', () => {
  const pacemaker = (extra: Partial<ExperimentInput> = {}): ExperimentInput => ({
    algorithm: 'pacemaker',
    nodes: 3,
    untilMs: 60_000,
    ...extra,
  });

  it('promotes only after the fence device confirms the old primary off', () => {
    const t = runExperiment(pacemaker({ faults: [{ atMs: 10_000, do: 'pause', node: 'n1' }] }));
    const off = t.events.find((e) => e.type === 'steppedDown' && e.reason === 'powered off by STONITH');
    const elected = t.events.filter((e) => e.type === 'elected');
    expect(off).toBeDefined();
    expect(elected.map((e) => e.node)).toEqual(['n1', 'n2']);
    expect(elected[1].atMs).toBeGreaterThan(off!.atMs);
    expect(t.final.nodes[0]).toMatchObject({ id: 'n1', alive: false });
  });

  it('retries an unconfirmed fence every stonith-timeout, and promotes nobody meanwhile', () => {
    let core: Core | undefined;
    const sim = new Simulation(
      pacemaker({
        stonith: { tokenMs: 3000, timeoutMs: 20_000 },
        faults: [
          { atMs: 1000, do: 'isolate', node: 'f1' },
          { atMs: 10_000, do: 'kill', node: 'n1' },
        ],
        untilMs: 100_000,
      }),
      (c) => (core = c),
    );
    sim.runUntil(100_000);
    expect(eventsOf(sim, 'elected').map((e) => e.node)).toEqual(['n1']);
    // The first to act asked at ~13 s: unconfirmed at ~33, ~53, ~73 and ~93 s. The sentinel that
    // lost that vote may try on its own 2 x failover-timeout later (here the stonith-timeout,
    // 20 s): from ~53 s, unconfirmed at ~73 and ~93 s. Neither promotes.
    const retries = (core!.a as RedisShared).sentinels.map((x) => x.fenceTimeouts).sort();
    expect(retries).toEqual([0, 2, 4]);
    expect(sim.summary().msWithoutLeader).toBe(90_000);
  });

  it("names its settings, and refuses Sentinel's", () => {
    const r = parseExperiment(pacemaker({ sentinel: { quorum: 2 } }));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors.map((e) => e.field)).toEqual(['sentinel']);
    const ok = parseExperiment(pacemaker());
    expect(ok.ok && ok.experiment.stonith).toEqual({ tokenMs: 3000, timeoutMs: 60_000 });
  });
});

describe('SENTINEL FAILOVER (the campaign command)', () => {
  it('fails a healthy primary over at once, without ODOWN or votes; the old primary becomes a replica after the wait', () => {
    const sim = new Simulation(
      redis({ faults: [{ atMs: 10_000, do: 'campaign', node: 'n3' }], untilMs: 40_000 }),
    );
    sim.runUntil(40_000);
    const elected = eventsOf(sim, 'elected');
    expect(elected.map((e) => [e.node, e.term])).toEqual([
      ['n1', 0],
      ['n2', 1],
    ]);
    expect(elected[1].atMs - 10_000).toBeLessThan(1000);
    const down = eventsOf(sim, 'steppedDown');
    expect(down).toMatchObject([{ node: 'n1', reason: 'reconfigured as a replica' }]);
    // Not told at the switch: corrected once seen claiming the primary role for 8 s.
    expect(down[0].atMs - elected[1].atMs).toBeGreaterThanOrEqual(8000);
    expect(down[0].atMs - elected[1].atMs).toBeLessThan(11_000);
    // Until then n1 still takes writes, which n2 never gets: lost when it resynchronises.
    const n1Writes = eventsOf(sim, 'write').filter(
      (w) => w.node === 'n1' && w.atMs > elected[1].atMs && w.atMs <= down[0].atMs,
    ).length;
    expect(n1Writes).toBeGreaterThan(5);
    expect(sim.summary().writesLost).toBeGreaterThanOrEqual(n1Writes);
    expect(sim.summary().writesLost).toBeLessThanOrEqual(n1Writes + 1);
  });
});
