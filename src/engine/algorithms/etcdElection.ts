// Leader election with etcd's election API, as its Go client runs it (client/v3/concurrency:
// session.go, election.go, key.go): each candidate holds a session, a lease with a TTL kept alive
// about every TTL/3; Campaign creates `prefix/<lease id>` bound to the lease if it does not exist,
// then waits until every key under the prefix with a lower create revision is gone, watching the
// last one before its own (waitDeletes); the lowest create revision leads, and it is the fencing
// token. Resign deletes the key. A lease whose keep-alives stop expires on the etcd side, and its
// key goes with it. The three etcd members are services; every operation commits once a majority
// of them answer, while they have a raft leader: when the leader member dies or is cut off from
// the others, nothing commits until the rest elect a new one after etcd's election timeout, and the
// new leader extends every lease by that timeout (lessor.Promote), as etcd does.
import type { ElectionAlgorithm } from '../algorithm';
import { ALGORITHM_INFO } from './info';
import {
  ALG_SLOT,
  cancelTimer,
  due,
  nodeName,
  localNow,
  realAtLocal,
  scheduleServiceTimer,
  scheduleTimer,
  type Core,
  type Message,
  type NodeState,
  type Outputs,
} from '../core';
// Types only from experiment.ts: it imports the algorithm registry, which imports this file.
import type { EtcdSettings, Experiment } from '../experiment';
import { bringDown } from '../faults';
import type { QueueView } from '../types';
import { acquire, beginWarmUp, campaigned, currentLeader, markLoss, release, renewed } from '../leadership';
import { canReach, send } from '../network';
import { nextInt } from '../rng';

/** What a candidate asks of etcd. */
export type EtcdOp =
  | { op: 'grant' }
  | { op: 'keepAlive'; lease: number }
  | { op: 'create'; lease: number }
  | { op: 'range'; below: number }
  | { op: 'watch'; key: number }
  | { op: 'delete'; key: number }
  | { op: 'revoke'; lease: number };

/** What etcd answers. */
export interface EtcdReply {
  op: EtcdOp['op'];
  /** grant: the new lease; keepAlive: the lease's TTL left (<= 0: it is gone). */
  lease: number;
  ttlMs: number;
  /** create: the key's create revision; range: the predecessor's key and revision (0: none). */
  key: number;
  rev: number;
  /** The store's revision when it answered (a watch that missed an event catches up from it). */
  storeRev: number;
}

interface Lease {
  id: number;
  ttlMs: number;
  expiresAtMs: number;
}

interface Key {
  /** The key is `prefix/<lease id>`: one per session. */
  lease: number;
  owner: number;
  createRevision: number;
}

interface PendingOp {
  id: number;
  client: number;
  member: number;
  body: EtcdOp;
  acks: number[];
  /** A renewal held over a raft election: answered no sooner than this (see onRaftElection). */
  heldUntilMs?: number;
}

export interface EtcdShared {
  settings: EtcdSettings;
  revision: number;
  leaseSeq: number;
  leases: Lease[];
  keys: Key[];
  /** Who watches which key for its deletion. */
  watches: { watcher: number; key: number }[];
  pending: PendingOp[];
  members: number[];
  /** The member that leads etcd's own raft (m1 at the start), or 0 while the others elect one. */
  raftLeader: number;
}

/** Operations a member may have waiting on the others at once (a bound, like every queue here). */
const MAX_PENDING_OPS = 128;
/** The store's lease-expiry check, as a service timer slot. */
const EXPIRY_SLOT = 0;
/** The members' raft election ends, as a service timer slot. */
const RAFT_ELECTION_SLOT = 1;
/** Renewals held over an election go on, as a service timer slot. */
const HELD_RENEWALS_SLOT = 2;
/** etcd's default heartbeat (`--heartbeat-interval`): how long before a death a member last heard its leader. */
const ETCD_HEARTBEAT_MS = 100;
/**
 * etcd's own raft election timeout (`--election-timeout`, 1000 ms by default): the surviving members
 * campaign after a randomized [1, 2) x of it, and a new leader extends every lease by it.
 */
