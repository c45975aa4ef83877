// A real run as a trace file: the engine's Trace (experiment, events, samples, summary, final)
// plus a `real` section with what only a real run has. The experiment holds the engine's
// closest parameters, so the simulator can replay the same commands (the fidelity comparison);
// its faults are the commands the simulator has an equivalent for.
import { normalizeExperiment, type Experiment, type Fault, type Sample, type Trace } from '../../engine';
import type { RealFault } from './commands';
import type { RealEvent } from './events';
import type { RunFold } from './fold';
import { keepAliveEveryMs, type RunSettings } from './settings';

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

export function experimentOf(s: RunSettings, faults: Fault[], untilMs: number): Experiment {
  const retryPeriodMs = keepAliveEveryMs(s);
  // The closest simulated algorithm to a session lease kept alive against etcd: a lease renewed
  // every keep-alive period. (etcd's members run their own Raft; pre-vote is in the run's settings.)
  return normalizeExperiment({
    algorithm: 'k8s-lease',
    nodes: s.nodes,
    lease: {
      durationMs: s.ttlMs,
      // Without a renew deadline the session's own end (no answer for a whole TTL) is the
      // deadline; the engine needs it below the lease, so 1 ms below.
      renewDeadlineMs: s.renewDeadlineMs ?? s.ttlMs - 1,
      retryPeriodMs,
    },
    network: { delayMsMin: 0, delayMsMax: 1 },
    warmUpMs: s.warmUpMs,
    safety: { fencing: s.fencing, followersReject: true },
    workload: { leaderWriteEveryMs: s.writeEveryMs, clients: 0 },
    faults,
    untilMs: Math.max(0, Math.round(untilMs)),
    sampleEveryMs: s.sampleEveryMs,
    limits: { maxEvents: Math.max(100, s.maxEvents), maxSamples: Math.max(100, s.maxSamples) },
  });
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
    experiment: experimentOf(args.settings, faults, args.nowMs),
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
