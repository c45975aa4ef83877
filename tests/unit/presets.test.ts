// "Seen in the wild": every preset under scenes/presets/ validates (a source for each of its
// settings), and its game day, run headless, has the outcome docs/seen-in-the-wild.md states:
// the failover's phases, what storage rejected or accepted, and the system's own lesson.
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseExperiment, Simulation, type Failover, type SimEvent, type Trace } from '../../src/engine';
import { findPreset, presetCatalog, presetCatalogOf } from '../../src/presets/catalog';
import { gameDayExperiment, parsePreset, settingPaths, type Preset } from '../../src/presets/schema';

function preset(id: string): Preset {
  const p = findPreset(id);
  if (!p) throw new Error(`no preset "${id}" in scenes/presets`);
  return p;
}

function run(p: Preset, change: (e: Record<string, unknown>) => Record<string, unknown> = (e) => e): Trace {
  const sim = new Simulation(change(gameDayExperiment(p) as Record<string, unknown>));
  sim.runUntil(sim.experiment.untilMs);
  return sim.trace();
}

type Ev<T extends SimEvent['type']> = Extract<SimEvent, { type: T }>;
const events = <T extends SimEvent['type']>(t: Trace, type: T): Ev<T>[] =>
  t.events.filter((e): e is Ev<T> => e.type === type);

function phases(f: Failover) {
  return {
    detection: f.detectedAtMs - f.lostAtMs,
    election: f.electedAtMs - f.detectedAtMs,
    total: f.readyAtMs - f.lostAtMs,
  };
}

const onlyFailover = (t: Trace) => {
  expect(t.summary.failovers).toHaveLength(1);
  return t.summary.failovers[0];
};

describe('the presets', () => {
  it('loads every file in scenes/presets, and every file validates', () => {
    expect(presetCatalog.problems).toEqual([]);
    const files = readdirSync(new URL('../../scenes/presets/', import.meta.url)).filter((f) =>
      f.endsWith('.json'),
    );
    expect(presetCatalog.presets.map((p) => p.id)).toEqual([
      'kubernetes',
      'etcd-campaign',
      'patroni',
      'kafka-zookeeper-controller',
      'kafka-kraft',
      'redis-sentinel',
      'redis-sentinel-min-replicas',
      'pacemaker-stonith',
      'pacemaker-stonith-unconfirmed',
    ]);
    expect(presetCatalog.presets).toHaveLength(files.length);
  });

  it('gives each system its algorithm, its real timings and a source for every one', () => {
    const setup = Object.fromEntries(
      presetCatalog.presets.map((p) => {
        const { algorithm, nodes: _nodes, ...rest } = p.experiment as Record<string, unknown>;
        return [p.id, { algorithm, ...rest }];
      }),
    );
    expect(setup).toEqual({
      kubernetes: {
        algorithm: 'k8s-lease',
        lease: { durationMs: 15000, renewDeadlineMs: 10000, retryPeriodMs: 2000 },
      },
      'etcd-campaign': { algorithm: 'etcd-election', etcd: { ttlMs: 60000 } },
      patroni: { algorithm: 'etcd-election', etcd: { ttlMs: 30000, renewDeadlineMs: 20000 } },
      'kafka-zookeeper-controller': {
        algorithm: 'zookeeper',
        zookeeper: { sessionTimeoutMs: 18000, tickTimeMs: 2000, watch: 'leader' },
      },
      'kafka-kraft': { algorithm: 'raft', raft: { heartbeatMs: 500, electionTimeoutMs: 2000 } },
      // Redis has no token for storage to check, and no switch for one.
      'redis-sentinel': {
        algorithm: 'redis-sentinel',
        sentinel: { quorum: 2, downAfterMs: 30000, failoverTimeoutMs: 180000 },
      },
      'redis-sentinel-min-replicas': {
        algorithm: 'redis-sentinel',
        sentinel: {
          quorum: 2,
          downAfterMs: 30000,
          failoverTimeoutMs: 180000,
          minReplicasToWrite: 1,
          minReplicasMaxLagMs: 10000,
        },
      },
      'pacemaker-stonith': { algorithm: 'pacemaker', stonith: { tokenMs: 3000, timeoutMs: 60000 } },
      'pacemaker-stonith-unconfirmed': {
        algorithm: 'pacemaker',
        stonith: { tokenMs: 3000, timeoutMs: 60000 },
      },
    });
    for (const p of presetCatalog.presets) {
      expect(Object.keys(p.sources).sort(), p.id).toEqual(settingPaths(p.experiment).sort());
      // A source names a file or a page: a repository path or a document's address.
      for (const s of Object.values(p.sources)) expect(s, p.id).toMatch(/[\w-]+\/[\w./-]+|\.(html|md)\b/);
      expect(p.lesson.trim().split(/(?<=[.!?])\s+(?=[A-Z])/), `${p.id}: one sentence`).toHaveLength(1);
    }
  });

  it('rejects a broken preset and names the bad field', () => {
    const good = structuredClone(preset('patroni')) as unknown as Record<string, unknown>;
    expect(parsePreset(good).ok).toBe(true);
    type Draft = {
      sources: Record<string, string>;
      lesson?: string;
      experiment: { algorithm?: string; faults?: unknown[]; etcd: { renewDeadlineMs: number } };
      gameDay: { faults: { groups: string[][] }[] };
    };
    const fields = (edit: (p: Draft) => void) => {
      const p = structuredClone(good) as unknown as Draft;
      edit(p);
      const r = parsePreset(p);
      return r.ok ? [] : r.errors.map((e) => e.field);
    };
    expect(fields((p) => delete p.sources['etcd.ttlMs'])).toEqual(['sources.etcd.ttlMs']);
    expect(fields((p) => (p.sources['etcd.other'] = 'x/y.md'))).toEqual(['sources.etcd.other']);
    expect(fields((p) => delete p.experiment.algorithm)).toContain('experiment.algorithm');
    expect(fields((p) => (p.experiment.faults = []))).toContain('experiment.faults');
    expect(fields((p) => (p.experiment.etcd.renewDeadlineMs = 5000))).toContain(
      'experiment.etcd.renewDeadlineMs',
    );
    expect(fields((p) => (p.gameDay.faults[0].groups[0][0] = 'n7'))).toContain('gameDay.faults.0.groups.0.0');
    expect(fields((p) => delete p.lesson)).toContain('lesson');
    const c = presetCatalogOf({ 'x/01-good.json': good, 'x/02-bad.json': { ...good, id: 'Bad One' } });
    expect(c.presets.map((p) => p.id)).toEqual(['patroni']);
    expect(c.problems).toEqual([{ file: '02-bad.json', errors: [expect.stringMatching(/^id: /)] }]);
  });
});

