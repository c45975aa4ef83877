// Failure-explorer benchmarks, per election algorithm, reported against their budgets.
//   npm run bench:explore           (or npx tsx tests/bench/explore.bench.ts; options: --schedules=N, --seeds=N)
//   (a) schedules searched per second on one core, with every defence on, under each algorithm
//       that has one (Raft, Kubernetes' Lease, etcd's election, ZooKeeper): it finds nothing, so
//       every schedule runs its whole horizon (the slowest case), the default 5-node cluster, a
//       2-minute horizon. The slowest algorithm's rate is one figure (budget: at least 300 per
//       second); the page's default lab (5 nodes, Raft at the teaching timings it opens with, what
//       "Find a failure" searches unless the setup is changed) is another (budget: at least 500 per
//       second). A search that finds something here fails the benchmark: that is a bug to report.
//   (b) time to the first failure, from the start of the search to the failing schedule, over
//       several search seeds, for each lesson: fencing off under Raft, Kubernetes' Lease, etcd's
//       election and ZooKeeper, quorum off under Raft, and Bully and Ring as they are. The slowest
//       seed of the slowest setup is the figure. Budget: under 2 s.
//   (c) shrinking that failure to a minimal schedule, captioned (the full run included), over the
//       same seeds and setups. The slowest is the figure. Budget: under 5 s.
// To find hot spots: node --import tsx --cpu-prof --cpu-prof-dir=.reports/prof tests/bench/explore.bench.ts
import { fileURLToPath } from 'node:url';
import '../../src/engine/algorithms/all';
import { normalizeExperiment, type ExperimentInput } from '../../src/engine';
import { exploration, type ExploreResult } from '../../src/explorer/explore';
import { PAGE_DEFAULTS } from '../../src/shared/link';
import { table } from './browserKit';
import type { Figure } from './figures';

export const SEARCH_BUDGET_PER_S = 300;
export const DEFAULT_LAB_BUDGET_PER_S = 500;

/** The page's default lab, as "Find a failure" searches it when nothing is changed. */
export const DEFAULT_LAB: [string, ExperimentInput] = [
  "the page's default lab (Raft, teaching timings)",
  PAGE_DEFAULTS,
];
export const FIRST_FAILURE_BUDGET_MS = 2000;
export const SHRINK_BUDGET_MS = 5000;

/** Every algorithm with a safe setup: every defence on, where finding nothing is the answer. */
export const SAFE_SETUPS: [string, ExperimentInput][] = [
  ['Raft', {}],
  ["Kubernetes' Lease", { algorithm: 'k8s-lease' }],
  ["etcd's election", { algorithm: 'etcd-election' }],
  ['ZooKeeper', { algorithm: 'zookeeper' }],
];

/** Every setup with a lesson to find: a defence off, or an algorithm without a quorum. */
export const LESSON_SETUPS: [string, ExperimentInput][] = [
  ['Raft, fencing off', { safety: { fencing: false } }],
  ['Raft, quorum off', { safety: { quorum: false } }],
  ["Kubernetes' Lease, fencing off", { algorithm: 'k8s-lease', safety: { fencing: false } }],
  ["etcd's election, fencing off", { algorithm: 'etcd-election', safety: { fencing: false } }],
  ['ZooKeeper, fencing off', { algorithm: 'zookeeper', safety: { fencing: false } }],
  ['Bully', { algorithm: 'bully' }],
  ['Ring', { algorithm: 'ring' }],
];

interface SearchResult {
  name: string;
  schedules: number;
  wallMs: number;
  cpuMs: number;
  perSecond: number;
}

interface FindResult {
  name: string;
  /** Per seed: wall ms to the first failing schedule, schedules tried, shrink ms and runs. */
  seeds: {
    seed: number;
    firstMs: number;
    tried: number;
    shrinkMs: number;
    shrinkRuns: number;
    faults: number;
    invariant: string;
  }[];
}

const clock = () => performance.now();

function exploreOnce(setup: ExperimentInput, seed: number, budgetSchedules: number) {
  let firstMs = -1;
  const started = clock();
  const run = exploration(
    normalizeExperiment(setup),
    { seed, budgetSchedules, budgetMs: 600_000 },
    {
      nowMs: clock,
      stopped: () => false,
    },
  );
  let step = run.next();
  while (!step.done) {
    if (step.value.type === 'found') firstMs = clock() - started;
    step = run.next();
  }
  return { result: step.value as ExploreResult, firstMs };
}

/** (a): a search that finds nothing, timed on the wall and on the process's CPU. */
function searchOnce(name: string, setup: ExperimentInput, schedules: number): SearchResult {
  const cpu = process.cpuUsage();
  const started = clock();
  const { result } = exploreOnce(setup, 1, schedules);
  if (result.outcome !== 'nothing')
    throw new Error(
      `${name} with every defence on broke ${result.finding?.violation.invariant}: a bug, see npm run explore`,
    );
  const wallMs = clock() - started;
  const used = process.cpuUsage(cpu);
  return {
    name,
    schedules,
    wallMs,
    cpuMs: (used.user + used.system) / 1000,
    perSecond: (schedules * 1000) / wallMs,
  };
}

