// What every part of the lab knows of an algorithm without running it: its name, words, message
// kinds, settings and services. The page loads this with its first screen; an algorithm's rules
// (the module beside this one) load only when a run uses it (index.ts loadAlgorithm).
import type { AlgorithmInfo, MessageKindInfo } from '../algorithm';
import type { ServiceSpec } from '../core';
import type { Experiment } from '../experiment';

// Redis's message kinds, which Pacemaker's model shares (its observers ask the same questions).
const REDIS_MESSAGES: readonly MessageKindInfo[] = [
  { type: 'sentinelPing', label: 'sentinel PING', family: 'heartbeat', election: false },
  { type: 'sentinelPong', label: 'PONG (role, offset)', family: 'ack', election: false },
  { type: 'isMasterDown', label: 'is-master-down-by-addr', family: 'request', election: true },
  { type: 'isMasterDownReply', label: 'down? / vote', family: 'grant', election: true },
  { type: 'sentinelHello', label: 'sentinel hello (config)', family: 'announce', election: false },
  { type: 'replicaOf', label: 'REPLICAOF', family: 'announce', election: true },
  { type: 'replicate', label: 'replication stream', family: 'write', election: false },
  { type: 'replAck', label: 'REPLCONF ACK', family: 'ack', election: false },
];

/** A service's three members: `m1`..`m3` labelled "etcd m1".."etcd m3", and the like. */
const threeOf = (id: string, kind: string, label: string): ServiceSpec[] =>
  [1, 2, 3].map((i) => ({ id: `${id}${i}`, kind, label: `${label} ${id}${i}` }));

