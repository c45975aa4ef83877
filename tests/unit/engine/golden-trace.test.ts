// Golden traces: the engine's output for a fixed set of experiments, pinned by hash. The engine's
// hot paths are tuned for speed (object reuse, allocation-free checks); this test proves such
// work changes nothing a user can see: every event, sample, summary and snapshot stays
// byte-identical. A hash changes only when the model's behaviour is meant to change; then rerun
// with GOLDEN_PRINT=1 to print the new hashes, and say in the commit why the runs differ.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runExperiment, Simulation, type ExperimentInput } from '../../../src/engine';
import { LabEngine } from '../../../src/store/labEngine';
import { normalizeExperiment } from '../../../src/engine';

const sha = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);

const scenarioDir = join(import.meta.dirname, '..', '..', '..', 'scenes', 'scenarios');
const scenarios: [string, ExperimentInput][] = readdirSync(scenarioDir)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => [f.replace(/\.json$/, ''), JSON.parse(readFileSync(join(scenarioDir, f), 'utf8')).experiment]);

/** Every kind of fault and switch, clients and a clock skew, in one run. */
const everything: ExperimentInput = {
  seed: 4242,
  nodes: 7,
  witness: true,
  workload: { clients: 200, clientWriteEveryMs: 300, clientLeaderCacheMs: 5000, leaderWriteEveryMs: 400 },
  faults: [
    { atMs: 0, do: 'clockRate', node: 'n3', rate: 1.7 },
    { atMs: 8_000, do: 'kill', node: 'leader' },
    { atMs: 15_000, do: 'pause', node: 'leader', forMs: 14_000 },
    {
      atMs: 20_000,
      do: 'partition',
      groups: [
        ['n1', 'n2', 'storage'],
        ['n3', 'n4', 'n5'],
      ],
    },
    { atMs: 26_000, do: 'write', node: 'n1' },
    { atMs: 30_000, do: 'heal' },
    { atMs: 31_000, do: 'restart', node: 'n1' },
    { atMs: 33_000, do: 'isolate', node: 'leader' },
    { atMs: 40_000, do: 'heal' },
    { atMs: 42_000, do: 'campaign', node: 'n4', transfer: true },
    { atMs: 50_000, do: 'safety', fencing: false, quorum: false },
    {
      atMs: 52_000,
      do: 'partition',
      groups: [
        ['n1', 'n2', 'n3'],
        ['n4', 'n5', 'n6', 'n7', 'w'],
      ],
    },
    { atMs: 60_000, do: 'pause', node: 'n5' },
    { atMs: 70_000, do: 'resume', node: 'n5' },
    { atMs: 75_000, do: 'heal' },
    { atMs: 76_000, do: 'safety', fencing: true, quorum: true, followersReject: false, preVote: false },
    { atMs: 80_000, do: 'clockRate', node: 'n3', rate: 0.4 },
    { atMs: 85_000, do: 'kill', node: 'leader' },
  ],
  untilMs: 120_000,
};

const cases: [string, ExperimentInput][] = [
  ...scenarios,
  ['everything', everything],
  [
    'unsafe split brain with clients',
    {
      seed: 9,
      nodes: 4,
      safety: { quorum: false, fencing: false, followersReject: false, preVote: false },
      workload: { clients: 50 },
      faults: [
        {
          atMs: 5_000,
          do: 'partition',
          groups: [
            ['n1', 'n2'],
            ['n3', 'n4', 'storage'],
          ],
        },
        { atMs: 40_000, do: 'heal' },
      ],
      untilMs: 60_000,
    },
  ],
  [
    'k8s-lease with its store',
    {
      algorithm: 'k8s-lease',
      seed: 8,
      nodes: 4,
      workload: { clients: 30 },
      faults: [
        { atMs: 10_000, do: 'pause', node: 'leader', forMs: 20_000 },
        { atMs: 40_000, do: 'kill', node: 'm1' },
        { atMs: 45_000, do: 'isolate', node: 'm2' },
        { atMs: 60_000, do: 'heal' },
        { atMs: 62_000, do: 'clockRate', node: 'n3', rate: 2 },
        { atMs: 70_000, do: 'stop', node: 'leader' },
      ],
      untilMs: 90_000,
    },
  ],
  [
    'etcd election',
    {
      algorithm: 'etcd-election',
      seed: 9,
      nodes: 5,
      etcd: { ttlMs: 6_000 },
      faults: [
        { atMs: 10_000, do: 'kill', node: 'leader' },
        { atMs: 25_000, do: 'pause', node: 'leader', forMs: 9_000 },
        { atMs: 40_000, do: 'kill', node: 'm3' },
        { atMs: 50_000, do: 'stop', node: 'leader' },
      ],
      untilMs: 70_000,
    },
  ],
  [
    '7 nodes, 1000 clients',
    { nodes: 7, untilMs: 30_000, workload: { clients: 1000, clientWriteEveryMs: 500 } },
  ],
  [
    'bounded outputs',
    {
      seed: 3,
      workload: { clients: 40 },
      limits: { maxEvents: 100, maxSamples: 100 },
      faults: [{ atMs: 20_000, do: 'kill', node: 'leader' }],
      untilMs: 60_000,
    },
  ],
];

