// A real run as a trace file: the engine's Trace (experiment, events, samples, summary, final)
// plus a `real` section with what only a real run has. The experiment is the run's simulated twin
// (twin.ts), the one the page exports too, so the simulator replays the same commands on the
// same algorithm whichever of the two files it is given; its faults are the commands the
// simulator has an equivalent for.
import type { Fault, Sample, Trace } from '../../engine';
import type { RealFault } from './commands';
import type { RealEvent } from './events';
import type { RunFold } from './fold';
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

/** The engine's fault for a real command, when the simulator has the same fault; else null. */
export function engineFault(f: RealFault, target: string | undefined): Fault | null {
  const part = 'part' in f ? f.part : undefined;
  const node = target ?? ('node' in f ? f.node : undefined);
  switch (f.do) {
    case 'kill':
    case 'restart':
    case 'pause':
    case 'resume':
      // A lab node is one process in the simulator: only the candidate's fault matches it.
      if ((part ?? 'candidate') !== 'candidate' || !node) return null;
      if (f.do === 'pause') {
        return { atMs: f.atMs, do: 'pause', node, ...(f.forMs === undefined ? {} : { forMs: f.forMs }) };
      }
      return { atMs: f.atMs, do: f.do, node };
    case 'isolate':
      return (part ?? 'host') === 'host' && node ? { atMs: f.atMs, do: 'isolate', node } : null;
    case 'partition':
      return { atMs: f.atMs, do: 'partition', groups: f.groups };
    case 'heal':
      return { atMs: f.atMs, do: 'heal' };
    case 'safety':
      return { atMs: f.atMs, do: 'safety', fencing: f.fencing };
  }
}

export function buildTrace(args: {
  settings: RunSettings;
  etcdVersion: string;
  startupMs: number;
  commands: { fault: RealFault; target: string | undefined }[];
  events: RealEvent[];
  samples: Sample[];
  fold: RunFold;
  nowMs: number;
  eventsDropped: number;
}): RealTrace {
  const faults = args.commands.flatMap((c) => engineFault(c.fault, c.target) ?? []);
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
