// A real run as a trace file: the engine's Trace plus a `real` section of real-only data. The experiment is
// the run's simulated twin (twin.ts), as the page exports, so the simulator replays the same commands and
// algorithm from either file; its faults are the commands that did something (faultOf).
import type { Sample, Trace } from '../../engine';
import type { RealFault } from './commands';
import type { RealEvent } from './events';
import { replayedFault, type RunFold } from './fold';
import type { RunSettings } from './settings';
import { twinExperiment } from './twin';

export interface RealTrace extends Omit<Trace, 'events'> {
  events: RealEvent[];
  real: {
    settings: RunSettings;
    etcdVersion: string;
    startupMs: number;
    /** Every command applied, with the part of the host it hit. */
    commands: RealFault[];
  };
}

export function buildTrace(args: {
  settings: RunSettings;
  etcdVersion: string;
  startupMs: number;
  commands: { fault: RealFault; target: string | undefined; skipped?: boolean }[];
  events: RealEvent[];
  samples: Sample[];
  fold: RunFold;
  nowMs: number;
  eventsDropped: number;
}): RealTrace {
  const faults = args.commands.flatMap((c) => replayedFault(c) ?? []);
  return {
    experiment: twinExperiment(args.settings, { faults, untilMs: args.nowMs }),
    events: args.events,
    samples: args.samples,
    summary: args.fold.summary(args.nowMs, args.eventsDropped),
    final: args.fold.final(),
    real: {
      settings: args.settings,
      etcdVersion: args.etcdVersion,
      startupMs: args.startupMs,
      commands: args.commands.map((c) => c.fault),
    },
  };
}