/** Snapshots every few seconds: message ids, in-flight order, client routing, node views. */
function snapshots(input: ExperimentInput): string {
  const sim = new Simulation(input);
  const parts: string[] = [];
  for (let t = 0; t <= sim.experiment.untilMs; t += 3_137) {
    sim.runUntil(t);
    parts.push(JSON.stringify(sim.snapshot()));
  }
  return parts.join('\n');
}

/** The page's timeline: live commands, then seeks back and forth through checkpoints. */
function timeline(): string {
  const lab = new LabEngine(normalizeExperiment({ ...everything, faults: [] }));
  const parts: string[] = [];
  lab.advanceTo(9_000);
  lab.apply({ do: 'kill', node: 'leader' });
  lab.advanceTo(21_000);
  lab.apply({ do: 'pause', node: 'leader', forMs: 9_000 });
  lab.advanceTo(47_500);
  lab.apply({
    do: 'partition',
    groups: [
      ['n1', 'n2'],
      ['n3', 'n4', 'n5', 'storage'],
    ],
  });
  lab.advanceTo(90_000);
  for (const t of [12_345, 80_000, 3_000, 47_500, 47_501, 66_666, 90_000]) {
    lab.seek(t);
    parts.push(JSON.stringify(lab.sim.snapshot()), String(lab.sim.eventsTotal));
  }
  parts.push(JSON.stringify(lab.sim.trace()));
  return parts.join('\n');
}

const GOLDEN: Record<string, string> = {
  'trace 01-steady-state': '6607b40b0103f241',
  'trace 02-kill-leader': 'ee79e3ae20317efb',
  'trace 03-gc-pause-short': '0ff303d1417bbd9a',
  'trace 04-gc-pause-long': 'f7bd3c5c4fbcbfa2',
  'trace 05-gc-pause-long-no-fencing': 'e06e4446b18cbc6e',
  'trace 06-kleppmann-33-34': '2f9116c0bcd93118',
  'trace 07-quorum-split-2-3': '6cabf0a4019f3387',
  'trace 08-no-quorum-split-brain': '2f7c84bfd9ea4e55',
  'trace 09a-github-2018-no-fencing': '578554feca20fc8d',
  'trace 09b-github-2018-fenced': '3bd507d131202dac',
  'trace 10a-drill-26-failback-silent-accept': '3bce631397c49014',
  'trace 10b-drill-26-failback-reject-fenced': '103dfcfeb4ae2740',
  'trace 11-even-cluster': 'a368dc54a6137007',
  'trace 12a-two-nodes': '8fae5cee1dae67a1',
  'trace 12b-two-nodes-witness': 'bc84af947836d121',
  'trace 13-clock-skew': 'c46bb26326ede59a',
  'trace 14a-flapping-tight-lease': 'cb18a438b5585a29',
  'trace 14b-flapping-wide-lease': '36c665e3eb57f96e',
  'trace 15-warm-up-under-load': 'ebb9ced3c77c5672',
  'trace 16-bully-split-2-3': '036aab3f7c0a31de',
  'trace 17-ring-lost-election': 'bf261843784819a5',
  'trace 18a-zookeeper-watch-predecessor': '5509b25f3b66efbd',
  'trace 18b-zookeeper-herd-effect': '9c71f16b304a4daf',
  'trace 19-leaderless-partition-the-work': '7c2f05ab12108e69',
  'trace 20a-etcd-raft-failover-tight-deadline': 'f5d49a5c515e61d7',
  'trace 20b-etcd-raft-failover-session-ttl': '52d82cebd24b80c0',
  'trace everything': '2e926d42f256a2d6',
  'trace unsafe split brain with clients': '26167477eccb50a1',
  'trace k8s-lease with its store': '9247dafbf9adcb46',
  'trace etcd election': 'e6dadfe0b78299a1',
  'trace 7 nodes, 1000 clients': '948a99a1c18d6229',
  'trace bounded outputs': '38d4e258500a318a',
  'snapshots everything': 'feed84f5a13b8510',
  'snapshots 7 nodes, 1000 clients': '34555793ccbab3f6',
  'lab timeline': '899a5cc37667da02',
};

