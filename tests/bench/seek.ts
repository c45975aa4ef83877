// Seek benchmark, headless: how long the lab takes to jump to any moment of a run it has played.
//   npm run bench:seek   (or npx tsx tests/bench/seek.ts; options: --seeks=N (default 200), --json)
// A 30-simulated-minute run of the page's default lab with a person's commands recorded along
// the way (kills, restarts, pauses, partitions, a clock skew, safety switches), played to its
// end; then random jumps across it, through the lab store exactly as the timeline slider does
// (LabEngine.seek: restore the nearest checkpoint, replay the recorded commands, then publish a
// snapshot and rebuild the event log). Budget: every seek <= 50 ms. Also run with 7 nodes and
// 200 clients, the busiest lab the frame benchmark plays.
// A seek is one synchronous call, so the slowest seek is also the longest main-thread task a
// jump costs here; tests/bench/seek-page.ts checks the same in the page, React's render included.
import '../../src/engine/algorithms/all';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Command, ExperimentInput } from '../../src/engine';
import type { Figure } from './figures';
import { createLabStore } from '../../src/store/labStore';
import { CHECKPOINT_EVERY_MS, LabEngine } from '../../src/store/labEngine';

export const SEEK_BUDGET_MS = 50;
export const RUN_MS = 30 * 60_000;

/**
 * The page's defaults (src/app/urlParams.ts PAGE_DEFAULTS): 5 nodes, a visible network delay.
 * Copied rather than imported: that module reads the scenario files through the bundler.
 */
export const PAGE_LAB: ExperimentInput = { seed: 1, nodes: 5, network: { delayMsMin: 60, delayMsMax: 180 } };

export interface SeekCase {
  name: string;
  experiment: ExperimentInput;
}

export const SEEK_CASES: SeekCase[] = [
  { name: 'default lab, 30 min', experiment: { ...PAGE_LAB, untilMs: RUN_MS } },
  {
    name: '7 nodes, 200 clients, 30 min',
    experiment: { ...PAGE_LAB, nodes: 7, workload: { clients: 200 }, untilMs: RUN_MS },
  },
];

/** What a person might do over half an hour: one command every 75 s, cycling through these. */
const SCRIPT: Command[] = [
  { do: 'kill', node: 'leader' },
  { do: 'restart', node: 'n1' },
  { do: 'pause', node: 'leader', forMs: 20_000 },
  {
    do: 'partition',
    groups: [
      ['n1', 'n2'],
      ['n3', 'n4', 'n5', 'storage'],
    ],
  },
  { do: 'heal' },
  { do: 'clockRate', node: 'n3', rate: 1.5 },
  { do: 'safety', fencing: false },
  { do: 'pause', node: 'leader', forMs: 30_000 },
  { do: 'safety', fencing: true },
  { do: 'isolate', node: 'leader' },
  { do: 'heal' },
  { do: 'restart', node: 'n2' },
];

export interface SeekResult {
  name: string;
  seeks: number;
  commands: number;
  checkpoints: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  /** Recording the run itself: simulated minutes per wall second. */
  playSimMinPerS: number;
  budgetMs: number;
  withinBudget: boolean;
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];