export const ETCD_ELECTION_TIMEOUT_MS = 1000;

const ET = {
  keepAlive: ALG_SLOT,
  sessionDeadline: ALG_SLOT + 1,
  request: ALG_SLOT + 2,
  retry: ALG_SLOT + 3,
} as const;

type Phase = 'granting' | 'creating' | 'ranging' | 'watching' | 'leading' | 'stopping' | 'idle';

export interface EtcdNode {
  phase: Phase;
  /** The session's lease (0: none) and the key it campaigns with. */
  lease: number;
  myRev: number;
  /** The key it watches (its predecessor's lease), or 0. */
  watching: number;
  /** The store revision it last ranged at: a newer one means a deletion it may have missed. */
  rangedAtRev: number;
  /** The request in flight and its id. */
  requestId: number;
  /** Own-clock time the last keep-alive was answered with the lease alive. */
  lastKeepAliveLocalMs: number;
  lastKeepAliveRealMs: number;
  keepAliveSentRealMs: number;
  renewLatencyMs: number;
}

type EtcdCore = Core<EtcdShared>;
const st = (n: NodeState) => n.p as EtcdNode;
const shared = (c: Core) => (c as EtcdCore).a;
const cfg = (c: Core) => shared(c).settings;

function settingsOf(e: Experiment): EtcdSettings {
  // parseExperiment fills in every setting an algorithm lists; a missing one is a bug upstream.
  if (!e.etcd) throw new Error('an etcd election experiment without its settings');
  return e.etcd;
}

/** The member a candidate talks to: host nK runs member mK beside it. */
function memberOf(c: Core, n: NodeState): number {
  const members = shared(c).members;
  return members[n.idx % members.length];
}

// ---------------------------------------------------------------- the store

function serviceIndex(endpoint: number): number {
  return -endpoint - 1;
}

/** A member got a candidate's request: it puts the operation to the others and waits for a majority. */
function onRequest(c: Core, member: number, m: Message): void {
  const a = shared(c);
  const op: PendingOp = { id: m.id, client: m.from, member, body: m.body as EtcdOp, acks: [member] };
  // A client's keep-alives share one stream, which its member serves in order: one sent after
  // the election still waits behind a renewal held over it.
  const body = op.body;
  if (body.op === 'keepAlive') {
    const ahead = a.pending.find(
      (x) =>
        x.member === member &&
        x.body.op === 'keepAlive' &&
        x.body.lease === body.lease &&
        x.heldUntilMs !== undefined,
    );
    if (ahead) op.heldUntilMs = ahead.heldUntilMs;
  }
  if (a.pending.length >= MAX_PENDING_OPS) a.pending.shift();
  a.pending.push(op);
  for (const other of a.members) if (other !== member) send(c, member, other, 'storeOp', op.id);
  tryCommit(c, op);
}

function onStoreAck(c: Core, m: Message): void {
  const op = shared(c).pending.find((x) => x.id === m.term);
  if (!op || op.acks.includes(m.from)) return;
  op.acks.push(m.from);
  tryCommit(c, op);
}

function tryCommit(c: Core, op: PendingOp): void {
  const a = shared(c);
  // Without a raft leader nothing commits: the operation waits for the next one (raftElected).
  if (a.raftLeader === 0 || op.acks.length * 2 <= a.members.length) return;
  if (op.heldUntilMs !== undefined && c.nowMs < op.heldUntilMs) return;
  a.pending = a.pending.filter((x) => x !== op);
  const reply = apply(c, op.body, op.client);
  const r = send(c, op.member, op.client, 'etcdReply', 0);
  r.round = op.id;
  r.body = reply;
}

