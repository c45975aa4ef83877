// The explorer end to end on the real engine, under every algorithm: it finds the lesson's failure
// with fencing off, with quorum off and under an algorithm without a quorum, within a few
// schedules; shrinks it to a schedule where every fault matters, as a normal experiment of the
// same algorithm; finds nothing with every defence on; and gives the same answer for the same seed.
import { describe, expect, it } from 'vitest';
import {
  INVARIANT_TITLES,
  normalizeExperiment,
  parseExperiment,
  type InvariantName,
  type Violation,
} from '../../../src/engine';
import { describeSchedule, explore } from '../../../src/explorer/explore';
import type { ExplorerFault } from '../../../src/explorer/schedule';
import { exploreOk, expectMinimal, expectSimplest, mustFind, violationsOf } from './helpers';

/** A finding without its wall-clock figures, which differ from run to run. */
const timeless = (r: ReturnType<typeof exploreOk>) => ({
  ...r,
  searchMs: 0,
  schedulesPerSecond: 0,
  finding: r.finding && { ...r.finding, shrinkMs: 0 },
});

/** Each setup with a lesson: the invariants its failure breaks, and what allows it. */
const LESSONS: [string, { algorithm?: string; safety?: object }, InvariantName[], Violation['allowedBy']][] =
  [
    ['Raft, fencing off', { safety: { fencing: false } }, ['staleWriteAccepted'], 'fencing'],
    ['Raft, quorum off', { safety: { quorum: false } }, ['oneLeaderPerTerm', 'leaderHasMajority'], 'quorum'],
    [
      "Kubernetes' Lease, fencing off",
      { algorithm: 'k8s-lease', safety: { fencing: false } },
      ['staleWriteAccepted'],
      'fencing',
    ],
    [
      "etcd's election, fencing off",
      { algorithm: 'etcd-election', safety: { fencing: false } },
      ['staleWriteAccepted'],
      'fencing',
    ],
    [
      'ZooKeeper, fencing off',
      { algorithm: 'zookeeper', safety: { fencing: false } },
      ['staleWriteAccepted'],
      'fencing',
    ],
    ['Bully', { algorithm: 'bully' }, ['oneLeaderPerTerm'], 'algorithm'],
    ['Ring', { algorithm: 'ring' }, ['oneLeaderPerTerm'], 'algorithm'],
  ];

