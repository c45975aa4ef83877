// Engine benchmarks, reported against their budgets (not part of `npm test`).
//   npm run bench
//   (a) the default 5-node experiment over 1 simulated hour
//   (b) 7 nodes, 1,000 clients writing every 500 ms, over 10 simulated minutes
// Budget: (b) at least 1,000,000 events per second on one core. Events are the engine's
// processed queue events (Simulation.eventsProcessed): deliveries, timers, client ticks, faults.
// Each case runs RUNS times and the median run (by wall time) is reported, so one noisy run on a
// busy machine does not decide the figure. Options: --runs=N, --json (figures as JSON).
// To find hot spots: node --import tsx --cpu-prof --cpu-prof-dir=.reports/prof tests/bench/engine.bench.ts
import { Simulation, type ExperimentInput } from '../../src/engine';

interface Case {
  name: string;
  experiment: ExperimentInput;
  /** Minimum events per wall second, or null for no budget. */
  budgetEventsPerS: number | null;
}

const HOUR_MS = 3_600_000;
const CASES: Case[] = [
  { name: '(a) default 5 nodes, 1 h', experiment: { untilMs: HOUR_MS }, budgetEventsPerS: null },
  {
    name: '(b) 7 nodes, 1,000 clients @ 500 ms, 10 min',
    experiment: { nodes: 7, untilMs: 600_000, workload: { clients: 1000, clientWriteEveryMs: 500 } },
    budgetEventsPerS: 1_000_000,
  },
];

// Advance in slices of simulated time so memory can be sampled while the run is in flight
// (not more often: process.memoryUsage() costs tens of microseconds).
const SLICE_MS = 10_000;
const RUNS = Number(process.argv.find((a) => a.startsWith('--runs='))?.slice('--runs='.length) ?? 3);

interface Result {
  name: string;
  simulatedS: number;
  wallS: number;
  simSPerWallS: number;
  events: number;
  eventsPerS: number;
  traceEvents: number;
  peakRssMb: number;
  peakHeapMb: number;
  budgetEventsPerS: number | null;
  withinBudget: boolean | null;
}

function runOnce(c: Case): Result {
  const sim = new Simulation(c.experiment);
  const untilMs = sim.experiment.untilMs;
  let peakRss = 0;
  let peakHeap = 0;
  const sampleMemory = () => {
    const m = process.memoryUsage();
    if (m.rss > peakRss) peakRss = m.rss;
    if (m.heapUsed > peakHeap) peakHeap = m.heapUsed;
  };
  sampleMemory();
  const started = process.hrtime.bigint();
  for (let t = SLICE_MS; t < untilMs + SLICE_MS; t += SLICE_MS) {
    sim.runUntil(Math.min(t, untilMs));
    sampleMemory();
  }
  const wallS = Number(process.hrtime.bigint() - started) / 1e9;
  sampleMemory();
  const events = sim.eventsProcessed;
  const eventsPerS = events / wallS;
  return {
    name: c.name,
    simulatedS: untilMs / 1000,
    wallS,
    simSPerWallS: untilMs / 1000 / wallS,
    events,
    eventsPerS,
    traceEvents: sim.eventsTotal,
    peakRssMb: peakRss / 2 ** 20,
    peakHeapMb: peakHeap / 2 ** 20,
    budgetEventsPerS: c.budgetEventsPerS,
    withinBudget: c.budgetEventsPerS === null ? null : eventsPerS >= c.budgetEventsPerS,
  };
}

const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

function table(results: Result[]): string {
  const header = [
    'case',
    'wall s',
    'sim s / wall s',
    'events',
    'events / s',
    'budget events / s',
    'peak RSS MB',
    'peak heap MB',
  ];
  const rows = results.map((r) => [
    r.name,
    fmt(r.wallS, 2),
    fmt(r.simSPerWallS),
    fmt(r.events),
    fmt(r.eventsPerS),
    r.budgetEventsPerS === null ? '-' : `>= ${fmt(r.budgetEventsPerS)} ${r.withinBudget ? 'OK' : 'BELOW'}`,
    fmt(r.peakRssMb, 1),
    fmt(r.peakHeapMb, 1),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) =>
    cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

// A short warm-up so the JIT has compiled the hot paths before anything is timed.
new Simulation({ nodes: 7, untilMs: 20_000, workload: { clients: 200, clientWriteEveryMs: 500 } }).runUntil(
  20_000,
);

/** The median run by wall time; peak memory is the highest seen over all runs. */
function run(c: Case): Result {
  const runs = Array.from({ length: Math.max(1, RUNS) }, () => runOnce(c)).sort((x, y) => x.wallS - y.wallS);
  const median = runs[Math.floor((runs.length - 1) / 2)];
  return {
    ...median,
    peakRssMb: Math.max(...runs.map((r) => r.peakRssMb)),
    peakHeapMb: Math.max(...runs.map((r) => r.peakHeapMb)),
  };
}

const results = CASES.map(run);
if (process.argv.includes('--json')) {
  console.log(JSON.stringify(results, null, 2));
} else {
  console.log(`Engine benchmark (Node ${process.version}, one thread, median of ${RUNS} runs)\n`);
  console.log(table(results));
  const below = results.filter((r) => r.withinBudget === false);
  console.log(below.length ? `\nBELOW BUDGET: ${below.map((r) => r.name).join(', ')}` : '\nAll budgets met.');
}
