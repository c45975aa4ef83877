// The registry of election algorithms: the one place an algorithm is registered. The experiment
// schema, the simulation and the page's picker all read their list from here.
import type { ElectionAlgorithm } from '../algorithm';
import { bully } from './bully';
import { etcdElection } from './etcdElection';
import { k8sLease } from './k8sLease';
import { zookeeper } from './zookeeper';
import { raft } from './raft';
import { pacemaker, redisSentinel } from './redisSentinel';
import { ring } from './ring';

export const ALGORITHMS = {
  raft,
  'k8s-lease': k8sLease,
  'etcd-election': etcdElection,
  zookeeper,
  'redis-sentinel': redisSentinel,
  pacemaker,
  bully,
  ring,
} satisfies Record<string, ElectionAlgorithm>;

export type AlgorithmKind = keyof typeof ALGORITHMS;

/** Every kind, in the picker's order (the first is the default). */
export const ALGORITHM_KINDS = Object.keys(ALGORITHMS) as [AlgorithmKind, ...AlgorithmKind[]];

export const DEFAULT_ALGORITHM: AlgorithmKind = 'raft';

export function algorithmFor(kind: AlgorithmKind | undefined): ElectionAlgorithm {
  return ALGORITHMS[kind ?? DEFAULT_ALGORITHM];
}
