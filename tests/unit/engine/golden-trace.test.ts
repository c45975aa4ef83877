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
  'trace 01-steady-state': '4d7a5207a45506ab',
  'trace 02-kill-leader': '9f11fb85296ae9d6',
  'trace 03-gc-pause-short': 'b5bd72976f655325',
  'trace 04-gc-pause-long': '55c8d7503f10ce7a',
  'trace 05-gc-pause-long-no-fencing': 'e86616a1d3a88d3a',
  'trace 06-kleppmann-33-34': '60dd91498438cd00',
  'trace 07-quorum-split-2-3': 'c998f24ecca28f3e',
  'trace 08-no-quorum-split-brain': 'a2ec487e5a93ec32',
  'trace 09a-github-2018-no-fencing': 'a9ea37bb39e173ae',
  'trace 09b-github-2018-fenced': '0dcfaaaeb080f4bc',
  'trace 10a-drill-26-failback-silent-accept': 'a53d8a7816d45f4d',
  'trace 10b-drill-26-failback-reject-fenced': 'b84c6492a51dc21a',
  'trace 11-even-cluster': 'efaa62de458acc3a',
  'trace 12a-two-nodes': '64b14c5a1c3a1344',
  'trace 12b-two-nodes-witness': '8380e324b8895efd',
  'trace 13-clock-skew': 'fa098c08df708a83',
  'trace 14a-flapping-tight-lease': 'c0abf7163cfa0023',
  'trace 14b-flapping-wide-lease': '5ab988e5cbf557da',
  'trace 15-warm-up-under-load': '2375302885e54597',
  'trace 16-bully-split-2-3': 'a31e401ec5e6addc',
  'trace 17-ring-lost-election': '59d609a2190e5811',
  'trace 18a-zookeeper-watch-predecessor': '645a7b7a4d9d0e54',
  'trace 18b-zookeeper-herd-effect': '543d2d1f3b2a30e8',
  'trace 19-leaderless-partition-the-work': '1c3764ad4e8a8ba2',
  'trace 20a-etcd-raft-failover-tight-deadline': '8e4523b2c3794b0a',
  'trace 20b-etcd-raft-failover-session-ttl': '4487336dc9a337f5',
  'trace everything': 'cddea0cd71f5ee4f',
  'trace unsafe split brain with clients': '787045c9a153bb7c',
  'trace k8s-lease with its store': 'a9f11a7682666b8a',
  'trace etcd election': '03b89493e714ba61',
  'trace 7 nodes, 1000 clients': '943ae4cb82b4be14',
  'trace bounded outputs': '48fb444c0619fa6c',
  'snapshots everything': '8852b7750dd85897',
  'snapshots 7 nodes, 1000 clients': '871655f29152ae03',
  'lab timeline': '28976a391176cd5a',
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