function apply(c: Core, body: EtcdOp, client: number): EtcdReply {
  const a = shared(c);
  const reply: EtcdReply = { op: body.op, lease: 0, ttlMs: 0, key: 0, rev: 0, storeRev: 0 };
  switch (body.op) {
    case 'grant': {
      const lease: Lease = {
        id: ++a.leaseSeq,
        ttlMs: a.settings.ttlMs,
        expiresAtMs: c.nowMs + a.settings.ttlMs,
      };
      a.leases.push(lease);
      reply.lease = lease.id;
      reply.ttlMs = lease.ttlMs;
      armExpiry(c);
      break;
    }
    case 'keepAlive': {
      const lease = a.leases.find((l) => l.id === body.lease);
      reply.lease = body.lease;
      if (lease) {
        lease.expiresAtMs = c.nowMs + lease.ttlMs;
        reply.ttlMs = lease.ttlMs;
      } else reply.ttlMs = -1;
      break;
    }
    case 'create': {
      // Txn: if the key's create revision is 0 (it does not exist), put it bound to the lease.
      reply.key = body.lease;
      const existing = a.keys.find((k) => k.lease === body.lease);
      if (existing) reply.rev = existing.createRevision;
      else if (a.leases.some((l) => l.id === body.lease)) {
        const key: Key = { lease: body.lease, owner: client, createRevision: ++a.revision };
        a.keys.push(key);
        reply.rev = key.createRevision;
      }
      break;
    }
    case 'range': {
      // The key with the highest create revision below the caller's: its predecessor.
      let best: Key | null = null;
      for (const k of a.keys)
        if (k.createRevision < body.below && (!best || k.createRevision > best.createRevision)) best = k;
      if (best) {
        reply.key = best.lease;
        reply.rev = best.createRevision;
      }
      break;
    }
    case 'watch':
      reply.key = body.key;
      if (a.keys.some((k) => k.lease === body.key)) {
        if (!a.watches.some((w) => w.watcher === client && w.key === body.key))
          a.watches.push({ watcher: client, key: body.key });
        reply.rev = 1;
      }
      break;
    case 'delete':
      deleteKey(c, body.key);
      break;
    case 'revoke':
      a.leases = a.leases.filter((l) => l.id !== body.lease);
      deleteKey(c, body.lease);
      break;
  }
  reply.storeRev = a.revision;
  return reply;
}

function deleteKey(c: Core, lease: number): void {
  const a = shared(c);
  if (!a.keys.some((k) => k.lease === lease)) return;
  a.keys = a.keys.filter((k) => k.lease !== lease);
  a.revision++;
  // Each watcher of the deleted key hears of it from its own member.
  for (const w of a.watches) {
    if (w.key !== lease) continue;
    c.counters.watchNotifications++;
    const r = send(c, memberOf(c, c.nodes[w.watcher]), w.watcher, 'watchEvent', 0);
    r.body = {
      op: 'watch',
      lease: 0,
      ttlMs: 0,
      key: lease,
      rev: 0,
      storeRev: a.revision,
    } satisfies EtcdReply;
  }
  a.watches = a.watches.filter((w) => w.key !== lease);
}

/** Whether a majority of the members is alive and can reach one another. */
function storeHasMajority(c: Core): boolean {
  return shared(c).members.some((m) => leadsMajority(c, m));
}

function armExpiry(c: Core): void {
  const a = shared(c);
  if (a.leases.length === 0) return;
  const next = Math.min(...a.leases.map((l) => l.expiresAtMs));
  scheduleServiceTimer(c, serviceIndex(a.members[0]), EXPIRY_SLOT, Math.max(c.nowMs, next));
}

/** The store expires leases whose keep-alives stopped, and their keys go with them. */
function onExpiry(c: Core): void {
  const a = shared(c);
  // Without a majority, or a raft leader, nothing commits, expiry included: the leases wait.
  if (a.raftLeader !== 0 && storeHasMajority(c)) {
    for (const l of [...a.leases]) {
      if (l.expiresAtMs > c.nowMs) continue;
      a.leases = a.leases.filter((x) => x !== l);
      deleteKey(c, l.id);
    }
  }
  if (a.leases.length === 0) return;
  const next = Math.min(...a.leases.map((l) => l.expiresAtMs));
  scheduleServiceTimer(c, serviceIndex(a.members[0]), EXPIRY_SLOT, Math.max(c.nowMs + 100, next));
}

