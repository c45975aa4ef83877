// Run a scenario headless: the same steps and conditions the guided mode uses in the page.
import { Simulation, type Trace } from '../engine';
import { nextCheckMs, watchCondition } from './conditions';
import type { Scenario } from './types';
import { summarizeRun } from './summary';
import { checkClaims, claimCount, fillCaption, unknownPlaceholders, type ClaimMismatch } from './claims';

export const DEFAULT_STEP_TIMEOUT_MS = 120_000;

export interface StepResult {
  index: number;
  startedAtMs: number;
  endedAtMs: number;
  /** False when the step gave up at its timeout rather than seeing its condition. */
  met: boolean;
  /** The caption as the reader sees it at the pause, its numbers filled from the run. */
  caption: string;
  /** How many facts the step's claims state, and those that do not hold at the pause. */
  claimsChecked: number;
  claimsFailed: ClaimMismatch[];
  /** Placeholders in the caption with no value at the pause (a typo, or a phase not yet measured). */
  unfilled: string[];
}

export interface ScenarioRun {
  steps: StepResult[];
  trace: Trace;
  summary: string;
}

/** Advance `sim` until the step's condition holds (or its timeout); returns whether it was met. */
export function runStep(sim: Simulation, step: Scenario['steps'][number], limitMs: number): boolean {
  const start = sim.nowMs;
  const cond = step.until;
  if (!cond) return true;
  const deadline = Math.min(limitMs, start + (step.timeoutMs ?? DEFAULT_STEP_TIMEOUT_MS));
  const met = watchCondition(cond, start, sim.eventsTotal);
  for (;;) {
    if (met(sim)) return true;
    if (sim.nowMs >= deadline) return false;
    const next = Math.min(deadline, nextCheckMs(cond, sim.nowMs, start));
    sim.runUntil(next > sim.nowMs ? next : sim.nowMs + 1);
  }
}

export function runScenario(scenario: Scenario): ScenarioRun {
  const sim = new Simulation(scenario.experiment);
  const limit = sim.experiment.untilMs;
  const steps: StepResult[] = [];
  scenario.steps.forEach((step, index) => {
    const startedAtMs = sim.nowMs;
    const met = runStep(sim, step, limit);
    const pause = sim.snapshot();
    steps.push({
      index,
      startedAtMs,
      endedAtMs: sim.nowMs,
      met,
      caption: fillCaption(step.caption, pause),
      claimsChecked: claimCount(step.claims, pause),
      claimsFailed: checkClaims(step.claims, pause),
      unfilled: unknownPlaceholders(step.caption, pause),
    });
  });
  sim.runUntil(limit);
  const trace = sim.trace();
  return { steps, trace, summary: summarizeRun(trace) };
}