const actual = (): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const [name, input] of cases) out[`trace ${name}`] = sha(JSON.stringify(runExperiment(input)));
  out['snapshots everything'] = sha(snapshots(everything));
  out['snapshots 7 nodes, 1000 clients'] = sha(
    snapshots(cases.find(([n]) => n === '7 nodes, 1000 clients')![1]),
  );
  out['lab timeline'] = sha(timeline());
  return out;
};

describe('golden traces', () => {
  const got = actual();
  if (process.env.GOLDEN_PRINT) console.log(JSON.stringify(got, null, 2));
  for (const name of Object.keys(got)) {
    it(`${name} is unchanged`, () => {
      expect(got[name]).toBe(GOLDEN[name]);
    });
  }
  it('covers every pinned case', () => {
    expect(Object.keys(got).sort()).toEqual(Object.keys(GOLDEN).sort());
  });
});

describe('seeking replays exactly', () => {
  const experiment = (limits?: { maxEvents: number; maxSamples: number }) =>
    normalizeExperiment({
      ...everything,
      workload: { ...everything.workload, clients: 40 },
      faults: [],
      untilMs: 150_000,
      ...(limits ? { limits } : {}),
    });

  /** Play 150 s with two commands, then seek around; compare each landing with a straight run. */
  function seekAround(lab: LabEngine, compare: (lab: LabEngine, straight: LabEngine, t: number) => void) {
    lab.advanceTo(20_000);
    lab.apply({ do: 'kill', node: 'leader' });
    lab.advanceTo(55_000);
    lab.apply({
      do: 'partition',
      groups: [
        ['n1', 'n2', 'n3'],
        ['n4', 'n5', 'n6', 'n7', 'storage'],
      ],
    });
    lab.advanceTo(150_000);
    for (const t of [40_000, 149_000, 3_000, 150_000, 61_234, 20_000, 55_000, 54_999, 130_000, 0, 149_999]) {
      lab.seek(t);
      const straight = new LabEngine(lab.experiment, lab.commands);
      straight.advanceTo(t);
      compare(lab, straight, t);
    }
  }

  it('lands, back or forward, on the same trace and snapshot as playing straight there', () => {
    const lab = new LabEngine(experiment());
    seekAround(lab, (a, b, t) => {
      expect(JSON.stringify([a.sim.trace(), a.sim.snapshot()]), `at ${t}`).toBe(
        JSON.stringify([b.sim.trace(), b.sim.snapshot()]),
      );
    });
  });

  it('keeps every total right when the bounded lists have dropped what a seek back would need', () => {
    // Small bounds: the run crosses many halvings of its event and sample lists. After a seek back
    // past a halving, the lists hold only what is left: the newest events and samples, never more
    // than the bound, and every total right.
    const bounds = { maxEvents: 2_000, maxSamples: 400 };
    const lab = new LabEngine(experiment(bounds));
    const unbounded = experiment();
    const tail = (mine: unknown[], all: unknown[]) =>
      JSON.stringify(all.slice(all.length - mine.length)) === JSON.stringify(mine);
    seekAround(lab, (a, b, t) => {
      const [x, y] = [a.sim.trace(), b.sim.trace()];
      const full = new LabEngine(unbounded, a.commands);
      full.advanceTo(t);
      const everything = full.sim.trace();
      expect([a.sim.eventsTotal, a.sim.samplesTotal], `at ${t}`).toEqual([
        b.sim.eventsTotal,
        b.sim.samplesTotal,
      ]);
      expect(x.events.length <= bounds.maxEvents && x.samples.length <= bounds.maxSamples, `at ${t}`).toBe(
        true,
      );
      expect(tail(x.events, everything.events) && tail(x.samples, everything.samples), `at ${t}`).toBe(true);
      expect(JSON.stringify([{ ...x.summary, eventsDropped: 0 }, x.final, a.sim.snapshot()]), `at ${t}`).toBe(
        JSON.stringify([{ ...y.summary, eventsDropped: 0 }, y.final, b.sim.snapshot()]),
      );
    });
  });

  it('forgets the recorded future when a command forks the run', () => {
    const lab = new LabEngine(experiment());
    lab.advanceTo(100_000);
    lab.seek(30_000);
    lab.apply({ do: 'kill', node: 'leader' });
    lab.advanceTo(31_000);
    lab.seek(90_000);
    const straight = new LabEngine(lab.experiment, lab.commands);
    straight.advanceTo(90_000);
    expect(JSON.stringify(lab.sim.trace())).toBe(JSON.stringify(straight.sim.trace()));
  });
});