function findAll(name: string, setup: ExperimentInput, seeds: number): FindResult {
  const out: FindResult['seeds'] = [];
  for (let seed = 1; seed <= seeds; seed++) {
    const { result, firstMs } = exploreOnce(setup, seed, 10_000);
    const f = result.finding;
    if (!f) throw new Error(`${name}: nothing found with seed ${seed}`);
    out.push({
      seed,
      firstMs,
      tried: result.schedulesTried,
      shrinkMs: f.shrinkMs,
      shrinkRuns: f.shrinkRuns,
      faults: f.faults.length,
      invariant: f.violation.invariant,
    });
  }
  return { name, seeds: out };
}

export interface ExploreBench {
  /** The page's default lab, every defence on. */
  defaultLab: SearchResult;
  searches: SearchResult[];
  finds: FindResult[];
}

export function runExplore(schedules = 3000, seeds = 20): ExploreBench {
  // Warm the JIT on both paths (search and shrink) before anything is timed.
  for (const [name, setup] of SAFE_SETUPS) searchOnce(name, setup, 50);
  findAll('warm-up', { safety: { fencing: false } }, 2);
  return {
    defaultLab: searchOnce(DEFAULT_LAB[0], DEFAULT_LAB[1], schedules),
    searches: SAFE_SETUPS.map(([name, setup]) => searchOnce(name, setup, schedules)),
    finds: LESSON_SETUPS.map(([name, setup]) => findAll(name, setup, seeds)),
  };
}

const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const max = (xs: number[]) => Math.max(...xs);
const medMax = (xs: number[], digits = 0) => `${fmt(median(xs), digits)} / ${fmt(max(xs), digits)}`;

export function exploreHeading(b: ExploreBench): string {
  const seeds = b.finds[0]?.seeds.length ?? 0;
  const schedules = b.searches[0]?.schedules ?? 0;
  return `Explorer (Node ${process.version}, one thread; search: ${fmt(schedules)} schedules per algorithm; failures: ${seeds} seeds per setup)`;
}

export function exploreReport(b: ExploreBench): string {
  const searchRows = [...b.searches, b.defaultLab].map((s) => [
    s.name,
    `${fmt(s.schedules)}, nothing found`,
    fmt(s.wallMs),
    fmt(s.cpuMs),
    fmt(s.perSecond),
    fmt((s.schedules * 1000) / s.cpuMs),
  ]);
  const search = table(
    ['every defence on', 'schedules', 'wall ms', 'CPU ms', 'per second', 'per CPU second'],
    searchRows,
  );
  const rows = b.finds.map((f) => [
    f.name,
    [...new Set(f.seeds.map((x) => x.invariant))].join(', '),
    medMax(f.seeds.map((x) => x.tried)),
    medMax(
      f.seeds.map((x) => x.firstMs),
      1,
    ),
    medMax(f.seeds.map((x) => x.shrinkRuns)),
    medMax(
      f.seeds.map((x) => x.shrinkMs),
      1,
    ),
    medMax(f.seeds.map((x) => x.faults)),
  ]);
  const header = [
    'setup',
    'first violation',
    'schedules to failure (median / max)',
    'ms to failure',
    'shrink runs',
    'shrink ms',
    'faults left',
  ];
  return (
    `(a) search rate, 5 nodes, 2-minute horizon, budget >= ${SEARCH_BUDGET_PER_S} per second (the slowest algorithm at its source's timings) and >= ${DEFAULT_LAB_BUDGET_PER_S} (the page's default lab):\n${search}\n\n` +
    `(b), (c) over search seeds:\n${table(header, rows)}`
  );
}

export function exploreFigures(b: ExploreBench): Figure[] {
  if (b.searches.length === 0 || b.finds.length === 0) return [];
  const slowestSearch = b.searches.reduce((a, s) => (s.perSecond < a.perSecond ? s : a));
  const worst = (key: 'firstMs' | 'shrinkMs') =>
    b.finds
      .map((f) => ({ name: f.name, value: max(f.seeds.map((x) => x[key])) }))
      .reduce((a, x) => (x.value > a.value ? x : a));
  const first = worst('firstMs');
  const shrink = worst('shrinkMs');
  const seeds = b.finds[0].seeds.length;
  return [
    {
      bench: 'explore',
      name: `schedules searched per second, every defence on, one core, ${b.defaultLab.name}`,
      value: b.defaultLab.perSecond,
      unit: '/s',
      budget: DEFAULT_LAB_BUDGET_PER_S,
      kind: 'min',
      digits: 0,
    },
    {
      bench: 'explore',
      name: `schedules searched per second, every defence on, one core (slowest: ${slowestSearch.name})`,
      value: slowestSearch.perSecond,
      unit: '/s',
      budget: SEARCH_BUDGET_PER_S,
      kind: 'min',
      digits: 0,
    },
    {
      bench: 'explore',
      name: `time to the first failure, slowest of ${seeds} seeds x ${b.finds.length} setups (${first.name})`,
      value: first.value,
      unit: 'ms',
      budget: FIRST_FAILURE_BUDGET_MS,
      kind: 'max',
    },
    {
      bench: 'explore',
      name: `shrinking it to a minimal schedule, slowest (${shrink.name})`,
      value: shrink.value,
      unit: 'ms',
      budget: SHRINK_BUDGET_MS,
      kind: 'max',
    },
  ];
}

function main(): void {
  const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const b = runExplore(Number(arg('schedules') ?? 3000), Number(arg('seeds') ?? 20));
  console.log(`${exploreHeading(b)}\n`);
  console.log(exploreReport(b));
  if (exploreFigures(b).some((f) => (f.kind === 'min' ? f.value < f.budget : f.value > f.budget)))
    process.exitCode = 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
