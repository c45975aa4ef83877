// Every scenario under scenes/scenarios/ is a game day with a documented outcome
// (docs/scenarios.md). These tests run each one headless, through the same steps and conditions
// the guided mode uses, and pin that outcome in measured numbers: who leads at the end, what
// storage rejected or accepted, what leader_count did, how long each failover phase took, and
// which invariants broke (none in safe mode; only the allowed kinds with a switch off).
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  normalizeExperiment,
  RAFT_PRESETS,
  renewLimitOf,
  Simulation,
  type Failover,
  type SimEvent,
  type Trace,
} from '../../src/engine';
import { catalog, catalogOf, findScenario } from '../../src/scenario/catalog';
import { readScenarioIndex } from '../../scripts/scenario-index';
import SCENARIO_INDEX from 'virtual:scenario-index';
import { runScenario, type ScenarioRun } from '../../src/scenario/run';
import { parseScenario } from '../../src/scenario/schema';
import { GROUP_IDS } from '../../src/scenario/groups';
import type { Scenario } from '../../src/scenario/types';

// ------------------------------------------------------------------ helpers

const runs = new Map<string, ScenarioRun>();

function scenario(id: string): Scenario {
  const s = findScenario(id);
  if (!s) throw new Error(`no scenario "${id}" in scenes/scenarios`);
  return s;
}

/** Run a scenario once per test file (several tests read the same run). */
function run(id: string): ScenarioRun {
  let r = runs.get(id);
  if (!r) {
    r = runScenario(scenario(id));
    runs.set(id, r);
  }
  return r;
}

type Ev<T extends SimEvent['type']> = Extract<SimEvent, { type: T }>;

function events<T extends SimEvent['type']>(t: Trace, type: T, where: Partial<Ev<T>> = {}): Ev<T>[] {
  return t.events.filter(
    (e): e is Ev<T> =>
      e.type === type && Object.entries(where).every(([k, v]) => (e as Record<string, unknown>)[k] === v),
  );
}

function phases(f: Failover) {
  return {
    detection: f.detectedAtMs - f.lostAtMs,
    election: f.electedAtMs - f.detectedAtMs,
    warmUp: f.readyAtMs - f.electedAtMs,
    total: f.readyAtMs - f.lostAtMs,
  };
}

/** The alive nodes that believe they lead at the end of the run. */
function leadersAtEnd(t: Trace): string[] {
  return t.final.nodes.filter((n) => n.alive && n.role === 'leader').map((n) => n.id);
}

/** leader_count over the samples in [fromMs, toMs). */
function leaderCounts(t: Trace, fromMs: number, toMs: number): Set<number> {
  return new Set(t.samples.filter((s) => s.atMs >= fromMs && s.atMs < toMs).map((s) => s.leaderCount));
}

/** leader_count as a scrape sees it (paused nodes fail the scrape) over the samples in [fromMs, toMs). */
function observedCounts(t: Trace, fromMs: number, toMs: number): Set<number> {
  return new Set(
    t.samples.filter((s) => s.atMs >= fromMs && s.atMs < toMs).map((s) => s.leaderCountObserved),
  );
}

/** A node's view in the snapshot now. */
function nodeAt(sim: Simulation, id: string) {
  const n = sim.snapshot().nodes.find((x) => x.id === id);
  if (!n) throw new Error(`no node ${id}`);
  return n;
}

function expectStepsMet(r: ScenarioRun): void {
  const missed = r.steps.filter((s) => !s.met).map((s) => s.index);
  expect(missed, 'steps whose condition never held').toEqual([]);
}

function violationKinds(t: Trace): string[] {
  return [...new Set(t.summary.violations.map((v) => `${v.invariant}/${v.allowedBy}`))].sort();
}

/** The same scenario's experiment with some fields changed (a counterfactual run). */
function variant(id: string, change: (e: Record<string, unknown>) => Record<string, unknown>): Trace {
  const sim = new Simulation(change({ ...(scenario(id).experiment as Record<string, unknown>) }));
  sim.runUntil(sim.experiment.untilMs);
  return sim.trace();
}

// The scenarios of the lab's game-day list, in order; docs/scenarios.md describes each.
const EXPECTED_IDS = [
  'steady-state',
  'kill-leader',
  'gc-pause-short',
  'gc-pause-long',
  'gc-pause-long-no-fencing',
  'kleppmann-33-34',
  'quorum-split-2-3',
  'no-quorum-split-brain',
  'github-2018-no-fencing',
  'github-2018-fenced',
  'drill-26-failback-silent-accept',
  'drill-26-failback-reject-fenced',
  'even-cluster',
  'two-nodes',
  'two-nodes-witness',
  'clock-skew',
  'flapping-tight-lease',
  'flapping-wide-lease',
  'warm-up-under-load',
  'bully-split-2-3',
  'ring-lost-election',
  'zookeeper-watch-predecessor',
  'zookeeper-herd-effect',
  'leaderless-partition-the-work',
  'etcd-raft-failover-tight-deadline',
  'etcd-raft-failover-session-ttl',
];

// ------------------------------------------------------------------ the catalog