/** Whether this member is alive and reaches a majority of the members (itself included). */
function leadsMajority(c: Core, m: number): boolean {
  const a = shared(c);
  if (!c.services[serviceIndex(m)].alive) return false;
  const reachable = a.members.filter((o) => c.services[serviceIndex(o)].alive && canReach(c, m, o)).length;
  return reachable * 2 > a.members.length;
}

/**
 * The raft leader died or was cut off from the others: they stop committing and, once an election
 * timeout has passed without hearing from it, elect another (pre-vote and CheckQuorum: a leader
 * that still reaches a majority keeps its place).
 */
function checkRaftLeader(c: Core): void {
  const a = shared(c);
  if (a.raftLeader === 0 || leadsMajority(c, a.raftLeader)) return;
  a.raftLeader = 0;
  // Each surviving member's timer runs from the last heartbeat it heard (up to one heartbeat ago)
  // to its own randomized [et, 2et); the first to run out campaigns, and (pre-vote, a majority
  // that also lost the leader) wins at once.
  const timers = a.members
    .filter((m) => c.services[serviceIndex(m)].alive)
    .map(() => nextInt(c.rngTimer, ETCD_ELECTION_TIMEOUT_MS, 2 * ETCD_ELECTION_TIMEOUT_MS - 1));
  const heardAgoMs = nextInt(c.rngTimer, 0, ETCD_HEARTBEAT_MS - 1);
  const at = c.nowMs + Math.max(0, Math.min(...timers, 2 * ETCD_ELECTION_TIMEOUT_MS) - heardAgoMs);
  scheduleServiceTimer(c, serviceIndex(a.members[0]), RAFT_ELECTION_SLOT, at);
}

/** The members elect a raft leader, if one of them reaches a majority; else they try again. */
function onRaftElection(c: Core): void {
  const a = shared(c);
  if (a.raftLeader !== 0) return;
  const next = a.members.find((m) => leadsMajority(c, m));
  if (next === undefined) {
    scheduleServiceTimer(
      c,
      serviceIndex(a.members[0]),
      RAFT_ELECTION_SLOT,
      c.nowMs + ETCD_ELECTION_TIMEOUT_MS,
    );
    return;
  }
  a.raftLeader = next;
  // lessor.Promote: every lease's time left starts over from its TTL, plus an election timeout.
  for (const l of a.leases) l.expiresAtMs = c.nowMs + ETCD_ELECTION_TIMEOUT_MS + l.ttlMs;
  // A renewal that waited through the election goes on one election timeout later: a member
  // forwards renewals to its leader in a loop (LeaseRenew), and once it finds none (the moment
  // of the election) it waits a whole election timeout before it looks again (waitLeader). A
  // renewal that arrives after the election goes straight to the new leader.
  let held = false;
  for (const op of a.pending)
    if (op.body.op === 'keepAlive') {
      op.heldUntilMs = c.nowMs + ETCD_ELECTION_TIMEOUT_MS;
      held = true;
    }
  if (held)
    scheduleServiceTimer(
      c,
      serviceIndex(a.members[0]),
      HELD_RENEWALS_SLOT,
      c.nowMs + ETCD_ELECTION_TIMEOUT_MS,
    );
  // What else waited for a leader commits now.
  for (const op of [...a.pending]) tryCommit(c, op);
  armExpiry(c);
}

// ---------------------------------------------------------------- a candidate

function request(c: Core, n: NodeState, body: EtcdOp): void {
  const p = st(n);
  const m = send(c, n.idx, memberOf(c, n), 'etcdRequest', 0);
  m.body = body;
  p.requestId = m.id;
  // A request that gets no answer is retried after a while (the client's own timeout).
  scheduleTimer(c, n, ET.request, realAtLocal(c, n, localNow(c, n) + requestTimeoutMs(c)));
}

function requestTimeoutMs(c: Core): number {
  return Math.max(500, Math.floor(cfg(c).ttlMs / 3));
}