/** A deterministic sequence of seek targets (the same every run, so runs compare). */
export function* targets(count: number, untilMs: number): Generator<number> {
  let x = 0x9e3779b9;
  for (let i = 0; i < count; i++) {
    x = (Math.imul(x ^ (x >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    yield Math.floor((x / 2 ** 32) * untilMs);
  }
}

/** A lab store that has played the case's run to its end, issuing the script on the way. */
export function recordRun(c: SeekCase): {
  store: ReturnType<typeof createLabStore>;
  engine: () => LabEngine;
  commands: number;
  playWallS: number;
} {
  let engine: LabEngine | null = null;
  const store = createLabStore({
    experiment: c.experiment,
    playing: false,
    makeBackend: (e, commands) => (engine = new LabEngine(e, commands)),
  });
  const untilMs = store.getState().experiment.untilMs;
  const started = performance.now();
  let commands = 0;
  // Play the run in page-sized steps (one 16x frame is ~270 ms), issuing the script on the way.
  for (let t = 0, next = 60_000; t < untilMs;) {
    t = Math.min(untilMs, t + 5_000);
    store.getState().advanceBy(t - store.getState().snapshot.nowMs);
    if (t >= next) {
      if (store.getState().command(SCRIPT[commands % SCRIPT.length])) commands++;
      next += 75_000;
    }
  }
  const made = () => {
    if (!engine) throw new Error('the lab store made no simulator');
    return engine;
  };
  return { store, engine: made, commands, playWallS: (performance.now() - started) / 1000 };
}

export function runSeekCase(c: SeekCase, seeks: number): SeekResult {
  const run = recordRun(c);
  const { store, commands, playWallS } = run;
  const untilMs = store.getState().experiment.untilMs;
  const times: number[] = [];
  for (const t of targets(seeks, untilMs)) {
    const t0 = performance.now();
    store.getState().seek(t);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const maxMs = times[times.length - 1];
  return {
    name: c.name,
    seeks,
    commands,
    checkpoints: run.engine().checkpointCount,
    p50Ms: quantile(times, 0.5),
    p95Ms: quantile(times, 0.95),
    maxMs,
    playSimMinPerS: untilMs / 60_000 / playWallS,
    budgetMs: SEEK_BUDGET_MS,
    withinBudget: maxMs <= SEEK_BUDGET_MS,
  };
}

/** Every case; `runMs` shortens the runs for the CI's quick version. */
export function runSeek(seeks: number, runMs = RUN_MS): SeekResult[] {
  // Warm the JIT on a short run so the first measured seeks are not compile time.
  runSeekCase({ name: 'warm-up', experiment: { ...SEEK_CASES[1].experiment, untilMs: 120_000 } }, 20);
  return SEEK_CASES.map((c) =>
    runSeekCase(
      {
        name: runMs === RUN_MS ? c.name : c.name.replace('30 min', `${runMs / 60_000} min`),
        experiment: { ...c.experiment, untilMs: runMs },
      },
      seeks,
    ),
  );
}

export function seekHeading(): string {
  return `Seek (Node ${process.version}, checkpoints every ${CHECKPOINT_EVERY_MS / 1000} s)`;
}

export function seekLines(results: SeekResult[]): string {
  return results
    .map(
      (r) =>
        `${r.name}: ${r.seeks} seeks over ${r.commands} recorded commands, ${r.checkpoints} checkpoints: ` +
        `p50 ${r.p50Ms.toFixed(1)} ms, p95 ${r.p95Ms.toFixed(1)} ms, slowest ${r.maxMs.toFixed(1)} ms ` +
        `(budget <= ${r.budgetMs} ms) ${r.withinBudget ? 'OK' : 'OVER'}`,
    )
    .join('\n');
}

/** The slowest seek of each case: the budget is on every jump, and it is one main-thread task. */
export function seekFigures(results: SeekResult[]): Figure[] {
  return results.map((r) => ({
    bench: 'seek',
    name: `slowest of ${r.seeks} jumps, ${r.name}`,
    value: r.maxMs,
    unit: 'ms',
    budget: r.budgetMs,
    kind: 'max',
  }));
}

function main(): void {
  const seeks = Number(process.argv.find((a) => a.startsWith('--seeks='))?.slice(8) ?? 200);
  const results = runSeek(seeks);
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify({ loadavg: loadavg(), results }, null, 2));
    return;
  }
  console.log(`${seekHeading()}, load average ${loadavg()[0].toFixed(1)}\n`);
  console.log(seekLines(results));
  if (results.some((r) => !r.withinBudget)) process.exitCode = 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
