// The chain's second step, in the words of the run's algorithm: what the leader holds and how it
// keeps it (a Kubernetes Lease, an etcd or ZooKeeper session, Raft's heartbeats), or that nothing
// expires (Bully, the Ring).
import type { Experiment } from '../../src/engine';
import { formatSpan } from './chainModel';

export interface HoldStep {
  title: string;
  short: string;
  text: string;
  /** Whether the lease ring (a Kubernetes lease's dial) belongs under it. */
  ring: boolean;
}

export function holdStep(e: Experiment): HoldStep {
  if (e.lease) {
    return {
      title: 'Leader holds a lease',
      short: 'Lease',
      text: `TTL ${formatSpan(e.lease.durationMs)}, renew every ${formatSpan(e.lease.retryPeriodMs)}`,
      ring: true,
    };
  }
  if (e.raft) {
    const et = e.raft.electionTimeoutMs;
    return {
      title: 'Leader heartbeats',
      short: 'Heartbeats',
      text: `every ${formatSpan(e.raft.heartbeatMs)}; followers wait ${formatSpan(et)}-${formatSpan(2 * et)}`,
      ring: false,
    };
  }
  if (e.etcd) {
    return {
      title: 'Leader holds a session',
      short: 'Session',
      text: `lease TTL ${formatSpan(e.etcd.ttlMs)}, kept alive every ${formatSpan(Math.floor(e.etcd.ttlMs / 3))}`,
      ring: false,
    };
  }
  if (e.zookeeper) {
    const t = e.zookeeper.sessionTimeoutMs;
    return {
      title: 'Leader holds a session',
      short: 'Session',
      text: `timeout ${formatSpan(t)}, pinged every ${formatSpan(Math.floor(t / 3))}`,
      ring: false,
    };
  }
  if (e.sentinel) {
    return {
      title: 'Sentinels watch the primary',
      short: 'Sentinels watch',
      text: `pinged every 1 s, down after ${formatSpan(e.sentinel.downAfterMs)} without a reply; no lease: a cut-off primary acts until it is told`,
      ring: false,
    };
  }
  if (e.stonith) {
    return {
      title: 'Membership watches the primary',
      short: 'Membership',
      text: `lost after ${formatSpan(e.stonith.tokenMs)} unheard; powered off before anyone is promoted`,
      ring: false,
    };
  }
  return {
    title: 'No lease',
    short: 'No lease',
    text: 'The coordinator leads until it is deposed: nothing expires.',
    ring: false,
  };
}

export interface Expiry {
  /** What runs out when the leader goes quiet, with its span: "15 s lease", "5 s election timeout". */
  what: string;
  /** How the leader keeps it: "renews its lease every 2 s". */
  keep: string;
  /** Its span (ms). */
  ms: number;
}

/** What the others wait out before they replace a silent leader, in the algorithm's words. */
export function expiry(e: Experiment): Expiry {
  if (e.lease)
    return {
      ms: e.lease.durationMs,
      what: `${formatSpan(e.lease.durationMs)} lease`,
      keep: `renews its lease every ${formatSpan(e.lease.retryPeriodMs)}`,
    };
  if (e.raft)
    return {
      ms: e.raft.electionTimeoutMs,
      what: `${formatSpan(e.raft.electionTimeoutMs)} election timeout`,
      keep: `sends heartbeats every ${formatSpan(e.raft.heartbeatMs)}`,
    };
  if (e.etcd)
    return {
      ms: e.etcd.ttlMs,
      what: `${formatSpan(e.etcd.ttlMs)} session lease`,
      keep: `keeps its session alive every ${formatSpan(Math.floor(e.etcd.ttlMs / 3))}`,
    };
  if (e.zookeeper)
    return {
      ms: e.zookeeper.sessionTimeoutMs,
      what: `${formatSpan(e.zookeeper.sessionTimeoutMs)} session timeout`,
      keep: `pings the ensemble every ${formatSpan(Math.floor(e.zookeeper.sessionTimeoutMs / 3))}`,
    };
  if (e.sentinel)
    return {
      ms: e.sentinel.downAfterMs,
      what: `${formatSpan(e.sentinel.downAfterMs)} down-after`,
      keep: 'answers the sentinels every 1 s',
    };
  if (e.stonith)
    return {
      ms: e.stonith.tokenMs,
      what: `${formatSpan(e.stonith.tokenMs)} membership token`,
      keep: 'answers the cluster every 1 s',
    };
  const t = e.bully ?? e.ring;
  return {
    ms: t?.timeoutMs ?? 0,
    what: `${formatSpan(t?.timeoutMs ?? 0)} coordinator timeout`,
    keep: `sends heartbeats every ${formatSpan(t?.heartbeatMs ?? 0)}`,
  };
}
