// Engine benchmarks, reported against their budgets.
//   npm run bench:engine            (or npx tsx tests/bench/engine.bench.ts; options: --runs=N, --json)
//   Each runs on the engine as the page runs it: a Vite bundle (engineBundle.ts), not tsx.
//   (a) the page's default lab (5 nodes, 60-180 ms network) over 1 simulated hour.
//       Budget: at most 100 ms of wall time.
//   (b) 7 nodes, 1,000 clients writing every 500 ms, over 10 simulated minutes.
//       Budget: at least 1,000,000 events per second on one core.
// Events are the engine's processed queue events (Simulation.eventsProcessed): deliveries,
// timers, client ticks, faults. Each case runs RUNS times and the median run (by wall time) is
// reported, so one noisy run on a busy machine does not decide the figure. The budgets are on wall
// time; the process's CPU time is printed beside it, which on a shared machine leaves out the time
// the run waited for a core (and adds V8's helper threads, so it is never flattering).
// To find hot spots: node --import tsx --cpu-prof --cpu-prof-dir=.reports/prof tests/bench/engine.bench.ts
import { fileURLToPath } from 'node:url';
import type { ExperimentInput } from '../../src/engine';
import { bundledEngine, type EngineModule } from './engineBundle';
import type { Figure } from './figures';
import { PAGE_LAB } from './seek';

interface Case {
  name: string;
  experiment: ExperimentInput;
  /** Minimum events per wall second, or null for no budget. */
  budgetEventsPerS: number | null;
  /** Maximum wall time in ms, or null for no budget. */
  budgetWallMs: number | null;
}

const HOUR_MS = 3_600_000;
export const HOUR_BUDGET_WALL_MS = 100;
export const EVENTS_BUDGET_PER_S = 1_000_000;

/** The two budgeted cases; `busyMs` shortens (b) for the CI's quick run. */
export function engineCases(busyMs = 600_000): Case[] {
  return [
    {
      name: '(a) default lab, 1 h',
      experiment: { ...PAGE_LAB, untilMs: HOUR_MS },
      budgetEventsPerS: null,
      budgetWallMs: HOUR_BUDGET_WALL_MS,
    },
    {
      name: `(b) 7 nodes, 1,000 clients @ 500 ms, ${busyMs / 60_000} min`,
      experiment: { nodes: 7, untilMs: busyMs, workload: { clients: 1000, clientWriteEveryMs: 500 } },
      budgetEventsPerS: EVENTS_BUDGET_PER_S,
      budgetWallMs: null,
    },
  ];
}

// Advance in slices of simulated time so memory can be sampled while the run is in flight
// (not more often: process.memoryUsage() costs tens of microseconds, which would show in (a)).
const SLICE_MS = 60_000;

interface Result {
  name: string;
  simulatedS: number;
  wallS: number;
  /** The process's CPU time (user + system, all its threads) over the run. */
  cpuS: number;
  simSPerWallS: number;
  events: number;
  eventsPerS: number;
  traceEvents: number;
  peakRssMb: number;
  peakHeapMb: number;
  budgetEventsPerS: number | null;
  budgetWallMs: number | null;
  withinBudget: boolean | null;
}

function runOnce(engine: EngineModule, c: Case): Result {
  const sim = new engine.Simulation(c.experiment);
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
  const cpuStarted = process.cpuUsage();
  for (let t = SLICE_MS; t < untilMs + SLICE_MS; t += SLICE_MS) {
    sim.runUntil(Math.min(t, untilMs));
    sampleMemory();
  }
  const wallS = Number(process.hrtime.bigint() - started) / 1e9;
  const cpu = process.cpuUsage(cpuStarted);
  const cpuS = (cpu.user + cpu.system) / 1e6;
  sampleMemory();
  const events = sim.eventsProcessed;
  const eventsPerS = events / wallS;
  return {
    name: c.name,
    simulatedS: untilMs / 1000,
    wallS,
    cpuS,
    simSPerWallS: untilMs / 1000 / wallS,
    events,
    eventsPerS,
    traceEvents: sim.eventsTotal,
    peakRssMb: peakRss / 2 ** 20,
    peakHeapMb: peakHeap / 2 ** 20,
    budgetEventsPerS: c.budgetEventsPerS,
    budgetWallMs: c.budgetWallMs,
    withinBudget:
      c.budgetEventsPerS === null && c.budgetWallMs === null
        ? null
        : (c.budgetEventsPerS === null || eventsPerS >= c.budgetEventsPerS) &&
          (c.budgetWallMs === null || wallS * 1000 <= c.budgetWallMs),
  };
}

