// A real run's simulated twin: the experiment the simulator runs for the same settings. The real candidates
// run etcd's election recipe (src/real/candidate: a session lease kept alive every TTL/3, a key under the
// election prefix, the lowest create revision leads and is the token): the engine's etcd-election, not a
// Kubernetes Lease. Declared once, for the trace file, the page, the fold's monitor and the fidelity tool.
import { normalizeExperiment, type AlgorithmKind, type Experiment, type Fault } from '../../engine';
import type { RunSettings } from './settings';

export const TWIN_ALGORITHM = 'etcd-election' satisfies AlgorithmKind;

/** Loopback plus etcd's write before answering, a ms or two (the engine's default 2-10 ms is a LAN's). */
export const LOOPBACK_NETWORK = { delayMsMin: 1, delayMsMax: 3 };

/**
 * The twin of a run with these settings: the same node count, session TTL, renew deadline, warm-up, write
 * loop, fencing, sampling and bounds, on loopback; `faults` are the commands the simulator replays.
 */
export function twinExperiment(
  s: RunSettings,
  opts: { faults?: Fault[]; untilMs?: number; seed?: number } = {},
): Experiment {
  return normalizeExperiment({
    algorithm: TWIN_ALGORITHM,
    ...(opts.seed === undefined ? {} : { seed: opts.seed }),
    nodes: s.nodes,
    etcd: { ttlMs: s.ttlMs, renewDeadlineMs: s.renewDeadlineMs ?? 0 },
    network: LOOPBACK_NETWORK,
    warmUpMs: s.warmUpMs,
    safety: { fencing: s.fencing },
    workload: { leaderWriteEveryMs: s.writeEveryMs, clients: 0 },
    faults: opts.faults ?? [],
    untilMs: Math.max(0, Math.round(opts.untilMs ?? 0)),
    sampleEveryMs: s.sampleEveryMs,
    limits: { maxEvents: Math.max(100, s.maxEvents), maxSamples: Math.max(100, s.maxSamples) },
  });
}
