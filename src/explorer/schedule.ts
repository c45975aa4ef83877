// A fault schedule: the faults the explorer adds to a setup (an experiment, left as it is), and the horizon
// it runs them over, so a search's result is a normal experiment that opens, replays and shares like any.
import type { Experiment, Fault } from '../engine';

/**
 * The fault kinds the explorer draws: what a real cluster suffers (crashes, pauses, partitions, clock drift)
 * and what operators do (a stop, a campaign, a transfer). Never a safety switch (under test) nor a write.
 */
export const EXPLORER_FAULT_KINDS = [
  'kill',
  'stop',
  'restart',
  'pause',
  'resume',
  'partition',
  'heal',
  'isolate',
  'clockRate',
  'campaign',
] as const;
export type ExplorerFaultKind = (typeof EXPLORER_FAULT_KINDS)[number];
export type ExplorerFault = Extract<Fault, { do: ExplorerFaultKind }>;

export interface Schedule {
  /** Simulated time to run, in ms: the experiment's untilMs. */
  horizonMs: number;
  /** The explorer's faults, in order of atMs (ties keep their order). */
  faults: ExplorerFault[];
}

/** Faults in time order; faults at the same ms keep their relative order, as the engine applies them. */
export function byTime<F extends { atMs: number }>(faults: readonly F[]): F[] {
  return faults
    .map((f, i) => ({ f, i }))
    .sort((a, b) => a.f.atMs - b.f.atMs || a.i - b.i)
    .map((x) => x.f);
}

/** The experiment a schedule makes of a setup: its faults, then the schedule's, run to the horizon. */
export function withSchedule(setup: Experiment, schedule: Schedule): Experiment {
  return {
    ...setup,
    faults: byTime<Fault>([...setup.faults, ...schedule.faults]),
    untilMs: schedule.horizonMs,
  };
}