const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

export function engineTable(results: Result[]): string {
  const header = [
    'case',
    'wall ms',
    'budget wall ms',
    'sim s / wall s',
    'events',
    'events / s',
    'budget events / s',
    'CPU ms',
    'events / CPU s',
    'peak RSS MB',
    'peak heap MB',
  ];
  const rows = results.map((r) => [
    r.name,
    fmt(r.wallS * 1000, 1),
    r.budgetWallMs === null
      ? '-'
      : `<= ${fmt(r.budgetWallMs)} ${r.wallS * 1000 <= r.budgetWallMs ? 'OK' : 'OVER'}`,
    fmt(r.simSPerWallS),
    fmt(r.events),
    fmt(r.eventsPerS),
    r.budgetEventsPerS === null
      ? '-'
      : `>= ${fmt(r.budgetEventsPerS)} ${r.eventsPerS >= r.budgetEventsPerS ? 'OK' : 'OVER'}`,
    fmt(r.cpuS * 1000, 1),
    fmt(r.events / r.cpuS),
    fmt(r.peakRssMb, 1),
    fmt(r.peakHeapMb, 1),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) =>
    cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** A short run so the JIT has compiled the hot paths before anything is timed. */
function warmUp({ Simulation }: EngineModule): void {
  new Simulation({ nodes: 7, untilMs: 20_000, workload: { clients: 200, clientWriteEveryMs: 500 } }).runUntil(
    20_000,
  );
  new Simulation({ ...PAGE_LAB, untilMs: 600_000 }).runUntil(600_000);
}

/** The median run by wall time; peak memory is the highest seen over all runs. */
function run(engine: EngineModule, c: Case, runs: number): Result {
  const all = Array.from({ length: Math.max(1, runs) }, () => runOnce(engine, c)).sort(
    (x, y) => x.wallS - y.wallS,
  );
  const median = all[Math.floor((all.length - 1) / 2)];
  return {
    ...median,
    peakRssMb: Math.max(...all.map((r) => r.peakRssMb)),
    peakHeapMb: Math.max(...all.map((r) => r.peakHeapMb)),
  };
}

/** Each case on the engine as the page runs it (engineBundle.ts). */
export async function runEngine(runs = 3, busyMs = 600_000): Promise<Result[]> {
  const engine = await bundledEngine();
  warmUp(engine);
  return engineCases(busyMs).map((c) => run(engine, c, runs));
}

export function engineFigures(results: Result[]): Figure[] {
  const figures: Figure[] = [];
  for (const r of results) {
    if (r.budgetWallMs !== null) {
      figures.push({
        bench: 'engine',
        name: `wall time, ${r.name.slice(4)}`,
        value: r.wallS * 1000,
        unit: 'ms',
        budget: r.budgetWallMs,
        kind: 'max',
      });
    }
    if (r.budgetEventsPerS !== null) {
      figures.push({
        bench: 'engine',
        name: `events/s, ${r.name.slice(4)}`,
        value: r.eventsPerS,
        unit: 'events/s',
        budget: r.budgetEventsPerS,
        kind: 'min',
        digits: 0,
      });
    }
  }
  return figures;
}

export function engineHeading(runs: number): string {
  return `Engine (Node ${process.version}, one thread, the page's Vite bundle, median of ${runs} runs)`;
}

async function main(): Promise<void> {
  const runs = Number(process.argv.find((a) => a.startsWith('--runs='))?.slice('--runs='.length) ?? 3);
  const results = await runEngine(runs);
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(results, null, 2));
  } else {
    console.log(`${engineHeading(runs)}\n`);
    console.log(engineTable(results));
  }
  if (results.some((r) => r.withinBudget === false)) process.exitCode = 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) void main();