describe('the failure explorer', () => {
  it.each(LESSONS)(
    "%s: finds the lesson's failure within 20 schedules and shrinks it to a replayable minimal experiment",
    (_name, setup, invariants, allowedBy) => {
      const r = exploreOk(setup);
      expect(r.outcome).toBe('found');
      expect(r.schedulesTried).toBeLessThanOrEqual(20);
      const f = r.finding!;
      expect(invariants).toContain(f.violation.invariant);
      expect(f.violation.allowedBy).toBe(allowedBy);
      expect(f.found.faults).toBeGreaterThanOrEqual(f.faults.length);
      expectMinimal(f);
      expectSimplest(f);
      // A normal experiment of the same algorithm, with the setup's outputs (not the lean run's),
      // that replays from its JSON to the same first violation.
      expect(f.experiment.algorithm).toBe(setup.algorithm);
      expect(f.experiment.sampleEveryMs).toBe(100);
      expect(f.experiment.limits.maxEvents).toBe(200_000);
      expect(f.experiment.untilMs).toBeLessThan(120_000);
      const replayed = parseExperiment(JSON.parse(JSON.stringify(f.experiment)));
      expect(replayed.ok && replayed.experiment).toEqual(f.experiment);
      expect(violationsOf(f.experiment)[0]).toEqual(f.violation);
    },
  );

  it.each(['raft', 'k8s-lease', 'etcd-election', 'zookeeper'])(
    '%s with every defence on: finds nothing, and says how much it searched',
    (algorithm) => {
      const r = exploreOk({ algorithm }, { budgetSchedules: 100 });
      expect(r).toMatchObject({ outcome: 'nothing', schedulesTried: 100, finding: null });
      expect(r.schedulesPerSecond).toBeGreaterThan(0);
    },
  );

  it('keeps an explicit algorithm, and an experiment without one stays a Raft experiment', () => {
    const named = mustFind({ algorithm: 'raft', safety: { fencing: false } });
    expect(named.experiment.algorithm).toBe('raft');
    const unnamed = mustFind({ safety: { fencing: false } });
    expect('algorithm' in unnamed.experiment).toBe(false);
    expect(normalizeExperiment(unnamed.experiment)).toEqual(unnamed.experiment);
  });

  it('refuses a setup with a safety switch or a node its algorithm does not have, naming the field', () => {
    const quorum = explore({ algorithm: 'k8s-lease', safety: { quorum: false } });
    expect(!quorum.ok && quorum.errors.map((e) => e.field)).toEqual(['safety.quorum']);
    const witness = explore({ algorithm: 'bully', witness: true });
    expect(!witness.ok && witness.errors.map((e) => e.field)).toEqual(['witness']);
  });

  it("with fencing off under Kubernetes' Lease and only isolations and clock rates, needs two faults, and both matter", () => {
    // Isolated from its API server, the leader stops acting after its 10 s renew deadline, before
    // anyone may take over (15 s); a slow clock alone changes nothing. Together its deadline,
    // measured on its slow clock, outlasts the lease.
    const f = mustFind(
      { algorithm: 'k8s-lease', safety: { fencing: false } },
      { kinds: ['isolate', 'clockRate'] },
    );
    expect(f.violation.invariant).toBe('staleWriteAccepted');
    expect(f.faults.map((x) => x.do).sort()).toEqual(['clockRate', 'isolate']);
    expectMinimal(f);
    expectSimplest(f);
  });

  it('under Raft with quorum off, a lone campaign is enough: a leader on one vote', () => {
    const f = mustFind({ safety: { quorum: false } }, { kinds: ['campaign'] });
    expect(f.violation).toMatchObject({ invariant: 'leaderHasMajority', allowedBy: 'quorum' });
    expect(f.faults).toEqual([expect.objectContaining({ do: 'campaign' })]);
    expect(f.faults[0]).not.toHaveProperty('transfer');
    expectMinimal(f);
  });

  it('under Bully, finds two coordinators of one epoch with partitions alone', () => {
    const f = mustFind({ algorithm: 'bully' }, { kinds: ['partition', 'heal'] });
    expect(f.violation).toMatchObject({ invariant: 'oneLeaderPerTerm', allowedBy: 'algorithm' });
    expect(f.faults.every((x) => x.do === 'partition' || x.do === 'heal')).toBe(true);
    expectMinimal(f);
    expectSimplest(f);
  });

  it('under Ring, with kills and restarts alone, shrinks to faults that all matter', () => {
    const f = mustFind({ algorithm: 'ring', nodes: 3 }, { kinds: ['kill', 'restart'] });
    expect(f.violation).toMatchObject({ invariant: 'oneLeaderPerTerm', allowedBy: 'algorithm' });
    expect(f.faults.length).toBeGreaterThanOrEqual(2);
    expectMinimal(f);
  });

  it('gives the same result for the same seed, and searches differently with another', () => {
    const setup = { algorithm: 'k8s-lease', safety: { fencing: false } };
    const a = exploreOk(setup, { seed: 7 });
    const b = exploreOk(setup, { seed: 7 });
    expect(timeless(b)).toEqual(timeless(a));
    const other = exploreOk(setup, { seed: 8 });
    expect(other.finding?.found.experiment).not.toEqual(a.finding?.found.experiment);
  });

  it('captions the finding with what allowed it, the faults and the invariant', () => {
    const f = mustFind({ algorithm: 'k8s-lease', safety: { fencing: false } }, { kinds: ['pause'] });
    expect(f.caption).toMatch(/^fencing off: /);
    expect(f.caption).toContain(INVARIANT_TITLES.staleWriteAccepted);
    expect(f.caption).toMatch(/a \d+\.\d s pause of the leader n\d at \d+\.\d s/);
    expect(f.caption).toMatch(/write with token \d+ land after token \d+ was issued/);
    const bully = mustFind({ algorithm: 'bully' }, { kinds: ['partition', 'heal'] });
    expect(bully.caption).toMatch(/^Bully has no quorum: a partition \{.*\} at .* both win epoch \d+/);
    expect(bully.caption).toContain(INVARIANT_TITLES.oneLeaderPerTerm);
    const quorum = mustFind({ safety: { quorum: false } }, { kinds: ['campaign'] });
    expect(quorum.caption).toMatch(
      /^quorum off: n\d campaigning at .* lets n\d win term \d+ with 1 of 5 votes/,
    );
  });

  it('names services by their labels, and stops and leadership transfers in words', () => {
    const k8s = describeSchedule(
      normalizeExperiment({ algorithm: 'k8s-lease', safety: { fencing: false } }),
      {
        horizonMs: 30_000,
        faults: [
          { atMs: 0, do: 'kill', node: 'm1' },
          { atMs: 0, do: 'isolate', node: 'api' },
          { atMs: 0, do: 'heal' },
          { atMs: 200, do: 'pause', node: 'leader', forMs: 16_000 },
        ],
      },
    );
    expect(k8s.caption).toMatch(
      /^fencing off: killing etcd m1 at 0\.0 s, isolating the API server at 0\.0 s, healing the partition at 0\.0 s and a 16\.0 s pause of the leader n\d at 0\.2 s let/,
    );
    const raft = describeSchedule(normalizeExperiment({ safety: { quorum: false } }), {
      horizonMs: 30_000,
      faults: [
        { atMs: 0, do: 'stop', node: 'n5' },
        { atMs: 1100, do: 'campaign', node: 'n3' },
        { atMs: 1500, do: 'campaign', node: 'n4', transfer: true },
      ] as ExplorerFault[],
    });
    expect(raft.caption).toMatch(
      /^quorum off: stopping n5 at 0\.0 s, n3 campaigning at 1\.1 s and a leadership transfer to n4 at 1\.5 s let/,
    );
  });

  it('says "an" before a pause of 8, 11 or 18 seconds', () => {
    const etcd = normalizeExperiment({ algorithm: 'etcd-election', safety: { fencing: false } });
    const pause = (forMs: number) =>
      describeSchedule(etcd, {
        horizonMs: 40_000,
        faults: [{ atMs: 2100, do: 'pause', node: 'leader', forMs }],
      }).caption;
    expect(pause(8000)).toMatch(/^fencing off: an 8\.0 s pause of the leader n\d at 2\.1 s lets/);
    expect(pause(11_000)).toMatch(/^fencing off: an 11\.0 s pause /);
    expect(pause(12_000)).toMatch(/^fencing off: a 12\.0 s pause /);
  });

  it("keeps the setup's own faults and shrinks only its own", () => {
    const own = { atMs: 90_000, do: 'kill', node: 'n1' };
    const f = mustFind({ safety: { fencing: false }, faults: [own] });
    expect(f.experiment.faults).toContainEqual(own);
    expect(f.faults).not.toContainEqual(own);
    expect(violationsOf(f.experiment).length).toBeGreaterThan(0);
  });

  it('stops when asked, and a stop while shrinking keeps a failing schedule marked not minimal', () => {
    let tried = 0;
    const stoppedSearch = explore(
      {},
      { seed: 1, budgetSchedules: 1000 },
      {
        stopped: () => tried >= 10,
        onStep: (s) => (tried = s.type === 'tried' ? s.schedulesTried : tried),
      },
    );
    expect(stoppedSearch.ok && stoppedSearch.result).toMatchObject({
      outcome: 'stopped',
      schedulesTried: 10,
    });

    let shrinkRuns = 0;
    const stoppedShrink = explore(
      { safety: { fencing: false } },
      { seed: 1 },
      {
        stopped: () => shrinkRuns >= 3,
        onStep: (s) => (shrinkRuns = s.type === 'shrinking' ? s.runs : shrinkRuns),
      },
    );
    if (!stoppedShrink.ok) throw new Error('bad setup');
    const f = stoppedShrink.result.finding;
    expect(stoppedShrink.result.outcome).toBe('found');
    expect(f?.minimal).toBe(false);
    expect(f?.shrinkRuns).toBe(3);
    expect(violationsOf(f!.experiment).length).toBeGreaterThan(0);
  });

  it('stops at its wall-time budget', () => {
    let now = 0;
    const r = explore({}, { seed: 1, budgetMs: 1000 }, { nowMs: () => (now += 100) });
    expect(r.ok && r.result).toMatchObject({ outcome: 'nothing' });
    expect(r.ok && r.result.schedulesTried).toBeLessThan(10);
  });

  it('names every bad field of the setup and the options', () => {
    const r = explore(
      { nodes: 12 },
      { seed: -1, budgetSchedules: 0, horizonMs: 5, kinds: ['fly' as 'kill'] },
    );
    expect(r.ok).toBe(false);
    expect(!r.ok && r.errors.map((e) => e.field).sort()).toEqual([
      'budgetSchedules',
      'horizonMs',
      'kinds',
      'nodes',
      'seed',
    ]);
  });
});