function newSession(c: Core, n: NodeState): void {
  const p = st(n);
  p.phase = 'granting';
  p.lease = 0;
  p.myRev = 0;
  p.watching = 0;
  request(c, n, { op: 'grant' });
}

function onReply(c: Core, out: Outputs, n: NodeState, m: Message): void {
  const p = st(n);
  const r = m.body as EtcdReply;
  if (r.op === 'keepAlive') return onKeepAliveReply(c, out, n, r);
  if (m.round !== p.requestId) return;
  cancelTimer(n, ET.request);
  switch (r.op) {
    case 'grant':
      if (p.phase !== 'granting') return;
      p.lease = r.lease;
      p.lastKeepAliveLocalMs = localNow(c, n);
      p.lastKeepAliveRealMs = c.nowMs;
      armSessionDeadline(c, n);
      scheduleTimer(c, n, ET.keepAlive, realAtLocal(c, n, localNow(c, n) + keepAliveEveryMs(c)));
      p.phase = 'creating';
      campaigned(c, out, n, 0, false, false);
      return request(c, n, { op: 'create', lease: p.lease });
    case 'create':
      if (p.phase !== 'creating') return;
      if (r.rev === 0) return newSession(c, n); // the lease was gone already
      p.myRev = r.rev;
      return rangeNow(c, n);
    case 'range':
      if (p.phase !== 'ranging') return;
      p.rangedAtRev = r.storeRev;
      if (r.key === 0) return lead(c, out, n);
      p.watching = r.key;
      p.phase = 'watching';
      return request(c, n, { op: 'watch', key: r.key });
    case 'watch':
      // The predecessor was already gone by the time the watch was set: look again.
      if (p.phase === 'watching' && r.rev === 0) rangeNow(c, n);
      return;
    case 'delete':
    case 'revoke':
      if (p.phase === 'stopping') finishStop(c, n);
      return;
  }
}

function rangeNow(c: Core, n: NodeState): void {
  const p = st(n);
  p.phase = 'ranging';
  p.watching = 0;
  request(c, n, { op: 'range', below: p.myRev });
}

function onWatchEvent(c: Core, n: NodeState, m: Message): void {
  const p = st(n);
  const r = m.body as EtcdReply;
  if (p.phase === 'watching' && r.key === p.watching) rangeNow(c, n);
}

function lead(c: Core, out: Outputs, n: NodeState): void {
  const p = st(n);
  p.phase = 'leading';
  n.term = p.myRev;
  acquire(c, out, n, p.myRev, null);
  beginWarmUp(c, n);
}

// ---------------------------------------------------------------- the session's keep-alives

function keepAliveEveryMs(c: Core): number {
  return Math.max(1, Math.floor(cfg(c).ttlMs / 3));
}

function onKeepAliveTimer(c: Core, n: NodeState): void {
  const p = st(n);
  if (p.lease === 0) return;
  const m = send(c, n.idx, memberOf(c, n), 'sessionKeepAlive', 0);
  m.body = { op: 'keepAlive', lease: p.lease } satisfies EtcdOp;
  p.keepAliveSentRealMs = c.nowMs;
  scheduleTimer(c, n, ET.keepAlive, realAtLocal(c, n, localNow(c, n) + keepAliveEveryMs(c)));
}

function onKeepAliveReply(c: Core, out: Outputs, n: NodeState, r: EtcdReply): void {
  const p = st(n);
  if (r.lease !== p.lease || p.lease === 0) return;
  if (r.ttlMs <= 0) return sessionLost(c, out, n, 'lease expired');
  p.lastKeepAliveLocalMs = localNow(c, n);
  p.lastKeepAliveRealMs = c.nowMs;
  p.renewLatencyMs = c.nowMs - p.keepAliveSentRealMs;
  armSessionDeadline(c, n);
  if (p.phase === 'leading') renewed(c, out, n);
  // A watch that missed its event (its member was cut off) catches up from the store's revision.
  if (p.phase === 'watching' && r.storeRev > p.rangedAtRev) rangeNow(c, n);
}

/**
 * The session ends when no keep-alive was answered for a whole TTL (as clientv3's keep-alive loop
 * decides), or sooner with an application-level renew deadline.
 */
