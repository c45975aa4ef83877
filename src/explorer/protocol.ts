// The explorer's message protocol and its host, which runs an exploration in slices of wall time, handing
// control back between them (`later`) so a "stop" is heard: in a Web Worker (worker.ts adapts it) and on the
// command line (cli/explore.ts) alike. All it needs comes in `HostDeps`, so tests drive it in Node with their
// own clock and queue. Messages: ToExplorer and FromExplorer below (docs/explorer.md tabulates them); an
// error names each bad field, the setup's or the start message's.
import type { Experiment, FieldError, InvariantName } from '../engine';
import {
  checkExploration,
  exploration,
  type ExploreOptions,
  type ExploreResult,
  type ExploreStep,
} from './explore';
import type { ExplorerFaultKind } from './schedule';

export interface StartMessage {
  type: 'start';
  /** The experiment to explore around: algorithm, cluster, switches, timings (and its own faults). */
  setup: unknown;
  seed?: number;
  budget?: { schedules?: number; ms?: number };
  horizonMs?: number;
  maxFaults?: number;
  kinds?: ExplorerFaultKind[];
}

export type ToExplorer = StartMessage | { type: 'stop' };

export type FromExplorer =
  | {
      type: 'progress';
      phase: 'search';
      schedulesTried: number;
      elapsedMs: number;
      schedulesPerSecond: number;
    }
  | { type: 'progress'; phase: 'shrink'; shrinkRuns: number; faults: number; elapsedMs: number }
  | {
      type: 'found';
      scheduleIndex: number;
      schedulesTried: number;
      experiment: Experiment;
      violation: { atMs: number; invariant: InvariantName };
      elapsedMs: number;
    }
  | { type: 'done'; result: ExploreResult }
  | { type: 'error'; errors: FieldError[] };

export interface HostDeps {
  post: (message: FromExplorer) => void;
  /** A wall clock in ms (performance.now): budgets, rates and slices read it, results never do. */
  nowMs: () => number;
  /** Run `fn` soon, after pending messages (a MessageChannel in a worker, setImmediate in Node). */
  later: (fn: () => void) => void;
  /** Wall time per slice: the longest a "stop" waits to be heard. */
  sliceMs?: number;
  /** At most one progress message per this much wall time. */
  progressEveryMs?: number;
}

export interface ExplorerHost {
  receive: (message: unknown) => void;
  readonly running: boolean;
}

const START_KEYS = ['type', 'setup', 'seed', 'budget', 'horizonMs', 'maxFaults', 'kinds'];

/** The options a start message asks for, or its bad fields. */
function readStart(
  m: Record<string, unknown>,
): { ok: true; options: ExploreOptions } | { ok: false; errors: FieldError[] } {
  const errors: FieldError[] = Object.keys(m)
    .filter((k) => !START_KEYS.includes(k))
    .map((k) => ({ field: k, message: 'unknown field' }));
  const budget = (m.budget ?? {}) as Record<string, unknown>;
  if (typeof budget !== 'object' || budget === null || Array.isArray(budget))
    errors.push({ field: 'budget', message: 'must be an object: { schedules?, ms? }' });
  if (m.kinds !== undefined && !Array.isArray(m.kinds))
    errors.push({ field: 'kinds', message: 'must be an array' });
  if (errors.length) return { ok: false, errors };
  return {
    ok: true,
    options: {
      seed: m.seed as number | undefined,
      budgetSchedules: budget.schedules as number | undefined,
      budgetMs: budget.ms as number | undefined,
      horizonMs: m.horizonMs as number | undefined,
      maxFaults: m.maxFaults as number | undefined,
      kinds: m.kinds as ExplorerFaultKind[] | undefined,
    },
  };
}

export function createExplorerHost(deps: HostDeps): ExplorerHost {
  const sliceMs = deps.sliceMs ?? 50;
  const progressEveryMs = deps.progressEveryMs ?? 200;
  let run: Generator<ExploreStep, ExploreResult> | null = null;
  let stopRequested = false;
  let startedMs = 0;
  let lastProgressMs = 0;

  const fail = (field: string, message: string) => deps.post({ type: 'error', errors: [{ field, message }] });

  function start(m: Record<string, unknown>): void {
    if (run) return fail('type', 'an exploration is running: stop it first');
    const read = readStart(m);
    if (!read.ok) return deps.post({ type: 'error', errors: read.errors });
    const checked = checkExploration(m.setup, read.options);
    if (!checked.ok) return deps.post({ type: 'error', errors: checked.errors });
    stopRequested = false;
    startedMs = deps.nowMs();
    lastProgressMs = startedMs;
    run = exploration(checked.setup, read.options, { nowMs: deps.nowMs, stopped: () => stopRequested });
    deps.later(slice);
  }

  function report(step: ExploreStep): void {
    const now = deps.nowMs();
    const elapsedMs = now - startedMs;
    if (step.type === 'found') {
      deps.post({
        type: 'found',
        scheduleIndex: step.scheduleIndex,
        schedulesTried: step.scheduleIndex + 1,
        experiment: step.experiment,
        violation: step.breach,
        elapsedMs,
      });
      return;
    }
    if (now - lastProgressMs < progressEveryMs) return;
    lastProgressMs = now;
    deps.post(
      step.type === 'tried'
        ? {
            type: 'progress',
            phase: 'search',
            schedulesTried: step.schedulesTried,
            elapsedMs,
            schedulesPerSecond: step.schedulesPerSecond,
          }
        : { type: 'progress', phase: 'shrink', shrinkRuns: step.runs, faults: step.faults, elapsedMs },
    );
  }

  function slice(): void {
    if (!run) return;
    const endMs = deps.nowMs() + sliceMs;
    for (;;) {
      let step: IteratorResult<ExploreStep, ExploreResult>;
      try {
        step = run.next();
      } catch (err) {
        // A throw here is a bug (the setup was checked at the start): say so rather than go quiet.
        run = null;
        fail('(explorer)', (err as Error).message);
        return;
      }
      if (step.done) {
        run = null;
        deps.post({ type: 'done', result: step.value });
        return;
      }
      report(step.value);
      if (deps.nowMs() >= endMs) break;
    }
    deps.later(slice);
  }

  return {
    receive(message: unknown): void {
      const m = (typeof message === 'object' && message !== null ? message : {}) as Record<string, unknown>;
      if (m.type === 'start') start(m);
      else if (m.type === 'stop') stopRequested = true;
      else fail('type', 'must be "start" or "stop"');
    },
    get running() {
      return run !== null;
    },
  };
}