export const ALGORITHM_INFO = {
  raft: {
    kind: 'raft',
    title: 'Raft',
    summary:
      "Raft's election as etcd runs it: randomized timeouts, a majority of votes per term, PreVote and CheckQuorum.",
    words: { epoch: 'term', leader: 'leader', election: 'election' },
    messages: [
      { type: 'preVote', label: 'pre-vote request', family: 'request', election: true },
      { type: 'preVoteReply', label: 'pre-vote', family: 'grant', election: true },
      { type: 'requestVote', label: 'vote request', family: 'request', election: true },
      { type: 'vote', label: 'vote', family: 'grant', election: true },
      { type: 'heartbeat', label: 'heartbeat', family: 'heartbeat', election: false },
      { type: 'ack', label: 'heartbeat response', family: 'ack', election: false },
    ],
    hasQuorum: true,
    settings: ['witness', 'raft', 'safety.quorum', 'safety.fencing', 'safety.preVote', 'safety.checkQuorum'],
  },
  'k8s-lease': {
    kind: 'k8s-lease',
    title: 'Kubernetes Lease',
    summary:
      "client-go's leader election: replicas race for a Lease in the API server (backed by a 3-member etcd), renewing every RetryPeriod within RenewDeadline; a challenger waits LeaseDuration on its own clock.",
    words: { epoch: 'leaderTransitions', leader: 'holder', election: 'acquisition' },
    messages: [
      { type: 'leaseGet', label: 'get Lease', family: 'request', election: false },
      { type: 'leaseUpdate', label: 'update Lease', family: 'request', election: false },
      { type: 'leaseReply', label: 'Lease reply', family: 'grant', election: false },
      { type: 'storeOp', label: 'store write', family: 'heartbeat', election: false },
      { type: 'storeAck', label: 'store ack', family: 'ack', election: false },
    ],
    hasQuorum: true,
    settings: ['lease', 'safety.fencing'],
    services: [{ id: 'api', kind: 'apiServer', label: 'API server' }, ...threeOf('m', 'storeMember', 'etcd')],
  },
  'etcd-election': {
    kind: 'etcd-election',
    title: 'etcd election',
    summary:
      "etcd's election API: sessions are leases kept alive about every TTL/3; the key with the lowest create revision leads, and that revision is the token.",
    words: { epoch: 'revision', leader: 'leader', election: 'campaign' },
    messages: [
      { type: 'etcdRequest', label: 'etcd request', family: 'request', election: false },
      { type: 'etcdReply', label: 'etcd reply', family: 'grant', election: false },
      { type: 'sessionKeepAlive', label: 'lease keep-alive', family: 'heartbeat', election: false },
      { type: 'watchEvent', label: 'watch: key deleted', family: 'announce', election: false },
      { type: 'storeOp', label: 'member proposal', family: 'heartbeat', election: false },
      { type: 'storeAck', label: 'member ack', family: 'ack', election: false },
    ],
    hasQuorum: true,
    settings: ['etcd', 'safety.fencing'],
    services: threeOf('m', 'etcdMember', 'etcd'),
  },
  zookeeper: {
    kind: 'zookeeper',
    title: 'ZooKeeper recipe',
    summary:
      "ZooKeeper's recipe: ephemeral sequential znodes under /election, the lowest leads, each other candidate watching its predecessor; a session the ensemble stops hearing from expires.",
    words: { epoch: 'czxid', leader: 'leader', election: 'election' },
    messages: [
      { type: 'zkRequest', label: 'ZooKeeper request', family: 'request', election: false },
      { type: 'zkReply', label: 'ZooKeeper reply', family: 'grant', election: false },
      { type: 'zkPing', label: 'session ping', family: 'heartbeat', election: false },
      { type: 'zkWatch', label: 'watch: znode deleted', family: 'announce', election: false },
      { type: 'storeOp', label: 'proposal', family: 'heartbeat', election: false },
      { type: 'storeAck', label: 'ack', family: 'ack', election: false },
    ],
    hasQuorum: true,
    settings: ['zookeeper', 'safety.fencing'],
    watchCounts: true,
    services: threeOf('z', 'zkServer', 'ZooKeeper'),
  },
  'redis-sentinel': {
    kind: 'redis-sentinel',
    title: 'Redis Sentinel',
    summary:
      'Redis Sentinel: a quorum of sentinels agrees the primary is down, a majority of them elects one to promote the replica with the most data; no fencing token, so an isolated old primary loses its writes when it rejoins.',
    words: { epoch: 'epoch', leader: 'primary', election: 'failover' },
    messages: REDIS_MESSAGES,
    // The sentinels vote by majority, but the servers do not: an old primary cut off from them
    // keeps its role until it hears from them again.
    hasQuorum: false,
    // No fencing token: nothing checks the epoch, so the lab's storage takes an old primary's
    // writes (stale writes, allowed by the algorithm itself) and there is no Fencing switch.
    settings: ['sentinel'],
    unsafeBy: ['staleWriteAccepted'],
    losesWrites: true,
    services: threeOf('s', 'sentinel', 'Sentinel'),
  },
  pacemaker: {
    kind: 'pacemaker',
    title: 'Pacemaker with STONITH',
    summary:
      'Pacemaker with STONITH: when the primary is lost, the cluster powers it off through a fence device and promotes a replica only once the power-off is confirmed; unconfirmed, it waits.',
    words: { epoch: 'epoch', leader: 'primary', election: 'failover' },
    messages: [
      ...REDIS_MESSAGES.filter((k) => k.type !== 'isMasterDown' && k.type !== 'isMasterDownReply'),
      { type: 'isMasterDown', label: 'is the primary down? / vote', family: 'request', election: true },
      { type: 'isMasterDownReply', label: 'down? / vote', family: 'grant', election: true },
      { type: 'fence', label: 'STONITH: power off', family: 'request', election: true },
      { type: 'fenced', label: 'fence confirmed', family: 'grant', election: true },
    ],
    hasQuorum: false,
    // The lab's token check stays: a restarted old primary comes back a primary here (see the
    // model's simplifications), and only the check stops its writes. Redis's unsafeBy is not its own.
    settings: ['stonith', 'safety.fencing'],
    unsafeBy: [],
    losesWrites: true,
    services: [
      ...threeOf('s', 'clusterManager', 'Pacemaker'),
      { id: 'f1', kind: 'fenceDevice', label: 'Fence f1' },
    ],
  },
  bully: {
    kind: 'bully',
    title: 'Bully',
    summary:
      'Garcia-Molina (1982): the highest reachable id wins; ELECTION to higher ids, OK answers, COORDINATOR to all. No quorum.',
    words: { epoch: 'epoch', leader: 'coordinator', election: 'election' },
    messages: [
      { type: 'election', label: 'ELECTION', family: 'request', election: true },
      { type: 'ok', label: 'OK', family: 'grant', election: true },
      { type: 'coordinator', label: 'COORDINATOR', family: 'announce', election: true },
      { type: 'alive', label: 'coordinator alive', family: 'heartbeat', election: false },
    ],
    hasQuorum: false,
    settings: ['bully', 'safety.fencing'],
    unsafeBy: ['oneLeaderPerTerm'],
  },
  ring: {
    kind: 'ring',
    title: 'Ring',
    summary:
      'Chang and Roberts (1979): ELECTION travels a logical ring collecting ids, skipping a successor that does not answer; the highest id is announced COORDINATOR. No quorum.',
    words: { epoch: 'epoch', leader: 'coordinator', election: 'election' },
    messages: [
      { type: 'ringElection', label: 'ELECTION (collects ids)', family: 'request', election: true },
      { type: 'ringCoordinator', label: 'COORDINATOR', family: 'announce', election: true },
      { type: 'ringAck', label: 'hop acknowledged', family: 'ack', election: true },
      { type: 'alive', label: 'coordinator alive', family: 'heartbeat', election: false },
    ],
    hasQuorum: false,
    settings: ['ring', 'safety.fencing'],
    unsafeBy: ['oneLeaderPerTerm'],
  },
} satisfies Record<string, AlgorithmInfo>;

/**
 * Whether the experiment's samples count watch notifications and the reads they trigger (its
 * algorithm's watchCounts): the chart draws its watch panel only then.
 */
export function watchCountsOf(e: Experiment): boolean {
  const info: AlgorithmInfo | undefined = (ALGORITHM_INFO as Record<string, AlgorithmInfo>)[
    e.algorithm ?? 'raft'
  ];
  return info?.watchCounts === true;
}
