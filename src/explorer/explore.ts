// The failure explorer: search random fault schedules for one that breaks an invariant, shrink what it finds,
// caption it. `exploration` is the whole job as a generator yielding after every run, so its driver decides
// when to report progress and when to stop: `explore` below runs it to the end in one call (tests,
// benchmarks), the message host (protocol.ts) in slices, leaving a worker or the CLI free to hear "stop".
import { Simulation, type Experiment, type FieldError, type Violation } from '../engine';
import { caption } from './caption';
import { scheduleAt } from './generate';
import { firstBreach, type Breach } from './leanRun';
import { withSchedule, type ExplorerFault, type Schedule } from './schedule';
import { shrink } from './shrink';
import { faultSpace, GRID_MS, type FaultSpace, type SpaceOptions } from './space';

export const DEFAULT_BUDGET_SCHEDULES = 5000;
export const DEFAULT_BUDGET_MS = 60_000;
/** Shrinking takes a few hundred runs; this bounds a pathological one. */
export const DEFAULT_SHRINK_MAX_RUNS = 5000;

export interface ExploreOptions extends SpaceOptions {
  /** The search's seed (default: the setup's own): the same seed gives the same schedules, in order. */
  seed?: number;
  /** Stop after this many schedules... */
  budgetSchedules?: number;
  /** ...or after this much wall time, whichever comes first. */
  budgetMs?: number;
  shrinkMaxRuns?: number;
}

/** What the driver supplies: a wall clock (only budgets and rates read it) and a stop flag. */
export interface ExploreControl {
  nowMs: () => number;
  stopped: () => boolean;
}

export interface Finding {
  /** A normal experiment: the setup with the minimal schedule's faults, run to its horizon. */
  experiment: Experiment;
  /** The explorer's faults in it (the setup's own faults are not counted or shrunk). */
  faults: ExplorerFault[];
  /** The first violation of its run, as the summary reports it. */
  violation: Violation;
  caption: string;
  /** Every fault checked to matter; false when shrinking was stopped or ran out of runs. */
  minimal: boolean;
  /** Which schedule of the search broke first: with the seed, it reproduces the search. */
  scheduleIndex: number;
  /** The schedule as found, before shrinking. */
  found: { faults: number; horizonMs: number; experiment: Experiment };
  shrinkRuns: number;
  shrinkMs: number;
}

export interface ExploreResult {
  outcome: 'found' | 'nothing' | 'stopped';
  seed: number;
  schedulesTried: number;
  /** Wall time of the search, shrinking not included. */
  searchMs: number;
  schedulesPerSecond: number;
  finding: Finding | null;
}

/** What the generator yields: a schedule tried, a failure found, a shrinking run done. */
export type ExploreStep =
  | { type: 'tried'; schedulesTried: number; searchMs: number; schedulesPerSecond: number }
  | { type: 'found'; scheduleIndex: number; experiment: Experiment; breach: Breach; searchMs: number }
  | { type: 'shrinking'; runs: number; faults: number };

/** The search's counts, and the fault space's horizon and fault count, with their bounds. */
const COUNTS = [
  ['seed', 0, 4294967295],
  ['budgetSchedules', 1, 1e9],
  ['budgetMs', 1, 1e9],
  ['shrinkMaxRuns', 1, 1e9],
  ['horizonMs', GRID_MS, 86_400_000],
  ['maxFaults', 1, 100],
] as const;

/** The setup and options checked together: the parsed setup or every bad field (space.ts checks faults). */
export function checkExploration(
  setupInput: unknown,
  options: ExploreOptions,
): { ok: true; setup: Experiment } | { ok: false; errors: FieldError[] } {
  const space = faultSpace(setupInput, options);
  const errors = space.ok ? [] : [...space.errors];
  for (const [field, min, max] of COUNTS) {
    const v = options[field];
    if (v !== undefined && !(Number.isInteger(v) && v >= min && v <= max))
      errors.push({ field, message: `must be an integer from ${min} to ${max}` });
  }
  return space.ok && errors.length === 0 ? { ok: true, setup: space.setup } : { ok: false, errors };
}

/** How many schedules were tried in how much wall time, and the rate. */
const counts = (schedulesTried: number, searchMs: number) => ({
  schedulesTried,
  searchMs,
  schedulesPerSecond: searchMs > 0 ? (schedulesTried * 1000) / searchMs : 0,
});

