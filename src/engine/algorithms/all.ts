// Every algorithm's rules at once, for Node (tests, the command line, benchmarks) and the
// explorer's worker, which may run any of them and have no page to wait for.
import { bully } from './bully';
import { etcdElection } from './etcdElection';
import { registerAlgorithm } from './index';
import { k8sLease } from './k8sLease';
import { pacemaker, redisSentinel } from './redisSentinel';
import { ring } from './ring';
import { zookeeper } from './zookeeper';

for (const alg of [k8sLease, etcdElection, zookeeper, redisSentinel, pacemaker, bully, ring])
  registerAlgorithm(alg);