describe("each preset's game day", () => {
  it('Kubernetes: a 30 s pause; another replica takes the Lease after 15 s of silence, the zombie is fenced', () => {
    const t = run(preset('kubernetes'));
    const f = onlyFailover(t);
    expect(f).toMatchObject({ lostAtMs: 10000, from: 'n2', cause: 'paused', node: 'n3', term: 1 });
    const p = phases(f);
    expect(p.detection).toBe(17273);
    expect(p.total).toBe(19300);
    // The woken holder writes with token 0 for its 10 s renew deadline: all ten rejected.
    expect(t.summary.fencingRejections).toBe(10);
    expect(t.summary.staleWritesAccepted).toBe(0);
    expect(t.summary.maxLeaderCount).toBe(2);
    expect(events(t, 'steppedDown')).toMatchObject([
      { node: 'n2', atMs: 50000, reason: 'renew deadline passed' },
    ]);
    expect(t.summary.violations).toEqual([]);
    // client-go fences nothing: without a token check the same ten writes land.
    const open = run(preset('kubernetes'), (e) => ({ ...e, safety: { fencing: false } }));
    expect(open.summary.staleWritesAccepted).toBe(10);
  });

  it("etcd Campaign: a killed leader's key waits out the 60 s session TTL", () => {
    const t = run(preset('etcd-campaign'));
    const f = onlyFailover(t);
    expect(f).toMatchObject({ lostAtMs: 10000, from: 'n2', cause: 'killed', node: 'n3' });
    // Its last keep-alive was about TTL/3 before the kill at most: the key expires 50.1 s later.
    expect(phases(f).detection).toBe(50054);
    // No leader from the kill to the election (start-up, before the first, is no outage).
    expect(t.summary.msWithoutLeader).toBe(50054);
    // The next candidate was watching the dead one's key: one notification.
    expect(t.summary.watchNotifications).toBe(1);
    expect([t.summary.fencingRejections, t.summary.staleWritesAccepted]).toEqual([0, 0]);
    // The lesson's 10 s TTL cuts the wait to about a sixth.
    const ten = run(preset('etcd-campaign'), (e) => ({ ...e, etcd: { ttlMs: 10000 } }));
    expect(phases(ten.summary.failovers[0]).detection).toBeLessThan(10000);
  });

  it('Patroni: a primary cut off from etcd demotes itself 10 s before its key expires; never two primaries', () => {
    const t = run(preset('patroni'));
    const f = onlyFailover(t);
    expect(f).toMatchObject({ lostAtMs: 10000, from: 'n2', cause: 'partitioned', node: 'n3' });
    expect(events(t, 'steppedDown')).toMatchObject([
      { node: 'n2', atMs: 20024, reason: 'renew deadline passed' },
    ]);
    expect(f.electedAtMs).toBe(30039);
    expect(f.electedAtMs - 20024).toBeGreaterThan(9000);
    expect(t.summary.maxLeaderCount).toBe(1);
    expect([t.summary.fencingRejections, t.summary.staleWritesAccepted]).toEqual([0, 0]);
    expect(t.summary.violations).toEqual([]);
    // Without the demotion deadline it would act until its key expired, 10 s longer.
    const keepsGoing = run(preset('patroni'), (e) => ({ ...e, etcd: { ttlMs: 30000 } }));
    expect(events(keepsGoing, 'steppedDown')).toMatchObject([{ node: 'n2', reason: 'lease expired' }]);
    expect(events(keepsGoing, 'steppedDown')[0].atMs).toBeGreaterThan(30000);
  });

  it("Kafka with ZooKeeper: the controller's 18 s session must expire, and its deletion wakes every other broker", () => {
    const t = run(preset('kafka-zookeeper-controller'));
    const f = onlyFailover(t);
    expect(f).toMatchObject({ lostAtMs: 10000, from: 'n2', cause: 'killed', node: 'n1', term: 2 });
    expect(phases(f).detection).toBe(14044);
    expect(phases(f).detection).toBeLessThanOrEqual(18000);
    // Two brokers besides the controller: two notifications, two reads (N - 1).
    expect([t.summary.watchNotifications, t.summary.watchReads]).toEqual([2, 2]);
    expect(t.summary.maxLeaderCount).toBe(1);
    expect(t.summary.violations).toEqual([]);
  });

  it('Kafka KRaft: a controller paused past the fetch timeout is replaced at the next epoch, and its stale-epoch request is rejected', () => {
    const t = run(preset('kafka-kraft'));
    const f = onlyFailover(t);
    expect(f).toMatchObject({ lostAtMs: 10000, from: 'n2', cause: 'paused', node: 'n1', term: 2 });
    // No fetch answered for 2 to 4 s (the fetch timeout, drawn in [2, 4) s): a follower campaigns.
    expect(f.electedAtMs - f.lostAtMs).toBe(2435);
    expect(phases(f).detection).toBeGreaterThanOrEqual(2000);
    expect(phases(f).detection).toBeLessThan(4000);
    // At 15 s the old controller wakes: the request it had checked before the pause leaves with
    // epoch 1, after storage (the broker) has seen epoch 2, and is rejected; the first message it
    // hears has the higher epoch, and it steps down.
    expect(events(t, 'resumed')).toMatchObject([{ node: 'n2', atMs: 15000, pausedMs: 5000 }]);
    const stale = events(t, 'write').filter((w) => w.result === 'rejected');
    expect(stale).toMatchObject([{ node: 'n2', token: 1, maxTokenSeen: 2, atMs: 15008 }]);
    expect(t.summary.fencingRejections).toBe(1);
    expect(t.summary.staleWritesAccepted).toBe(0);
    expect(events(t, 'steppedDown')).toMatchObject([
      { node: 'n2', term: 1, atMs: 15000, reason: 'saw higher term' },
    ]);
    // Two controllers believed active while n2 was frozen; never a violation.
    expect(t.summary.maxLeaderCount).toBe(2);
    expect(t.summary.violations).toEqual([]);
    // Without the epoch check the same request lands: a stale controller's write accepted.
    const open = run(preset('kafka-kraft'), (e) => ({ ...e, safety: { fencing: false } }));
    expect(open.summary.fencingRejections).toBe(0);
    expect(open.summary.staleWritesAccepted).toBe(1);
  });
});