function armSessionDeadline(c: Core, n: NodeState): void {
  scheduleTimer(
    c,
    n,
    ET.sessionDeadline,
    realAtLocal(c, n, st(n).lastKeepAliveLocalMs + sessionDeadlineMs(c)),
  );
}

function sessionDeadlineMs(c: Core): number {
  const s = cfg(c);
  return s.renewDeadlineMs > 0 ? Math.min(s.renewDeadlineMs, s.ttlMs) : s.ttlMs;
}

function onSessionDeadline(c: Core, out: Outputs, n: NodeState): void {
  const p = st(n);
  if (p.lease === 0 || !due(c, n, p.lastKeepAliveLocalMs + sessionDeadlineMs(c))) return;
  sessionLost(c, out, n, cfg(c).renewDeadlineMs > 0 ? 'renew deadline passed' : 'lease expired');
}

/** session.Done(): a leader stops, and the candidate starts a new session and campaigns again. */
function sessionLost(
  c: Core,
  out: Outputs,
  n: NodeState,
  reason: 'lease expired' | 'renew deadline passed',
): void {
  const p = st(n);
  if (p.phase === 'leading') release(c, out, n, reason);
  cancelTimer(n, ET.keepAlive);
  cancelTimer(n, ET.sessionDeadline);
  cancelTimer(n, ET.request);
  p.lease = 0;
  // A fresh session after a retry interval (the application's loop).
  p.phase = 'idle';
  scheduleTimer(c, n, ET.retry, realAtLocal(c, n, localNow(c, n) + keepAliveEveryMs(c)));
}

function onRequestTimeout(c: Core, n: NodeState): void {
  const p = st(n);
  switch (p.phase) {
    case 'granting':
      return newSession(c, n);
    case 'creating':
      return request(c, n, { op: 'create', lease: p.lease });
    case 'ranging':
      return rangeNow(c, n);
    case 'watching':
      return request(c, n, { op: 'watch', key: p.watching });
    case 'stopping':
      return finishStop(c, n);
    default:
      return;
  }
}

function finishStop(c: Core, n: NodeState): void {
  const p = st(n);
  p.phase = 'idle';
  p.lease = 0;
  bringDown(c, n);
}

/** The election's keys by create revision: the same queue as ZooKeeper's, for the znode queue scene. */
function queueView(c: Core): QueueView {
  const a = shared(c);
  return {
    path: 'election/',
    numberName: 'create revision',
    watch: 'predecessor',
    entries: [...a.keys]
      .sort((x, y) => x.createRevision - y.createRevision)
      .map((k) => {
        const lease = a.leases.find((l) => l.id === k.lease);
        return {
          number: k.createRevision,
          // The Go client names the key by its lease id in hex.
          name: `election/${k.lease.toString(16)}`,
          owner: nodeName(c, k.owner),
          token: k.createRevision,
          expiresAtMs: lease ? lease.expiresAtMs : -1,
          watchers: a.watches.filter((w) => w.key === k.lease).map((w) => nodeName(c, w.watcher)),
        };
      }),
    watchNotifications: c.counters.watchNotifications,
    watchReads: null,
  };
}