describe('the scenario catalog', () => {
  it('loads every file in scenes/scenarios, and every file validates', () => {
    expect(catalog.problems).toEqual([]);
    const files = readdirSync(new URL('../../scenes/scenarios/', import.meta.url)).filter((f) =>
      f.endsWith('.json'),
    );
    expect(catalog.scenarios.length).toBe(files.length);
  });

  it('links a game day to the one it is compared with, and that one back: Bully 2|3 and Raft 2|3', () => {
    const ids = new Set(catalog.scenarios.map((s) => s.id));
    for (const s of catalog.scenarios)
      if (s.compare) expect(ids, `${s.id} compares with`).toContain(s.compare.scenario);
    expect(scenario('bully-split-2-3').compare?.scenario).toBe('quorum-split-2-3');
    expect(scenario('quorum-split-2-3').compare?.scenario).toBe('bully-split-2-3');
  });

  it("lists in the picker's index exactly the scenarios that validate, without validating any", () => {
    const fresh = catalogOf(
      Object.fromEntries(catalog.scenarios.map((s, i) => [`${String(i).padStart(2, '0')}.json`, s])),
    );
    const index = fresh.index;
    expect(fresh.checkNext()).toBe(true); // reading the index validated nothing
    expect(index.map((e) => [e.id, e.title, e.description])).toEqual(
      catalog.scenarios.map((s) => [s.id, s.title, s.description]),
    );
  });

  it('validates one file at a time, and names a broken file and its bad field', () => {
    const good = structuredClone(scenario('kill-leader')) as unknown as Record<string, unknown>;
    const broken = { ...structuredClone(good), id: 'broken-one', steps: [] };
    const files = { 'a/01-good.json': good, 'a/02-broken.json': broken };
    const c = catalogOf(files);
    expect(c.index.map((e) => e.id)).toEqual(['kill-leader', 'broken-one']);
    expect(c.find('kill-leader')?.id).toBe('kill-leader');
    expect(c.problemOf('kill-leader')).toBeUndefined();
    expect(c.find('broken-one')).toBeUndefined();
    expect(c.problemOf('broken-one')).toEqual({
      file: '02-broken.json',
      errors: [expect.stringMatching(/^steps: /)],
    });
    expect(c.find('nowhere')).toBeUndefined();
    expect(c.problemOf('nowhere')).toBeUndefined();
    // Both checked already: nothing left for idle time.
    expect(c.checkNext()).toBe(false);
    expect(c.scenarios.map((s) => s.id)).toEqual(['kill-leader']);
    expect(c.problems.map((p) => p.file)).toEqual(['02-broken.json']);

    const idle = catalogOf(files);
    expect([idle.checkNext(), idle.checkNext(), idle.checkNext()]).toEqual([true, true, false]);
  });

  it("builds the page's index from the files: each file's id, title and group, in file order, and no description", () => {
    const dir = new URL('../../scenes/scenarios/', import.meta.url).pathname;
    expect(SCENARIO_INDEX).toEqual(readScenarioIndex(dir));
    expect(SCENARIO_INDEX.map((e) => [e.id, e.title, e.group])).toEqual(
      catalog.scenarios.map((s) => [s.id, s.title, s.group]),
    );
    // Descriptions only the picker shows: they come with the files it loads, not with every page.
    expect(SCENARIO_INDEX.every((e) => !('description' in e))).toBe(true);
  });

  it("places every game day in one of the picker's groups, and leaves no group empty", () => {
    const groups = catalog.scenarios.map((s) => s.group);
    expect(groups.every((g) => (GROUP_IDS as readonly string[]).includes(g))).toBe(true);
    expect(new Set(groups)).toEqual(new Set(GROUP_IDS));
  });

  it('lists every file from the index before any is loaded, and finds a scenario only once its file is', () => {
    const good = structuredClone(scenario('kill-leader')) as unknown as Record<string, unknown>;
    const other = structuredClone(scenario('gc-pause-long')) as unknown as Record<string, unknown>;
    const entry = (file: string, data: Record<string, unknown>) => ({
      file,
      id: data.id as string,
      title: data.title as string,
      group: data.group as string,
    });
    const files: Record<string, unknown> = {};
    const lazy = catalogOf(files, {
      'a/01.json': entry('01.json', good),
      'a/02.json': entry('02.json', other),
    });
    expect(lazy.index.map((e) => e.id)).toEqual(['kill-leader', 'gc-pause-long']);
    expect(lazy.index.map((e) => e.description)).toEqual(['', '']);
    expect(lazy.complete).toBe(false);
    expect(lazy.pathOf('gc-pause-long')).toBe('a/02.json');
    expect(lazy.find('gc-pause-long')).toBeUndefined();
    expect(lazy.problemOf('gc-pause-long')).toBeUndefined();
    expect(lazy.checkNext()).toBe(false); // nothing loaded, nothing to validate
    files['a/02.json'] = other;
    expect(lazy.index.map((e) => e.description)).toEqual(['', other.description]);
    expect(lazy.find('gc-pause-long')?.id).toBe('gc-pause-long');
    expect(lazy.scenarios.map((s) => s.id)).toEqual(['gc-pause-long']);
    files['a/01.json'] = good;
    expect(lazy.complete).toBe(true);
    expect(lazy.scenarios.map((s) => s.id)).toEqual(['kill-leader', 'gc-pause-long']);
  });

  it('has unique ids, listed in file order, covering the game-day list', () => {
    const ids = catalog.scenarios.map((s) => s.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(EXPECTED_IDS);
  });

  it('rejects a broken scenario and names the bad field', () => {
    const good = structuredClone(scenario('kill-leader')) as unknown as Record<string, unknown>;
    expect(parseScenario(good).ok).toBe(true);

    const fields = (input: unknown) => {
      const r = parseScenario(input);
      return r.ok ? [] : r.errors.map((e) => e.field);
    };
    type Draft = {
      id: string;
      group?: string;
      steps: Record<string, unknown>[];
      experiment: { lease?: unknown; faults: Record<string, unknown>[] };
    };
    const broken = (edit: (s: Draft) => void) => {
      const s = structuredClone(good) as unknown as Draft;
      edit(s);
      return fields(s);
    };
    expect(broken((s) => delete s.steps[2].caption)).toContain('steps.2.caption');
    expect(broken((s) => (s.steps[0].watch = { view: 'dashboard' }))).toContain('steps.0.watch.view');
    expect(broken((s) => (s.steps[1].until = { metric: 'leaderCount', op: '!=', value: 1 }))).toContain(
      'steps.1.until',
    );
    expect(broken((s) => (s.id = 'Kill Leader'))).toContain('id');
    expect(broken((s) => (s.group = 'misc'))).toContain('group');
    expect(broken((s) => delete s.group)).toContain('group');
    expect(broken((s) => (s.steps = []))).toContain('steps');
    // The experiment is validated by the engine's own rules, reported under "experiment.".
    expect(broken((s) => (s.experiment.lease = { renewDeadlineMs: 20000 }))).toContain(
      'experiment.lease.durationMs',
    );
    expect(broken((s) => (s.experiment.faults[0].node = 'n7'))).toContain('experiment.faults.0.node');
    expect(fields('not a scenario')).toEqual(['(root)']);
  });

  it('runs each game day under the algorithm that tells its story, Raft ones at the teaching pace', () => {
    const byAlgorithm = (kind: string) =>
      catalog.scenarios
        .filter((s) => (s.experiment as { algorithm?: string }).algorithm === kind)
        .map((s) => s.id);
    // Leases, clocks, pauses and fencing: Kubernetes' Lease as client-go runs it.
    expect(byAlgorithm('k8s-lease')).toEqual([
      'steady-state',
      'kill-leader',
      'gc-pause-short',
      'gc-pause-long',
      'gc-pause-long-no-fencing',
      'kleppmann-33-34',
      'drill-26-failback-silent-accept',
      'drill-26-failback-reject-fenced',
      'clock-skew',
      'flapping-tight-lease',
      'flapping-wide-lease',
      'warm-up-under-load',
    ]);
    // Quorums, splits and cluster sizes: Raft.
    expect(byAlgorithm('raft')).toEqual([
      'quorum-split-2-3',
      'no-quorum-split-brain',
      'github-2018-no-fencing',
      'github-2018-fenced',
      'even-cluster',
      'two-nodes',
      'two-nodes-witness',
      'leaderless-partition-the-work',
    ]);
    // The herd effect: ZooKeeper's recipe against every candidate watching the leader.
    expect(byAlgorithm('zookeeper')).toEqual(['zookeeper-watch-predecessor', 'zookeeper-herd-effect']);
    // A failover inside the coordination service: etcd's election API over etcd's own raft.
    expect(byAlgorithm('etcd-election')).toEqual([
      'etcd-raft-failover-tight-deadline',
      'etcd-raft-failover-session-ttl',
    ]);
    for (const s of catalog.scenarios) {
      const e = s.experiment as { algorithm?: string; raft?: unknown; lease?: unknown };
      expect(e.algorithm, `${s.id} names its algorithm`).toBeDefined();
      // Messages can be watched at 1x: every Raft game day uses the teaching preset.
      if (e.algorithm === 'raft') expect(e.raft, s.id).toEqual(RAFT_PRESETS.teaching);
    }
    // Kubernetes' 15 s / 10 s / 2 s everywhere but the two that are about tuning the lease.
    const tuned = catalog.scenarios.filter(
      (s) => (s.experiment as { lease?: { durationMs?: number } }).lease?.durationMs,
    );
    expect(tuned.map((s) => s.id)).toEqual(['flapping-tight-lease', 'warm-up-under-load']);
  });

  it('runs every scenario with each step reaching its condition, and no violation in safe mode', () => {
    for (const s of catalog.scenarios) {
      const r = run(s.id);
      expect(r.steps.length, s.id).toBe(s.steps.length);
      expect(
        r.steps.filter((x) => !x.met).map((x) => x.index),
        `${s.id}: steps that never met their condition`,
      ).toEqual([]);
      // A violation with allowedBy null happened with the relevant safety mechanism on: a bug.
      expect(
        r.trace.summary.violations.filter((v) => v.allowedBy === null),
        s.id,
      ).toEqual([]);
      expect(r.trace.summary.eventsDropped, s.id).toBe(0);
    }
  });
});

// ------------------------------------------------------------------ one test per scenario

describe('scenarios: their documented outcomes', () => {
  it('1 steady state: three replicas race to create the Lease, one holds it, leader_count pinned at 1', () => {
    const r = run('steady-state');
    const t = r.trace;
    expectStepsMet(r);
    // All three found no Lease and tried to create it; the store committed one create.
    const creates = events(t, 'campaign').filter((e) => e.atMs < 1118);
    expect(creates.map((e) => e.node).sort()).toEqual(['n1', 'n2', 'n3']);
    expect(events(t, 'elected').map((e) => [e.node, e.term])).toEqual([['n1', 0]]);
    expect(leadersAtEnd(t)).toEqual(['n1']);
    expect(t.summary.leaderTransitions).toBe(0);
    expect(t.summary.maxLeaderCount).toBe(1);
    expect(leaderCounts(t, 1200, 60000)).toEqual(new Set([1]));
    expect(observedCounts(t, 1200, 60000)).toEqual(new Set([1]));
    // Every write carries token 0 and lands.
    const writes = events(t, 'write');
    expect(writes.length).toBeGreaterThan(50);
    expect(writes.every((w) => w.token === 0 && w.result === 'accepted')).toBe(true);
    // Renewal latency stays far inside the 10 s renew deadline: about one request.
    expect(Math.max(...t.samples.map((s) => s.renewalLatencyMs))).toBeLessThan(2000);
    expect(t.summary.violations).toEqual([]);
  });

  it('2 kill the leader: detection about the 15 s lease, one request to take it, a 2 s warm-up', () => {
    const r = run('kill-leader');
    const t = r.trace;
    expectStepsMet(r);
    expect(events(t, 'fault', { target: 'n1' }).map((e) => e.fault.do)).toEqual(['kill', 'restart']);
    expect(t.summary.failovers).toHaveLength(1);
    const f = t.summary.failovers[0];
    expect(f).toMatchObject({ lostAtMs: 10000, from: 'n1', cause: 'killed', node: 'n2', term: 1 });
    const p = phases(f);
    // A challenger may act 15 s after it last saw the Lease change: at most one renewal period
    // (plus a round trip) before the kill, at most one read period after it.
    expect(p.detection).toBeGreaterThanOrEqual(12000);
    expect(p.detection).toBeLessThanOrEqual(20000);
    expect(p.election).toBeGreaterThan(0);
    expect(p.election).toBeLessThan(1000);
    expect(p.warmUp).toBe(2000);
    expect(p.detection).toBeGreaterThan(p.election + p.warmUp);
    // The caption's numbers: n2 last saw the Lease change at 9.0 s, and took it after 25.5 s.
    const sim = new Simulation(scenario('kill-leader').experiment);
    sim.runUntil(10000);
    expect(nodeAt(sim, 'n2')).toMatchObject({ lastRenewAtMs: 9032, deadlineAtMs: 24032 });
    expect(f.detectedAtMs).toBe(25483);
    // The restarted n1 reads the Lease and waits: no second acquisition, never two holders.
    expect(events(t, 'elected').map((e) => [e.node, e.term])).toEqual([
      ['n1', 0],
      ['n2', 1],
    ]);
    expect(leadersAtEnd(t)).toEqual(['n2']);
    expect(t.final.nodes.find((n) => n.id === 'n1')).toMatchObject({ alive: true, role: 'follower' });
    expect(t.summary.maxLeaderCount).toBe(1);
    expect(t.summary.violations).toEqual([]);
    expect(r.summary).toMatch(
      /^failover took 1\d\.\d s: 1\d\.\d s detection, 0\.\d s election, 2\.0 s warm-up/,
    );
  });

  it('3 GC pause shorter than the lease: a 12 s pause, past RenewDeadline, is survived; 17 s is not', () => {
    const r = run('gc-pause-short');
    const t = r.trace;
    expectStepsMet(r);
    const exp = scenario('gc-pause-short').experiment as { lease?: unknown; faults: { forMs: number }[] };
    // Longer than RenewDeadline (10 s), shorter than LeaseDuration (15 s), both Kubernetes' defaults.
    expect(exp.lease).toBeUndefined();
    expect(exp.faults[0].forMs).toBeGreaterThan(10000);
    expect(exp.faults[0].forMs).toBeLessThan(15000);
    expect(events(t, 'fault', { target: 'n1' }).map((e) => e.fault.do)).toEqual(['pause']);
    expect(events(t, 'lost')).toMatchObject([{ atMs: 9000, node: 'n1', cause: 'paused' }]);
    // The renewal round that begins when n1 wakes succeeds at once.
    expect(events(t, 'survived')).toMatchObject([{ atMs: 21660, node: 'n1', term: 0 }]);
    expect(t.summary.leaderTransitions).toBe(0);
    expect(t.summary.failovers).toEqual([]);
    expect(events(t, 'steppedDown')).toEqual([]);
    // Nobody tried to take the Lease after the first acquisition.
    expect(events(t, 'campaign').filter((e) => e.atMs > 1200)).toEqual([]);
    expect(leadersAtEnd(t)).toEqual(['n1']);
    // Believed leader_count never left 1; the observed one was 0 while n1 was frozen.
    expect(leaderCounts(t, 1200, 40001)).toEqual(new Set([1]));
    expect(observedCounts(t, 9000, 21000)).toEqual(new Set([0]));
    expect(observedCounts(t, 21000, 40001)).toEqual(new Set([1]));
    expect(t.summary.violations).toEqual([]);

    // The narration's times: the last renewal before the pause began at 8.5 s; n2 saw it at
    // 9.0 s and n3 only at 13.2 s, so neither could act before 24.0 s and 28.2 s.
    const sim = new Simulation(scenario('gc-pause-short').experiment);
    sim.runUntil(8999);
    expect(nodeAt(sim, 'n1')).toMatchObject({ role: 'leader', lastRenewAtMs: 8455 });
    sim.runUntil(13500);
    expect(nodeAt(sim, 'n2')).toMatchObject({ lastRenewAtMs: 9032, deadlineAtMs: 24032 });
    expect(nodeAt(sim, 'n3')).toMatchObject({ lastRenewAtMs: 13151, deadlineAtMs: 28151 });
    sim.runUntil(21800);
    expect(nodeAt(sim, 'n1')).toMatchObject({ paused: false, role: 'leader', lastRenewAtMs: 21000 });

    // Counterfactual: a 17 s pause outlasts the lease, and n2 takes it.
    const longer = variant('gc-pause-short', (e) => ({
      ...e,
      faults: [{ atMs: 9000, do: 'pause', node: 'leader', forMs: 17000 }],
    }));
    expect(events(longer, 'elected').map((e) => [e.node, e.term])).toEqual([
      ['n1', 0],
      ['n2', 1],
    ]);
  });

  it('4 GC pause longer than the lease, fencing on: every zombie write is rejected until its renewal round runs out', () => {
    const r = run('gc-pause-long');
    const t = r.trace;
    expectStepsMet(r);
    expect(t.summary.failovers).toHaveLength(1);
    const f = t.summary.failovers[0];
    expect(f).toMatchObject({ lostAtMs: 9000, from: 'n1', cause: 'paused', node: 'n2', term: 1 });
    expect(phases(f).detection).toBeGreaterThanOrEqual(12000);
    expect(phases(f).detection).toBeLessThanOrEqual(20000);
    // The zombie: n1 wakes at 39 s and acts for one renewal round (RenewDeadline, 10 s), every
    // write it sends carrying token 0, below storage's 1.
    const rejected = events(t, 'write', { result: 'rejected' });
    expect(rejected).toHaveLength(10);
    expect(rejected.every((w) => w.node === 'n1' && w.token === 0 && w.maxTokenSeen === 1)).toBe(true);
    expect(rejected[0]).toMatchObject({ kind: 'leader' });
    expect(rejected[0].atMs).toBeGreaterThan(39000);
    expect(rejected[rejected.length - 1].atMs).toBeLessThan(49000);
    expect(events(t, 'steppedDown', { node: 'n1' })).toMatchObject([
      { atMs: 49000, reason: 'renew deadline passed' },
    ]);
    expect(t.summary.fencingRejections).toBe(10);
    expect(t.summary.staleWritesAccepted).toBe(0);
    // Believed leader_count was 2 from n2's acquisition until n1 stopped; the observed line
    // showed 1 while n1 was frozen and 2 only once it woke.
    expect(t.summary.maxLeaderCount).toBe(2);
    expect(leaderCounts(t, f.electedAtMs + 100, 49000)).toEqual(new Set([2]));
    expect(observedCounts(t, f.electedAtMs + 100, 39000)).toEqual(new Set([1]));
    expect(observedCounts(t, 39000, 49000)).toEqual(new Set([2]));
    expect(leaderCounts(t, 49000, 60001)).toEqual(new Set([1]));
    // The rejection counter rose and then stopped rising: the rate is back to 0.
    const counter = t.samples.filter((s) => s.atMs >= 49000).map((s) => s.fencingRejections);
    expect(new Set(counter)).toEqual(new Set([10]));
    expect(leadersAtEnd(t)).toEqual(['n2']);
    expect(t.summary.violations).toEqual([]);
  });

  it('5 the same with fencing off: every zombie write lands as a stale write (lost updates)', () => {
    const r = run('gc-pause-long-no-fencing');
    const t = r.trace;
    expectStepsMet(r);
    expect(t.summary.fencingRejections).toBe(0);
    expect(t.summary.staleWritesAccepted).toBe(10);
    const stale = events(t, 'write', { stale: true });
    expect(stale).toHaveLength(10);
    expect(stale.every((w) => w.node === 'n1' && w.token === 0 && w.result === 'accepted')).toBe(true);
    expect(stale[0].atMs).toBeGreaterThan(39000);
    expect(violationKinds(t)).toEqual(['staleWriteAccepted/fencing']);
    expect(events(t, 'steppedDown', { node: 'n1' })).toMatchObject([
      { atMs: 49000, reason: 'renew deadline passed' },
    ]);
    expect(t.summary.maxLeaderCount).toBe(2);
    expect(leadersAtEnd(t)).toEqual(['n2']);
    // Everything else is the fenced run's: the same failover, to the millisecond.
    expect(t.summary.failovers).toEqual(run('gc-pause-long').trace.summary.failovers);
  });

  it("6 Kleppmann's 33/34: the holder checked before the pause; only storage's check stops the write", () => {
    const r = run('kleppmann-33-34');
    const t = r.trace;
    expectStepsMet(r);
    const n1Writes = events(t, 'write', { node: 'n1', kind: 'leader' });
    // One write before the pause (checked at 3.1 s, sent at 8.1 s), the one checked at 8.1 s and
    // sent on waking at 33.5 s, and one more before its renewal round ran out: all token 0.
    expect(n1Writes.map((w) => [w.token, w.result])).toEqual([
      [0, 'accepted'],
      [0, 'rejected'],
      [0, 'rejected'],
    ]);
    expect(n1Writes[0].atMs).toBeGreaterThan(8118);
    expect(n1Writes[0].atMs).toBeLessThan(8500);
    expect(n1Writes[1].atMs).toBeGreaterThan(33500);
    expect(n1Writes[1].atMs).toBeLessThan(34000);
    expect(events(t, 'steppedDown', { node: 'n1' })).toMatchObject([
      { atMs: 43500, reason: 'renew deadline passed' },
    ]);
    // n2 and n3 raced for the expired Lease; the compare-and-swap let one through.
    const racers = events(t, 'campaign', { term: 1 });
    expect(racers.map((e) => e.node).sort()).toEqual(['n2', 'n3']);
    expect(events(t, 'elected').map((e) => [e.node, e.term])).toEqual([
      ['n1', 0],
      ['n3', 1],
    ]);
    // Token 1 (the new holder's own write) reached storage before the zombie's token 0.
    const n3First = events(t, 'write', { node: 'n3', kind: 'leader' })[0];
    expect(n3First).toMatchObject({ token: 1, result: 'accepted' });
    expect(n3First.atMs).toBeLessThan(n1Writes[1].atMs);
    expect(t.summary.fencingRejections).toBe(2);
    expect(t.summary.staleWritesAccepted).toBe(0);
    expect(t.summary.maxLeaderCount).toBe(2);
    expect(leadersAtEnd(t)).toEqual(['n3']);
    expect(t.summary.violations).toEqual([]);
    // Counterfactual: the same run with storage not checking. Both writes land.
    const open = variant('kleppmann-33-34', (e) => ({ ...e, safety: { fencing: false } }));
    expect(open.summary.staleWritesAccepted).toBe(2);
    expect(violationKinds(open)).toEqual(['staleWriteAccepted/fencing']);
  });

  it('7 quorum prevents split brain: the 2-side cannot elect, CheckQuorum stops the old leader', () => {
    const r = run('quorum-split-2-3');
    const t = r.trace;
    expectStepsMet(r);
    // The leader at the split was n2, on the small side.
    expect(events(t, 'elected')[0]).toMatchObject({ node: 'n2', term: 1, votes: ['n2', 'n1', 'n5'] });
    const down = events(t, 'steppedDown', { node: 'n2' });
    expect(down).toHaveLength(1);
    expect(down[0].reason).toBe('lost contact with a quorum');
    // CheckQuorum runs every election timeout from taking office: the first check a full
    // timeout after the split finds no majority.
    expect(down[0].atMs).toBe(events(t, 'elected')[0].atMs + 2 * 5000);
    expect(down[0].atMs).toBeLessThanOrEqual(10000 + 2 * 5000);
    // Only the big side elected, with three votes out of five, after n2 had stopped.
    const later = events(t, 'elected').slice(1);
    expect(later).toHaveLength(1);
    expect(later[0]).toMatchObject({ node: 'n4', term: 2 });
    expect([...later[0].votes].sort()).toEqual(['n3', 'n4', 'n5']);
    expect(later[0].atMs).toBeGreaterThan(down[0].atMs);
    // The small side campaigned (pre-votes only) and never raised its term.
    const small = events(t, 'campaign').filter((e) => ['n1', 'n2'].includes(e.node) && e.atMs > 10000);
    expect(small.length).toBeGreaterThan(3);
    expect(small.every((e) => e.preVote)).toBe(true);
    // Never two leaders.
    expect(t.summary.maxLeaderCount).toBe(1);
    // Detection is at least one election timeout: the big side waited out its own.
    expect(phases(t.summary.failovers[0]).detection).toBeGreaterThanOrEqual(5000);
    expect(t.summary.fencingRejections).toBe(0);
    expect(leadersAtEnd(t)).toEqual(['n4']);
    expect(t.final.nodes.every((n) => n.term === 2)).toBe(true);
    expect(t.summary.violations).toEqual([]);
  });

  it('8 no quorum: the minority elects with two votes, leader_count hits 2, and only fencing keeps the data in one piece', () => {
    const r = run('no-quorum-split-brain');
    const t = r.trace;
    expectStepsMet(r);
    // n5 leads the big side; the small side elects n2 with 2 votes of 5.
    expect(events(t, 'elected').map((e) => [e.node, e.term, e.votes.length])).toEqual([
      ['n5', 1, 5],
      ['n2', 2, 2],
    ]);
    expect(violationKinds(t)).toEqual(['leaderHasMajority/quorum']);
    expect(t.summary.maxLeaderCount).toBe(2);
    expect(leaderCounts(t, 15500, 50000)).toEqual(new Set([2]));
    // Token 2 fences out the majority's leader: every write n5 sends is rejected until the heal.
    const rejected = events(t, 'write', { result: 'rejected' });
    expect(rejected.length).toBe(35);
    expect(rejected.every((w) => w.node === 'n5' && w.token === 1 && w.atMs > 15446 && w.atMs < 51000)).toBe(
      true,
    );
    expect(t.summary.staleWritesAccepted).toBe(0);
    // At the heal the higher term wins, whatever its side's size.
    const down = events(t, 'steppedDown');
    expect(down.map((e) => [e.node, e.reason])).toEqual([['n5', 'saw higher term']]);
    expect(down[0].atMs).toBeGreaterThan(50000);
    expect(leadersAtEnd(t)).toEqual(['n2']);
    expect(t.final.nodes.every((n) => n.term === 2)).toBe(true);
    // The same split with the quorum on (scenario 7's rule) never elects on the small side.
    const safe = variant('no-quorum-split-brain', ({ safety: _off, ...e }) => e);
    expect(safe.summary.maxLeaderCount).toBe(1);
    expect(safe.summary.violations).toEqual([]);
  });

  it('9 GitHub 2018 without fencing: a fast failover and an old primary without CheckQuorum give forty stale writes', () => {
    const r = run('github-2018-no-fencing');
    const t = r.trace;
    expectStepsMet(r);
    const f = t.summary.failovers[0];
    expect(f).toMatchObject({ lostAtMs: 10000, detectedAtMs: 13000, node: 'n3', term: 2, from: 'n2' });
    // Both wrote for the rest of the partition: n2 steps down only when it hears term 2.
    const down = events(t, 'steppedDown', { node: 'n2' });
    expect(down).toMatchObject([{ reason: 'saw higher term' }]);
    expect(down[0].atMs).toBeGreaterThan(53000);
    expect(t.summary.maxLeaderCount).toBe(2);
    expect(leaderCounts(t, 13300, 53000)).toEqual(new Set([2]));
    expect(t.summary.staleWritesAccepted).toBe(40);
    const stale = events(t, 'write', { stale: true });
    expect(stale.every((w) => w.node === 'n2' && w.token === 1 && w.atMs > f.electedAtMs)).toBe(true);
    expect(t.summary.fencingRejections).toBe(0);
    expect(violationKinds(t)).toEqual(['staleWriteAccepted/fencing']);
    expect(leadersAtEnd(t)).toEqual(['n3']);
    // What CheckQuorum (on by default in etcd) changes: n2 steps down at its next check and
    // only two stale writes land.
    const checked = variant('github-2018-no-fencing', (e) => ({ ...e, safety: { fencing: false } }));
    expect(events(checked, 'steppedDown', { node: 'n2' })).toMatchObject([
      { atMs: 15473, reason: 'lost contact with a quorum' },
    ]);
    expect(checked.summary.staleWritesAccepted).toBe(2);
  });

  it('9 GitHub 2018 with fencing: every one of the old primary’s writes is rejected, for the whole partition', () => {
    const r = run('github-2018-fenced');
    const t = r.trace;
    expectStepsMet(r);
    expect(t.summary.fencingRejections).toBe(40);
    expect(t.summary.staleWritesAccepted).toBe(0);
    const rejected = events(t, 'write', { result: 'rejected' });
    expect(rejected.every((w) => w.node === 'n2' && w.token === 1 && w.maxTokenSeen === 2)).toBe(true);
    // Raft never hears storage's answer: n2 steps down only when it hears term 2, at the heal.
    const down = events(t, 'steppedDown', { node: 'n2' });
    expect(down).toMatchObject([{ reason: 'saw higher term' }]);
    expect(down[0].atMs).toBeGreaterThan(53000);
    // The counter climbs for the whole partition, then goes flat.
    const counter = t.samples.filter((s) => s.atMs >= 54000).map((s) => s.fencingRejections);
    expect(new Set(counter)).toEqual(new Set([40]));
    // The same writes as without fencing, each turned away instead of landing.
    expect(run('github-2018-no-fencing').trace.summary.staleWritesAccepted).toBe(t.summary.fencingRejections);
    expect(leadersAtEnd(t)).toEqual(['n3']);
    expect(t.summary.violations).toEqual([]);
  });

  it('10 Drill 26, silent accept: stale-DNS clients write to the DR region for the whole cache TTL', () => {
    const r = run('drill-26-failback-silent-accept');
    const t = r.trace;
    expectStepsMet(r);
    // Primary n1 down, DR n2 takes the Lease, then the failback to n1.
    expect(events(t, 'elected').map((e) => [e.node, e.term])).toEqual([
      ['n1', 0],
      ['n2', 1],
      ['n1', 2],
    ]);
    // Cut off from the API server at 30 s, n2 stops after one failed renewal round (RetryPeriod
    // plus RenewDeadline after its last renewal), before n1 may take the Lease.
    const down = events(t, 'steppedDown', { node: 'n2' });
    expect(down).toMatchObject([{ atMs: 40849, reason: 'renew deadline passed' }]);
    const back = events(t, 'elected', { node: 'n1' })[1];
    expect(back.atMs).toBeGreaterThan(down[0].atMs);
    const divergent = events(t, 'clientWrite', { result: 'divergent' });
    expect(t.summary.divergentWrites).toBe(1110);
    expect(divergent.every((w) => w.to === 'n2' && w.atMs > down[0].atMs)).toBe(true);
    // The tail lasts until the caches expire, 45 s after each client resolved n2 (23.5 to 24.5 s).
    const last = divergent[divergent.length - 1].atMs;
    expect(last).toBeGreaterThan(67500);
    expect(last).toBeLessThan(69700);
    expect(t.summary.clientRedirects).toBe(0);
    const sim = new Simulation(scenario('drill-26-failback-silent-accept').experiment);
    sim.runUntil(50000);
    expect(sim.snapshot().clients.byTarget).toEqual({ n2: 40 });
    sim.runUntil(70000);
    expect(sim.snapshot().clients.byTarget).toEqual({ n1: 40 });
    expect(leadersAtEnd(t)).toEqual(['n1']);
    expect(t.summary.staleWritesAccepted).toBe(0);
    expect(t.summary.violations).toEqual([]);
  });

  it('10 Drill 26, reject with redirect and fencing: the stale clients are refused until DNS names the primary, no divergence', () => {
    const r = run('drill-26-failback-reject-fenced');
    const t = r.trace;
    expectStepsMet(r);
    expect(t.summary.divergentWrites).toBe(0);
    const back = events(t, 'elected', { node: 'n1' })[1];
    expect(back.atMs).toBe(48159);
    const redirects = events(t, 'clientWrite', { result: 'redirected' });
    expect(t.summary.clientRedirects).toBe(295);
    expect(new Set(redirects.map((w) => w.client)).size).toBe(40);
    // Refused from n2's step-down until a second after DNS names n1, and never after.
    expect(redirects.every((w) => w.to === 'n2' && w.atMs > 40849 && w.atMs < back.atMs + 1200)).toBe(true);
    expect(events(t, 'clientWrite', { to: 'n2' }).filter((w) => w.atMs >= back.atMs + 1200)).toEqual([]);
    const sim = new Simulation(scenario('drill-26-failback-reject-fenced').experiment);
    sim.runUntil(39990);
    expect(sim.snapshot().clients.byTarget).toEqual({ n2: 40 });
    sim.runUntil(50000);
    expect(sim.snapshot().clients.byTarget).toEqual({ n1: 40 });
    expect(t.summary.fencingRejections).toBe(0);
    expect(t.summary.staleWritesAccepted).toBe(0);
    expect(leadersAtEnd(t)).toEqual(['n1']);
    expect(t.summary.violations).toEqual([]);
  });

  it('11 even cluster: 2|2 elects nobody; four nodes survive one failure but not two', () => {
    const r = run('even-cluster');
    const t = r.trace;
    expectStepsMet(r);
    const elected = events(t, 'elected');
    expect(elected.map((e) => [e.node, e.term, e.votes.length])).toEqual([
      ['n2', 1, 3],
      ['n2', 2, 3],
      ['n4', 3, 3],
    ]);
    // During the 2|2 split: CheckQuorum stops n2 and nobody is elected until the heal.
    expect(events(t, 'steppedDown', { node: 'n2' })[0]).toMatchObject({
      atMs: 15553,
      reason: 'lost contact with a quorum',
    });
    expect(leaderCounts(t, 15600, 40000)).toEqual(new Set([0]));
    expect(
      events(t, 'campaign')
        .filter((e) => e.atMs > 15600 && e.atMs < 40000)
        .every((e) => e.preVote),
    ).toBe(true);
    expect(elected[1].atMs).toBeGreaterThan(40000);
    expect(elected[1].atMs).toBeLessThan(45000);
    // First failure (kill at 55 s): three of four elect after an election timeout.
    const second = t.summary.failovers[1];
    expect(second).toMatchObject({ lostAtMs: 55000, cause: 'killed', node: 'n4' });
    expect(phases(second).detection).toBeGreaterThanOrEqual(5000);
    expect(phases(second).detection).toBeLessThanOrEqual(11000);
    // Second failure (kill at 80 s): two of four, no leader for the rest of the run.
    expect(elected.filter((e) => e.atMs > 80000)).toEqual([]);
    expect(leaderCounts(t, 80000, 105001)).toEqual(new Set([0]));
    expect(leadersAtEnd(t)).toEqual([]);
    expect(t.summary.violations).toEqual([]);
  });

  it('12 two nodes: one failure stops the cluster until the dead node returns', () => {
    const r = run('two-nodes');
    const t = r.trace;
    expectStepsMet(r);
    const elected = events(t, 'elected');
    expect(elected.map((e) => [e.node, e.votes])).toEqual([
      ['n1', ['n1', 'n2']],
      ['n2', ['n2', 'n1']],
    ]);
    // n2 alone asks for pre-votes and never wins, nor raises its term.
    const alone = events(t, 'campaign', { node: 'n2' }).filter((e) => e.atMs > 10000 && e.atMs < 40000);
    expect(alone.length).toBeGreaterThan(2);
    expect(alone.every((e) => e.preVote && e.term === 2)).toBe(true);
    expect(leaderCounts(t, 10000, elected[1].atMs)).toEqual(new Set([0]));
    // A restarted Raft node may vote at once: the pair elects at n2's next timeout.
    expect(elected[1].atMs).toBeGreaterThan(40000);
    expect(elected[1].atMs).toBeLessThan(40000 + 2 * 5000);
    expect(elected[1].atMs - 10000).toBe(34648);
    expect(t.summary.violations).toEqual([]);
  });

  it('12 two nodes and a witness: the survivor and the witness elect a new leader', () => {
    const r = run('two-nodes-witness');
    const t = r.trace;
    expectStepsMet(r);
    const f = t.summary.failovers[0];
    expect(f).toMatchObject({ lostAtMs: 10000, from: 'n1', cause: 'killed', node: 'n2', term: 2 });
    expect(events(t, 'elected').map((e) => e.votes)).toEqual([
      ['n1', 'w'],
      ['n2', 'w'],
    ]);
    const p = phases(f);
    expect(p.detection).toBeGreaterThanOrEqual(5000);
    expect(p.detection).toBeLessThanOrEqual(11000);
    expect(p.election).toBeLessThan(1000);
    expect(leadersAtEnd(t)).toEqual(['n2']);
    // Far less time without a leader than the same failure without a witness.
    expect(t.summary.msWithoutLeader).toBeLessThan(20000);
    expect(run('two-nodes').trace.summary.msWithoutLeader).toBeGreaterThan(2 * t.summary.msWithoutLeader);
    expect(t.summary.violations).toEqual([]);
  });

  it('13 clock skew: a fast-clocked challenger takes the Lease during a survivable pause; fencing rejects the holder', () => {
    const r = run('clock-skew');
    const t = r.trace;
    expectStepsMet(r);
    expect(events(t, 'fault').map((e) => [e.fault.do, e.target ?? null])).toEqual([
      ['clockRate', 'n3'],
      ['pause', 'n1'],
    ]);
    // n3 saw the Lease change at 9.9 s; 15 s of its double-speed clock end at 17.4 s.
    const sim = new Simulation(scenario('clock-skew').experiment);
    sim.runUntil(10000);
    expect(nodeAt(sim, 'n3')).toMatchObject({ lastRenewAtMs: 9937, deadlineAtMs: 17437, clockRate: 2 });
    sim.runUntil(19000);
    const n2Deadline = nodeAt(sim, 'n2').deadlineAtMs;
    expect(n2Deadline).toBe(28073);
    const taken = events(t, 'elected')[1];
    expect(taken).toMatchObject({ node: 'n3', term: 1, atMs: 19388 });
    // It took the Lease while n1 slept, and before n2's right clock would have let it.
    expect(taken.atMs).toBeLessThan(21000);
    expect(taken.atMs).toBeLessThan(n2Deadline);
    // n1 wakes believing it leads, writes with token 0 until its renewal round runs out.
    const rejected = events(t, 'write', { result: 'rejected' });
    expect(rejected).toHaveLength(10);
    expect(rejected.every((w) => w.node === 'n1' && w.token === 0 && w.atMs > 21000 && w.atMs < 31000)).toBe(
      true,
    );
    expect(events(t, 'steppedDown', { node: 'n1' })).toMatchObject([
      { atMs: 31000, reason: 'renew deadline passed' },
    ]);
    expect(t.summary.maxLeaderCount).toBe(2);
    expect(t.summary.staleWritesAccepted).toBe(0);
    expect(leadersAtEnd(t)).toEqual(['n3']);
    expect(t.summary.violations).toEqual([]);
    // Counterfactuals: with n3's clock at the real rate the pause is survived; without fencing
    // the ten writes land.
    const right = variant('clock-skew', (e) => ({ ...e, faults: (e.faults as unknown[]).slice(1) }));
    expect(events(right, 'elected')).toHaveLength(1);
    const open = variant('clock-skew', (e) => ({ ...e, safety: { fencing: false } }));
    expect(open.summary.staleWritesAccepted).toBe(10);
  });

  it('14 flapping: a lease shorter than the 5 s pauses changes holder at every pause; the default lease never does', () => {
    const tight = run('flapping-tight-lease');
    const wide = run('flapping-wide-lease');
    expectStepsMet(tight);
    expectStepsMet(wide);
    const pauses = (t: Trace) => events(t, 'fault').filter((e) => e.fault.do === 'pause' && !e.skipped);
    expect(pauses(tight.trace)).toHaveLength(5);
    expect(pauses(wide.trace)).toHaveLength(5);
    // Tight: every pause hands the Lease to another replica, with a new token each time.
    expect(tight.trace.summary.leaderTransitions).toBe(5);
    expect(events(tight.trace, 'elected').map((e) => e.term)).toEqual([0, 1, 2, 3, 4, 5]);
    // Each woken holder acts until its renewal round (RenewDeadline, 2 s) runs out, and its writes
    // are rejected: a zombie tail per flap.
    const downs = events(tight.trace, 'steppedDown');
    expect(downs).toHaveLength(5);
    expect(downs.every((d) => d.reason === 'renew deadline passed')).toBe(true);
    expect(tight.trace.summary.fencingRejections).toBe(10);
    expect(tight.trace.summary.staleWritesAccepted).toBe(0);
    expect(tight.trace.summary.maxLeaderCount).toBe(2);
    expect(tight.trace.summary.violations).toEqual([]);
    // Wide (Kubernetes' defaults): the same pauses, each survived, one holder throughout.
    expect(wide.trace.summary.leaderTransitions).toBe(0);
    expect(events(wide.trace, 'steppedDown')).toEqual([]);
    expect(events(wide.trace, 'survived').map((e) => e.node)).toEqual(['n1', 'n1', 'n1', 'n1', 'n1']);
    expect(leadersAtEnd(wide.trace)).toEqual(['n1']);
    expect(leaderCounts(wide.trace, 1200, 60001)).toEqual(new Set([1]));
    // The observed line dips to 0 during each pause: a frozen process fails its scrape.
    for (const at of [12000, 22000, 32000, 42000, 52000])
      expect(observedCounts(wide.trace, at, at + 1)).toEqual(new Set([0]));
    expect(wide.trace.summary.violations).toEqual([]);
  });

  it('15 warm-up under load: with tuned detection, warm-up is the longest phase and clients wait it out', () => {
    const r = run('warm-up-under-load');
    const t = r.trace;
    expectStepsMet(r);
    expect(t.summary.failovers).toHaveLength(1);
    const f = t.summary.failovers[0];
    expect(f).toMatchObject({ lostAtMs: 15000, cause: 'killed', from: 'n3', node: 'n1' });
    const p = phases(f);
    expect(p.warmUp).toBe(8000);
    // The tuned LeaseDuration (5 s), give or take a renewal and a read period.
    expect(p.detection).toBeGreaterThanOrEqual(4000);
    expect(p.detection).toBeLessThanOrEqual(9000);
    expect(p.election).toBeLessThan(1000);
    expect(p.warmUp).toBeGreaterThan(p.detection + p.election);
    // From the kill until the new holder is warm, no client write succeeds.
    const during = events(t, 'clientWrite').filter((w) => w.atMs >= f.lostAtMs && w.atMs < f.readyAtMs);
    expect(during.length).toBeGreaterThan(850);
    expect(during.every((w) => w.result === 'unavailable')).toBe(true);
    const warming = during.filter((w) => w.to === f.node && w.atMs >= f.electedAtMs);
    // 30 clients x 2 writes a second x 8 s of warm-up, give or take the ones still on the dead node.
    expect(warming.length).toBeGreaterThan(440);
    expect(warming.length).toBeLessThanOrEqual(480);
    expect(events(t, 'clientWrite', { result: 'accepted' }).some((w) => w.atMs >= f.readyAtMs)).toBe(true);
    expect(r.summary).toMatch(/s detection, 0\.\d s election, 8\.0 s warm-up/);
    expect(t.summary.violations).toEqual([]);
  });

  it('16 Bully under the 2|3 split: both sides elect with the same epoch, and storage accepts both', () => {
    const r = run('bully-split-2-3');
    const t = r.trace;
    expectStepsMet(r);
    expect(events(t, 'elected').map((e) => [e.node, e.term])).toEqual([
      ['n5', 1],
      ['n2', 2],
      ['n5', 2],
    ]);
    expect(t.summary.violations).toEqual([
      expect.objectContaining({
        invariant: 'oneLeaderPerTerm',
        allowedBy: 'algorithm',
        detail: 'n5 and n2 both won epoch 2',
      }),
    ]);
    const late = events(t, 'write').filter((w) => w.atMs > 20_000 && w.atMs < 45_000);
    expect(new Set(late.map((w) => w.node))).toEqual(new Set(['n2', 'n5']));
    expect(late.every((w) => w.token === 2 && w.result === 'accepted')).toBe(true);
    expect(leaderCounts(t, 15_000, 45_000)).toEqual(new Set([2]));
    expect(leadersAtEnd(t)).toEqual(['n5']);
    expect(r.summary).toMatch(
      /n5 and n2 both won epoch 2 \(allowed: the algorithm has no quorum\); \d+ writes accepted from a second leader holding the same token/,
    );
    // The same experiment under Raft (scenario 7's): the small side never elects.
    const raft = variant('bully-split-2-3', ({ algorithm: _bully, ...e }) => e);
    expect(raft.summary.maxLeaderCount).toBe(1);
    expect(raft.summary.violations).toEqual([]);
  });

  it('17 Ring losing the node that holds the election: it stalls until the round times out', () => {
    const r = run('ring-lost-election');
    const t = r.trace;
    expectStepsMet(r);
    const f = t.summary.failovers[0];
    expect(f).toMatchObject({ from: 'n5', cause: 'killed', node: 'n4', term: 2 });
    const restart = events(t, 'campaign').find((e) => e.atMs > 14_500);
    expect(restart!.atMs).toBeGreaterThanOrEqual(19_000);
    const without = variant('ring-lost-election', (e) => ({
      ...e,
      faults: (e.faults as unknown[]).slice(0, 1),
    }));
    const stall = f.electedAtMs - without.summary.failovers[0].electedAtMs;
    expect(stall).toBeGreaterThan(5_000);
    expect(stall).toBeLessThan(8_000);
    expect(t.summary.violations).toEqual([]);
  });
  it('18 herd effect: one failover of 9 candidates costs 1 notification and 1 read watching the predecessor, 8 and 8 watching the leader', () => {
    const recipe = run('zookeeper-watch-predecessor');
    const herd = run('zookeeper-herd-effect');
    expectStepsMet(recipe);
    expectStepsMet(herd);
    for (const t of [recipe.trace, herd.trace]) {
      // The same failover either way: n2 leads, is killed at 15 s, its session expires 10 s after
      // the ensemble last heard it, and n1 (next in the queue) leads with the next czxid.
      expect(events(t, 'elected').map((e) => [e.node, e.term])).toEqual([
        ['n2', 1],
        ['n1', 2],
      ]);
      expect(t.summary.failovers).toEqual([
        expect.objectContaining({ lostAtMs: 15000, from: 'n2', cause: 'killed', node: 'n1' }),
      ]);
      const p = phases(t.summary.failovers[0]);
      expect(p.detection).toBeGreaterThan(8000);
      expect(p.detection).toBeLessThanOrEqual(10000);
      expect(p.election).toBeLessThan(1000);
      expect(leadersAtEnd(t)).toEqual(['n1']);
      expect(t.summary.maxLeaderCount).toBe(1);
      expect(t.summary.violations).toEqual([]);
    }
    // The run's times: the session expires at 23.9 s in both (the first sample counting a
    // notification), and n1 leads at 24.3 s (recipe) and 24.1 s (herd), once it has read.
    for (const t of [recipe.trace, herd.trace])
      expect(t.samples.find((x) => (x.watchNotifications ?? 0) > 0)?.atMs).toBe(23900);
    expect(recipe.trace.summary.failovers[0].electedAtMs).toBe(24256);
    expect(herd.trace.summary.failovers[0].electedAtMs).toBe(24109);
    // Nothing is notified before the failover; at it, the recipe wakes one candidate, the herd eight.
    expect([recipe.trace.summary.watchNotifications, recipe.trace.summary.watchReads]).toEqual([1, 1]);
    expect([herd.trace.summary.watchNotifications, herd.trace.summary.watchReads]).toEqual([8, 8]);
    expect(recipe.summary).toMatch(/1 watch notification and 1 read they triggered/);
    expect(herd.summary).toMatch(/8 watch notifications and 8 reads they triggered/);
    // The herd grows with the candidates (N - 1 per failover); the recipe stays at one.
    for (const nodes of [3, 5, 7]) {
      const small = (id: string) => variant(id, (e) => ({ ...e, nodes })).summary;
      expect(small('zookeeper-watch-predecessor').watchNotifications, `${nodes} nodes`).toBe(1);
      expect(small('zookeeper-herd-effect').watchNotifications, `${nodes} nodes`).toBe(nodes - 1);
    }
  });

  it('19 partition the work: the Raft failover the leaderless comparison takes as its window', () => {
    const t = run('leaderless-partition-the-work').trace;
    expect(events(t, 'elected').map((e) => [e.node, e.term, e.atMs])).toEqual([
      ['n2', 1, 5473],
      ['n1', 2, 16820],
    ]);
    expect(t.summary.failovers).toHaveLength(1);
    const f = t.summary.failovers[0];
    expect([f.from, f.lostAtMs, f.node]).toEqual(['n2', 10_000, 'n1']);
    // The captions' 8.8 s and 6.3 s; src/leaderless's DEFAULT_WINDOW is this (tests/unit/leaderless).
    expect(phases(f)).toEqual({ detection: 6301, election: 519, warmUp: 2000, total: 8820 });
    expect(leadersAtEnd(t)).toEqual(['n1']);
  });
  it('20 etcd\u2019s own raft failover: a held renewal outlasts a 3 s deadline (20a) but not the session\u2019s TTL (20b)', () => {
    /** n2's answered keep-alives (its last renewal, step by step) from..to. */
    const renewals = (id: string, fromMs: number, toMs: number) => {
      const sim = new Simulation(scenario(id).experiment);
      const seen: number[] = [];
      while (sim.nextEventAtMs() >= 0 && sim.nextEventAtMs() <= toMs) {
        sim.step();
        const at = nodeAt(sim, 'n2').lastRenewAtMs;
        if (at >= fromMs && at !== seen[seen.length - 1]) seen.push(at);
      }
      return seen;
    };
    // 20a: the 12.6 s keep-alive, 13.9 s loss, 19.9 s expiry, 20.4 s election, 6.5 / 8.5 s.
    const a = run('etcd-raft-failover-tight-deadline');
    expectStepsMet(a);
    const t = a.trace;
    expect(events(t, 'elected').map((e) => [e.node, e.term])).toEqual([
      ['n2', 2],
      ['n3', 5],
    ]);
    expect(events(t, 'steppedDown').map((e) => [e.node, e.atMs, e.reason])).toEqual([
      ['n2', 13_929, 'renew deadline passed'],
    ]);
    expect(renewals('etcd-raft-failover-tight-deadline', 9_000, 13_929)).toEqual([9_242, 10_929]);
    const f = t.summary.failovers[0];
    expect([f.from, f.node, f.lostAtMs, f.electedAtMs]).toEqual(['n2', 'n3', 13_929, 20_433]);
    expect(phases(f).total).toBe(8_504);
    expect(leadersAtEnd(t)).toEqual(['n3']);
    // The chart's line is where the leader stopped: its renewal latency (how overdue its next
    // keep-alive was) reached the line in the last sample before the loss.
    const limit = renewLimitOf(
      normalizeExperiment(scenario('etcd-raft-failover-tight-deadline').experiment),
    )!;
    const before = t.samples.filter((x) => x.atMs <= 13_929);
    const last = before[before.length - 1];
    expect(limit.ms - last.renewalLatencyMs).toBeGreaterThanOrEqual(0);
    expect(limit.ms - last.renewalLatencyMs).toBeLessThanOrEqual(13_929 - last.atMs);
    // 20b: the same run without the deadline: the held keep-alive is answered at 14.9 s, 4 s after
    // the one before, and n2 leads throughout.
    const b = run('etcd-raft-failover-session-ttl');
    expectStepsMet(b);
    expect(renewals('etcd-raft-failover-session-ttl', 9_000, 14_900)).toEqual([9_242, 10_929, 14_893]);
    expect(events(b.trace, 'elected').map((e) => [e.node, e.term])).toEqual([['n2', 2]]);
    expect(events(b.trace, 'steppedDown')).toEqual([]);
    expect(b.trace.summary.leaderTransitions).toBe(0);
    expect(leadersAtEnd(b.trace)).toEqual(['n2']);
  });
});