describe("each preset's game day, continued: the systems without a token", () => {
  /** Time without a primary that serves: no leader a scrape can see (a hung one fails it). */
  const msUnserved = (t: Trace, fromMs: number) =>
    t.samples.filter((x) => x.atMs >= fromMs && x.leaderCountObserved === 0).length *
    t.experiment.sampleEveryMs;

  it('Redis Sentinel: the isolated primary keeps taking writes, and rejoining as a replica loses them all', () => {
    const t = run(preset('redis-sentinel'));
    const f = onlyFailover(t);
    expect(f).toMatchObject({ lostAtMs: 10000, from: 'n1', cause: 'partitioned', node: 'n2', term: 1 });
    // down-after-milliseconds counts from the last good PING reply, just before the cut.
    expect(phases(f).detection).toBe(30453);
    expect(phases(f).detection).toBeGreaterThanOrEqual(29000);
    expect(f.electedAtMs - f.detectedAtMs).toBeLessThan(100);
    // Two primaries from the promotion until the sentinels reconfigure n1, 8 s after the heal shows it.
    expect(t.summary.maxLeaderCount).toBe(2);
    expect(events(t, 'steppedDown')).toMatchObject([
      { node: 'n1', atMs: 69016, reason: 'reconfigured as a replica' },
    ]);
    // Every write n1 took from the cut to its demotion is gone; those after n2's promotion were
    // also stale (a newer primary existed), and nothing could reject them.
    expect(t.summary.writesLost).toBe(60);
    expect(events(t, 'resynced').filter((e) => e.lost > 0)).toMatchObject([
      { node: 'n1', from: 'n2', lost: 60, atMs: expect.any(Number) },
    ]);
    expect(t.summary.staleWritesAccepted).toBe(29);
    expect(t.summary.fencingRejections).toBe(0);
    // Allowed by Redis itself, which has no token, not by a switch someone forgot.
    expect(new Set(t.summary.violations.map((v) => v.allowedBy))).toEqual(new Set(['algorithm']));
    expect(t.experiment.safety.fencing).toBeUndefined();
    // There is no token check to turn on: asking for one is an error naming the field.
    const checked = parseExperiment({ ...preset('redis-sentinel').experiment, safety: { fencing: true } });
    expect(checked.ok ? [] : checked.errors).toEqual([
      { field: 'safety.fencing', message: 'means nothing under the Redis Sentinel algorithm (leave it out)' },
    ]);
  });

  it('Redis Sentinel with min-replicas-to-write: the cut-off primary stops after 10 s of lag, bounding the loss', () => {
    const t = run(preset('redis-sentinel-min-replicas'));
    const f = onlyFailover(t);
    expect(f).toMatchObject({ lostAtMs: 10000, from: 'n1', node: 'n2' });
    expect(t.summary.writesLost).toBe(11);
    // It stopped writing long before the promotion: nothing stale, nothing lost after ~20 s.
    expect(t.summary.staleWritesAccepted).toBe(0);
    const lastByN1 = Math.max(
      ...events(t, 'write')
        .filter((w) => w.node === 'n1')
        .map((w) => w.atMs),
    );
    expect(lastByN1).toBeLessThan(21000);
    expect(lastByN1).toBeGreaterThan(19000);
    // The same run without it loses five times as much.
    const off = run(preset('redis-sentinel-min-replicas'), (e) => ({
      ...e,
      sentinel: { ...(e.sentinel as object), minReplicasToWrite: 0 },
    }));
    expect(off.summary.writesLost).toBe(60);
  });

  it('STONITH: the hung primary is powered off before n2 is promoted, and never writes again', () => {
    const t = run(preset('pacemaker-stonith'));
    const f = onlyFailover(t);
    expect(f).toMatchObject({ lostAtMs: 10000, from: 'n1', cause: 'paused', node: 'n2', term: 1 });
    // Lost after Corosync's 3 s token; the power-off comes first, then the promotion.
    expect(phases(f).detection).toBe(3455);
    const off = events(t, 'steppedDown');
    expect(off).toMatchObject([{ node: 'n1', atMs: 13471, reason: 'powered off by STONITH' }]);
    expect(f.electedAtMs).toBe(13479);
    expect(f.electedAtMs).toBeGreaterThan(off[0].atMs);
    expect(
      events(t, 'fault')
        .filter((e) => !e.skipped)
        .map((e) => e.fault.do),
    ).toEqual(['pause', 'kill']);
    // Its pause would have ended at 50 s: it is off, so there is no zombie and no second primary.
    expect(events(t, 'resumed')).toEqual([]);
    expect(t.summary.maxLeaderCount).toBe(1);
    expect([t.summary.staleWritesAccepted, t.summary.fencingRejections]).toEqual([0, 0]);
    expect(t.summary.violations).toEqual([]);
    expect(msUnserved(t, 10000)).toBe(3500);
  });

  it('STONITH unconfirmed: with the fence device down nothing is promoted; no primary serves until n1 wakes', () => {
    const t = run(preset('pacemaker-stonith-unconfirmed'));
    expect(t.summary.failovers).toEqual([]);
    expect(t.summary.elections).toBe(1);
    expect(events(t, 'campaign').length).toBeGreaterThan(0);
    expect(events(t, 'elected').map((e) => e.node)).toEqual(['n1']);
    // 40 s unserved instead of 3.5 s: the price of never risking two primaries.
    expect(msUnserved(t, 10000)).toBe(40000);
    expect(t.summary.maxLeaderCount).toBe(1);
    expect(t.summary.violations).toEqual([]);
  });
});
