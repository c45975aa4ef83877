// Guided mode: narration over a live lab. Each step highlights what to watch, waits for its condition (over
// the lab's snapshot and the events since the step began), then pauses for the reader; replay or skip.
import { createStore, type StoreApi } from 'zustand/vanilla';
import { nextCheckMs, watchCondition, type ConditionRun } from '../scenario/conditions';
import { DEFAULT_STEP_TIMEOUT_MS } from '../scenario/run';
import { summarizeRun } from '../scenario/summary';
import type { Scenario } from '../scenario/types';
import type { AdvanceLimit, LabStore } from './labStore';

export interface GuidedState {
  scenario: Scenario;
  step: number;
  stepStartMs: number;
  status: 'waiting' | 'met' | 'timeout' | 'done';
  /** Start time of every step reached so far, for Previous / Replay. */
  starts: { atMs: number; event: number }[];
  summary: string;
}

export interface GuidedActions {
  next(): void;
  previous(): void;
  replay(): void;
  skip(): void;
  goTo(step: number): void;
}

export type GuidedStore = StoreApi<GuidedState & GuidedActions> & {
  /** Start following the lab; returns the function that stops it (call from an effect). */
  attach(): () => void;
};

/** Skip's least advance: it checks where the headless runner does (nextCheckMs), and stops there too. */
const MIN_SKIP_MS = 1;

export function createGuidedStore(lab: LabStore, scenario: Scenario): GuidedStore {
  // Declared before the closures that read it; assigned once, right below them.
  // eslint-disable-next-line prefer-const
  let store: GuidedStore;
  /** The current step's condition, read incrementally (made anew when a step begins). */
  let watch: ((run: ConditionRun) => boolean) | null = null;
  const watchStep = (step: number, atMs: number, event: number) => {
    const until = scenario.steps[step].until;
    watch = until ? watchCondition(until, atMs, event) : null;
  };
  watchStep(0, 0, 0);
  const deadlineOf = (g: GuidedState) =>
    g.stepStartMs + (scenario.steps[g.step].timeoutMs ?? DEFAULT_STEP_TIMEOUT_MS);
  /** Whether the current step is over at the run's moment: its condition holds, or its time is up. */
  const over = (run: ConditionRun): 'met' | 'timeout' | null => {
    const g = store.getState();
    if (g.status !== 'waiting') return null;
    if (!watch || watch(run)) return 'met';
    return run.nowMs >= deadlineOf(g) ? 'timeout' : null;
  };
  const evaluate = (): boolean => {
    const status = over(lab.backend());
    if (status) finishStep(status);
    return status !== null;
  };
  /** Stop where the step ends, checked at runStep's moments: at any speed where `npm run scenario` does. */
  const limit: AdvanceLimit = {
    nextCheckMs: (nowMs) => {
      const g = store.getState();
      const until = scenario.steps[g.step].until;
      if (g.status !== 'waiting' || !until) return Infinity;
      return Math.min(deadlineOf(g), nextCheckMs(until, nowMs, g.stepStartMs));
    },
    reached: (run) => over(run) !== null,
  };
  const finishStep = (status: 'met' | 'timeout') => {
    const g = store.getState();
    const last = g.step === scenario.steps.length - 1;
    // The summary measures the whole run, 0 to the scenario's end, replayed headless with the commands
    // issued: not up to the frame the last step happened to be noticed in, so page and headless runner agree.
    const run = lab.backend();
    const untilMs = Math.max(run.experiment.untilMs, lab.frame().nowMs);
    store.setState({
      status: last ? 'done' : status,
      summary: last ? summarizeRun(run.traceUntil(untilMs)) : '',
    });
    // Wait for the reader (status first, so the pause's own store update does not re-evaluate this step).
    lab.getState().pause();
  };
  const begin = (step: number) => {
    const starts = store.getState().starts.slice(0, step);
    starts[step] = { atMs: lab.frame().nowMs, event: lab.backend().eventsTotal };
    watchStep(step, starts[step].atMs, starts[step].event);
    store.setState({ step, stepStartMs: starts[step].atMs, status: 'waiting', starts, summary: '' });
    if (!evaluate()) lab.getState().play();
  };
  /** Back to where a step reached before began (the run's start for the first), and begin it again. */
  const beginAgain = (step: number) => {
    lab.getState().seek(store.getState().starts[step]?.atMs ?? 0);
    begin(step);
  };
  const fastForward = () => {
    // Run the lab forward until the current step's condition holds, without waiting on frames.
    for (let guard = 0; guard < 100_000 && store.getState().status === 'waiting'; guard++) {
      const g = store.getState();
      const step = scenario.steps[g.step];
      const now = lab.frame().nowMs;
      const next = step.until ? nextCheckMs(step.until, now, g.stepStartMs) : now;
      lab.getState().advanceBy(Math.max(MIN_SKIP_MS, next - now));
      evaluate();
    }
  };

  const api = createStore<GuidedState & GuidedActions>()(() => ({
    scenario,
    step: 0,
    stepStartMs: 0,
    status: 'waiting',
    starts: [{ atMs: 0, event: 0 }],
    summary: '',
    next: () => {
      const g = store.getState();
      if (g.step < scenario.steps.length - 1) begin(g.step + 1);
    },
    // Always the step before, done or not: a short done step would be done again at once if Previous replayed
    // it, and a clicker could never get past it. Replaying the current step is Replay's job.
    previous: () => beginAgain(Math.max(0, store.getState().step - 1)),
    replay: () => beginAgain(store.getState().step),
    skip: () => fastForward(),
    goTo: (target) => {
      const t = Math.max(0, Math.min(scenario.steps.length - 1, Math.floor(target)));
      beginAgain(0);
      while (store.getState().step < t) {
        fastForward();
        begin(store.getState().step + 1);
      }
    },
  }));
  // The store with its attach: typed as a whole, so a missing member does not compile.
  store = Object.assign(api, {
    attach: () => {
      evaluate();
      lab.setAdvanceLimit(limit);
      const stop = lab.onFrame(() => evaluate());
      return () => {
        stop();
        lab.setAdvanceLimit(null);
      };
    },
  });
  return store;
}
