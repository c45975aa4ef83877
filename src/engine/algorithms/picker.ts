// What the Setup picker says of every algorithm before any has loaded. Only the picker reads this, so
// it loads with the Setup panel's chunk, not every page and embed. A kind missing here does not compile.
import { algorithmFor, type AlgorithmKind } from './index';

/** What the picker says of an algorithm beside its name and how it elects (info.ts). */
export interface AlgorithmChoice {
  summary: string;
  /**
   * Safe under a partition when, by the system's own means, storage never takes an old leader's write
   * after a new one's (tests/unit/partition-claims.test.ts checks every algorithm).
   */
  partition: { safe: boolean; why: string };
}

const EACH_SIDE = { safe: false, why: 'each side elects its own, and storage takes both' };

export const ALGORITHM_CHOICES: Record<AlgorithmKind, AlgorithmChoice> = {
  raft: {
    summary:
      "Raft's election as etcd runs it: randomized timeouts, a majority of votes per term, PreVote and CheckQuorum.",
    partition: { safe: true, why: 'only a side with a majority of the nodes elects' },
  },
  'k8s-lease': {
    summary:
      "client-go's leader election: replicas race for a Lease in the API server (backed by a 3-member etcd), renewing every RetryPeriod within RenewDeadline; a challenger waits LeaseDuration on its own clock.",
    partition: {
      safe: true,
      why: "a replica cut off from the API server stops acting at RenewDeadline, and etcd's majority lets one take the Lease",
    },
  },
  'etcd-election': {
    summary:
      "etcd's election API: sessions are leases kept alive about every TTL/3; the key with the lowest create revision leads, and that revision is the token.",
    partition: { safe: true, why: "a session cut off from etcd's majority expires before another key leads" },
  },
  zookeeper: {
    summary:
      "ZooKeeper's recipe: ephemeral sequential znodes under /election, the lowest leads, each other candidate watching its predecessor; a session the ensemble stops hearing from expires.",
    partition: {
      safe: true,
      why: "a session cut off from the ensemble's majority expires before another znode leads",
    },
  },
  'redis-sentinel': {
    summary:
      'Redis Sentinel: a quorum of sentinels agrees the primary is down, a majority of them elects one to promote the replica with the most data; no fencing token, so an isolated old primary loses its writes when it rejoins.',
    partition: { safe: false, why: 'a cut-off primary keeps taking writes, and loses them when it rejoins' },
  },
  pacemaker: {
    summary:
      'Pacemaker with STONITH: when the primary is lost, the cluster powers it off through a fence device and promotes a replica only once the power-off is confirmed; unconfirmed, it waits.',
    partition: { safe: true, why: 'a replica is promoted only once the old primary is confirmed off' },
  },
  bully: {
    summary:
      'Garcia-Molina (1982): the highest reachable id wins; ELECTION to higher ids, OK answers, COORDINATOR to all. No quorum.',
    partition: EACH_SIDE,
  },
  ring: {
    summary:
      'Chang and Roberts (1979): ELECTION travels a logical ring collecting ids, skipping a successor that does not answer; the highest id is announced COORDINATOR. No quorum.',
    partition: EACH_SIDE,
  },
};

/** The picker's line for an algorithm: what elects, and whether a partition is safe. */
export function pickerLine(kind: AlgorithmKind): { what: string; partition: string; safe: boolean } {
  const { safe, why } = ALGORITHM_CHOICES[kind].partition;
  return {
    what: algorithmFor(kind).elects,
    partition: `${safe ? 'Safe' : 'Not safe'} under a partition: ${why}`,
    safe,
  };
}