export function* exploration(
  setup: Experiment,
  options: ExploreOptions,
  control: ExploreControl,
): Generator<ExploreStep, ExploreResult> {
  const built = faultSpace(setup, options);
  if (!built.ok) throw new Error(`invalid exploration: ${built.errors.map((e) => e.field).join(', ')}`);
  const space = built.space;
  const seed = options.seed ?? setup.seed;
  const budgetSchedules = options.budgetSchedules ?? DEFAULT_BUDGET_SCHEDULES;
  const budgetMs = options.budgetMs ?? DEFAULT_BUDGET_MS;
  const startMs = control.nowMs();
  const result = (outcome: ExploreResult['outcome'], tried: number, searchMs: number) => ({
    outcome,
    seed,
    ...counts(tried, searchMs),
    finding: null,
  });

  for (let index = 0; index < budgetSchedules; index++) {
    const searchMs = control.nowMs() - startMs;
    if (searchMs >= budgetMs) return result('nothing', index, searchMs);
    if (control.stopped()) return result('stopped', index, searchMs);
    const schedule = scheduleAt(space, seed, index);
    const experiment = withSchedule(setup, schedule);
    const breach = firstBreach(experiment);
    const nowMs = control.nowMs() - startMs;
    if (breach) {
      yield { type: 'found', scheduleIndex: index, experiment, breach, searchMs: nowMs };
      const finding = yield* shrinkFinding(setup, schedule, breach, index, options, space, control);
      return { ...result('found', index + 1, nowMs), finding };
    }
    yield { type: 'tried', ...counts(index + 1, nowMs) };
  }
  return result('nothing', budgetSchedules, control.nowMs() - startMs);
}

function* shrinkFinding(
  setup: Experiment,
  schedule: Schedule,
  breach: Breach,
  index: number,
  options: ExploreOptions,
  space: FaultSpace,
  control: ExploreControl,
): Generator<ExploreStep, Finding> {
  const startMs = control.nowMs();
  const check = (faults: ExplorerFault[]) =>
    firstBreach(withSchedule(setup, { horizonMs: schedule.horizonMs, faults }));
  const shrunk = yield* shrink(schedule, breach, check, {
    clockRates: space.clockRates,
    maxRuns: options.shrinkMaxRuns ?? DEFAULT_SHRINK_MAX_RUNS,
    stopped: control.stopped,
  });
  return {
    ...describeSchedule(setup, shrunk.schedule),
    minimal: shrunk.minimal,
    scheduleIndex: index,
    found: {
      faults: schedule.faults.length,
      horizonMs: schedule.horizonMs,
      experiment: withSchedule(setup, schedule),
    },
    shrinkRuns: shrunk.runs,
    shrinkMs: control.nowMs() - startMs,
  };
}

/** The full run of a schedule: the experiment as it opens in the lab, its first violation, its caption. */
export function describeSchedule(
  setup: Experiment,
  schedule: Schedule,
): Pick<Finding, 'experiment' | 'faults' | 'violation' | 'caption'> {
  const experiment = withSchedule(setup, schedule);
  const sim = new Simulation(experiment);
  sim.runUntil(experiment.untilMs);
  const trace = sim.trace();
  const violation = trace.summary.violations[0];
  if (!violation) throw new Error('the shrunk schedule no longer breaks an invariant in a full run');
  return {
    experiment: sim.experiment,
    faults: schedule.faults,
    violation,
    caption: caption({
      trace,
      faults: schedule.faults,
      algorithmTitle: sim.algorithm.title,
      epochWord: sim.algorithm.words.epoch,
      services: sim.algorithm.services,
    }),
  };
}

export interface ExploreHooks {
  nowMs?: () => number;
  stopped?: () => boolean;
  onStep?: (step: ExploreStep) => void;
}

/** Run an exploration to its end in one call; the setup's errors come back named, nothing thrown. */
export function explore(
  setupInput: unknown,
  options: ExploreOptions = {},
  hooks: ExploreHooks = {},
): { ok: true; result: ExploreResult } | { ok: false; errors: FieldError[] } {
  const checked = checkExploration(setupInput, options);
  if (!checked.ok) return checked;
  const control = {
    nowMs: hooks.nowMs ?? (() => performance.now()),
    stopped: hooks.stopped ?? (() => false),
  };
  const run = exploration(checked.setup, options, control);
  for (let step = run.next(); ; step = run.next()) {
    if (step.done) return { ok: true, result: step.value };
    hooks.onStep?.(step.value);
  }
}
