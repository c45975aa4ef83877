// What every part of the lab knows of an algorithm without running it, loaded with the page's first
// screen; its rules and description load only when a run uses it (loadAlgorithm), and what only the
// Setup picker says (picker.ts) with the picker.
import type { AlgorithmInfo } from '../algorithm';
import type { ServiceSpec } from '../core';
import type { Experiment } from '../experiment';

// Redis's message kinds, which Pacemaker's model shares (its observers ask the same questions).
const REDIS_MESSAGES = [
  { type: 'sentinelPing', label: 'sentinel PING', family: 'heartbeat', election: false },
  { type: 'sentinelPong', label: 'PONG (role, offset)', family: 'ack', election: false },
  { type: 'isMasterDown', label: 'is-master-down-by-addr', family: 'request', election: true },
  { type: 'isMasterDownReply', label: 'down? / vote', family: 'grant', election: true },
  { type: 'sentinelHello', label: 'sentinel hello (config)', family: 'announce', election: false },
  { type: 'replicaOf', label: 'REPLICAOF', family: 'announce', election: true },
  { type: 'replicate', label: 'replication stream', family: 'write', election: false },
  { type: 'replAck', label: 'REPLCONF ACK', family: 'ack', election: false },
] as const;

/** A service's three members: `m1`..`m3` labelled "etcd m1".."etcd m3", and the like. */
const threeOf = (id: string, kind: string, label: string): ServiceSpec[] =>
  [1, 2, 3].map((i) => ({ id: `${id}${i}`, kind, label: `${label} ${id}${i}` }));

export const ALGORITHM_INFO = {
  raft: {
    kind: 'raft',
    title: 'Raft',
    elects: 'Quorum elects one leader',
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
    // The replicas do not vote: etcd's members do, on each write the API server makes.
    elects: "etcd's quorum commits one Lease",
    words: { epoch: 'leaderTransitions', leader: 'holder', election: 'acquisition' },
    messages: [
      { type: 'leaseGet', label: 'get Lease', family: 'request', election: false },
      { type: 'leaseUpdate', label: 'update Lease', family: 'request', election: false },
      // Sent once, when the Lease does not exist yet (the first acquisition's create).
      { type: 'leaseCreate', label: 'create Lease', family: 'request', election: false },
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
    elects: 'The lowest key revision leads',
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
    elects: 'The lowest znode leads',
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
    elects: 'Sentinels promote one primary',
    words: { epoch: 'epoch', leader: 'primary', election: 'failover' },
    messages: REDIS_MESSAGES,
    // Sentinels vote by majority, servers do not: a cut-off old primary keeps its role until told.
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
    elects: 'Fenced first, then promoted',
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
    elects: 'The highest id takes over',
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
    elects: 'The ring elects the highest id',
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
} as const;

/** Checked apart from the table, so that the message kinds can be read from it (MessageType). */
ALGORITHM_INFO satisfies Record<string, AlgorithmInfo>;

export type AlgorithmMessageType =
  (typeof ALGORITHM_INFO)[keyof typeof ALGORITHM_INFO]['messages'][number]['type'];

/** Whether the experiment's samples count watches (AlgorithmInfo.watchCounts): the chart's watch panel. */
export function watchCountsOf(e: Experiment): boolean {
  return (ALGORITHM_INFO as Record<string, AlgorithmInfo>)[e.algorithm ?? 'raft']?.watchCounts === true;
}