export const etcdElection: ElectionAlgorithm = {
  ...ALGORITHM_INFO['etcd-election'],
  timerSlots: 4,
  initNode: (): EtcdNode => ({
    phase: 'idle',
    lease: 0,
    myRev: 0,
    watching: 0,
    rangedAtRev: 0,
    requestId: -1,
    lastKeepAliveLocalMs: 0,
    lastKeepAliveRealMs: -1,
    keepAliveSentRealMs: 0,
    renewLatencyMs: 0,
  }),
  initShared: (e): EtcdShared => ({
    settings: settingsOf(e),
    revision: 1,
    leaseSeq: 0,
    leases: [],
    keys: [],
    watches: [],
    pending: [],
    members: [-2, -3, -4],
    raftLeader: -2,
  }),
  boot: (c, _out, n) => {
    // Candidates start a little apart.
    scheduleTimer(c, n, ET.retry, nextInt(c.rngTimer, 0, 300));
  },
  onTimer: (c, out, n, slot) => {
    if (slot === ET.keepAlive) return onKeepAliveTimer(c, n);
    if (slot === ET.sessionDeadline) return onSessionDeadline(c, out, n);
    if (slot === ET.request) return onRequestTimeout(c, n);
    if (slot === ET.retry && st(n).phase === 'idle') return newSession(c, n);
  },
  onMessage: (c, out, n, m) => {
    if (m.type === 'etcdReply') onReply(c, out, n, m);
    else if (m.type === 'watchEvent') onWatchEvent(c, n, m);
  },
  onServiceMessage: (c, _out, service, m) => {
    const endpoint = -service - 1;
    if (m.type === 'etcdRequest') onRequest(c, endpoint, m);
    else if (m.type === 'sessionKeepAlive') onRequest(c, endpoint, m);
    else if (m.type === 'storeOp') send(c, endpoint, m.from, 'storeAck', m.term);
    else if (m.type === 'storeAck') onStoreAck(c, m);
  },
  onServiceTimer: (c, _out, _service, slot) => {
    if (slot === EXPIRY_SLOT) onExpiry(c);
    else if (slot === RAFT_ELECTION_SLOT) onRaftElection(c);
    else if (slot === HELD_RENEWALS_SLOT) for (const op of [...shared(c).pending]) tryCommit(c, op);
  },
  onServiceChange: (c, out) => {
    const a = shared(c);
    // A member that died forgets the operations it was coordinating.
    a.pending = a.pending.filter((op) => c.services[serviceIndex(op.member)].alive);
    checkRaftLeader(c);
    const leader = currentLeader(c);
    if (!leader) return;
    if (!storeHasMajority(c)) markLoss(c, out, leader, 'the store lost its majority');
    else if (!canReach(c, leader.idx, memberOf(c, leader))) markLoss(c, out, leader, 'partitioned');
    armExpiry(c);
  },
  // The application hears storage's refusal; the election itself does not.
  onFenced: () => {},
  onKill: (_c, n) => {
    const p = st(n);
    p.phase = 'idle';
    p.lease = 0;
    p.watching = 0;
  },
  onRestart: (c, _out, n) => newSession(c, n),
  onStop: (c, out, n) => {
    // Resign: delete the key (and revoke the lease), then exit.
    const p = st(n);
    if (p.phase === 'leading') release(c, out, n, 'stopped');
    cancelTimer(n, ET.keepAlive);
    cancelTimer(n, ET.sessionDeadline);
    if (p.lease === 0) return finishStop(c, n);
    p.phase = 'stopping';
    request(c, n, { op: 'revoke', lease: p.lease });
  },
  onClockRate: (c, n) => {
    const p = st(n);
    if (p.lease !== 0) {
      armSessionDeadline(c, n);
      scheduleTimer(c, n, ET.keepAlive, realAtLocal(c, n, localNow(c, n) + keepAliveEveryMs(c)));
    }
  },
  onPartition: (c, out) => etcdElection.onServiceChange?.(c, out),
  campaign: (c, _out, n) => {
    if (st(n).phase === 'idle') newSession(c, n);
  },
  renewalLatencyMs: (c, leader, at) => {
    const p = st(leader);
    const overdue = p.lastKeepAliveRealMs >= 0 ? at - p.lastKeepAliveRealMs - keepAliveEveryMs(c) : 0;
    return Math.max(p.renewLatencyMs, overdue > 0 ? overdue : 0);
  },
  nodeView: (c, n) => {
    const p = st(n);
    const deadlineAtMs =
      n.alive && p.lease !== 0 ? realAtLocal(c, n, p.lastKeepAliveLocalMs + sessionDeadlineMs(c)) : -1;
    return {
      votedFor: null,
      deadlineAtMs,
      lastRenewAtMs: p.lastKeepAliveRealMs,
      votes: [],
      preVoting: false,
    };
  },
  queueView,
};
