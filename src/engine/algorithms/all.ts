// Every algorithm's rules at once, for Node (tests, the command line, benchmarks) and the explorer's
// worker, which may run any and have no page to wait for. A kind missing here does not compile.
import type { ElectionAlgorithm } from '../algorithm';
import { bully } from './bully';
import { etcdElection } from './etcdElection';
import { registerAlgorithm, type AlgorithmKind } from './index';
import { k8sLease } from './k8sLease';
import { raft } from './raft';
import { pacemaker, redisSentinel } from './redisSentinel';
import { ring } from './ring';
import { zookeeper } from './zookeeper';

const ALL: Record<AlgorithmKind, ElectionAlgorithm> = {
  raft,
  'k8s-lease': k8sLease,
  'etcd-election': etcdElection,
  zookeeper,
  'redis-sentinel': redisSentinel,
  pacemaker,
  bully,
  ring,
};

for (const alg of Object.values(ALL)) registerAlgorithm(alg);
