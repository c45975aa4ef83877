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
import { renewalLatency, settingsFor, stateViews } from './kit';
import { ALG_SLOT, cancelTimer, due, localNow, realAtLocal, scheduleTimer, serviceEndpoints } from '../core';
import type { Core, Message, NodeState, Outputs } from '../core';
// Types only from experiment.ts: it imports the algorithm registry, which imports this file.
import type { EtcdSettings } from '../experiment';
import { bringDown } from '../faults';
import type { QueueView } from '../types';
import { acquire, beginWarmUp, campaigned, release, renewed } from '../leadership';
import { send } from '../network';
import { nextInt } from '../rng';
import {
  STORE_ELECTION_TIMEOUT_MS,
  STORE_SLOT,
  createStore,
  dropSession,
  findSession,
  hasMajority,
  notifyWatchers,
  onStoreAck,
  onStoreChange,
  onStoreOp,
  onStoreTimer,
  openSession,
  propose,
  queueOf,
  renewAllSessions,
  scheduleStoreTimer,
  takeEntries,
  touchSession,
  tryCommit,
  watchEntry,
  type QuorumStore,
  type StoreEntry,
  type StoreOp,
  type StoreRules,
} from '../services/quorumStore';

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

export interface EtcdShared {
  settings: EtcdSettings;
  /** The etcd cluster: its members, leases (sessions), keys (entries) and raft leader. */
  store: QuorumStore<EtcdOp>;
  revision: number;
}

/** Operations a member may have waiting on the others at once (a bound, like every queue here). */
const MAX_PENDING_OPS = 128;
/** etcd's own raft election timeout (`--election-timeout`, 1000 ms by default). */
export const ETCD_ELECTION_TIMEOUT_MS = STORE_ELECTION_TIMEOUT_MS;

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

const { st, shared } = stateViews<EtcdNode, EtcdShared>();
const store = (c: Core) => shared(c).store;
const cfg = (c: Core) => shared(c).settings;

/** The member a candidate talks to: host nK runs member mK beside it. */
function memberOf(c: Core, n: NodeState): number {
  const members = store(c).members;
  return members[n.idx % members.length];
}

// ---------------------------------------------------------------- what etcd does on the store

/** A member got a candidate's request: it puts the operation to the others and waits for a majority. */
function onRequest(c: Core, out: Outputs, member: number, m: Message): void {
  const s = store(c);
  const op: StoreOp<EtcdOp> = {
    id: m.id,
    client: m.from,
    via: member,
    body: m.body as EtcdOp,
    acks: [member],
  };
  // A client's keep-alives share one stream, which its member serves in order: one sent after
  // the election still waits behind a renewal held over it.
  const body = op.body;
  if (body.op === 'keepAlive') {
    const ahead = s.pending.find(
      (x) =>
        x.via === member &&
        x.body.op === 'keepAlive' &&
        x.body.lease === body.lease &&
        x.heldUntilMs !== undefined,
    );
    if (ahead) op.heldUntilMs = ahead.heldUntilMs;
  }
  propose(c, s, op);
  tryCommit(c, out, s, ETCD_RULES, op);
}

function commit(c: Core, _out: Outputs, op: StoreOp<EtcdOp>): void {
  const reply = apply(c, op.body, op.client);
  const r = send(c, op.via, op.client, 'etcdReply', 0);
  r.round = op.id;
  r.body = reply;
}

function apply(c: Core, body: EtcdOp, client: number): EtcdReply {
  const a = shared(c);
  const s = a.store;
  const reply: EtcdReply = { op: body.op, lease: 0, ttlMs: 0, key: 0, rev: 0, storeRev: 0 };
  switch (body.op) {
    case 'grant': {
      const lease = openSession(c, s, client, a.settings.ttlMs);
      reply.lease = lease.id;
      reply.ttlMs = lease.ttlMs;
      break;
    }
    case 'keepAlive': {
      reply.lease = body.lease;
      reply.ttlMs = touchSession(c, s, body.lease) ? findSession(s, body.lease)!.ttlMs : -1;
      break;
    }
    case 'create': {
      // Txn: if the key's create revision is 0 (it does not exist), put it bound to the lease.
      reply.key = body.lease;
      const existing = s.entries.find((k) => k.key === body.lease);
      if (existing) reply.rev = existing.number;
      else if (findSession(s, body.lease)) {
        const rev = ++a.revision;
        s.entries.push({ key: body.lease, session: body.lease, owner: client, number: rev, token: rev });
        reply.rev = rev;
      }
      break;
    }
    case 'range': {
      // The key with the highest create revision below the caller's: its predecessor.
      let best: StoreEntry | null = null;
      for (const k of s.entries) if (k.number < body.below && (!best || k.number > best.number)) best = k;
      if (best) {
        reply.key = best.key;
        reply.rev = best.number;
      }
      break;
    }
    case 'watch':
      reply.key = body.key;
      if (watchEntry(s, client, body.key)) reply.rev = 1;
      break;
    case 'delete':
      deleteKey(c, body.key);
      break;
    case 'revoke':
      dropSession(s, body.lease);
      deleteKey(c, body.lease);
      break;
  }
  reply.storeRev = a.revision;
  return reply;
}

/** Delete a key (its lease's), a new revision; each watcher hears of it from its own member. */
function deleteKey(c: Core, lease: number): void {
  const a = shared(c);
  const gone = takeEntries(a.store, (k) => k.key === lease);
  if (gone.length === 0) return;
  a.revision++;
  notifyWatchers(c, a.store, gone, notifyDeleted);
}

function notifyDeleted(c: Core, watcher: number, k: StoreEntry): void {
  const r = send(c, memberOf(c, c.nodes[watcher]), watcher, 'watchEvent', 0);
  r.body = {
    op: 'watch',
    lease: 0,
    ttlMs: 0,
    key: k.key,
    rev: 0,
    storeRev: shared(c).revision,
  } satisfies EtcdReply;
}

/**
 * The members elected a raft leader. lessor.Promote: every lease's time left starts over from its
 * TTL, plus an election timeout. A renewal that waited through the election goes on one election
 * timeout later: a member forwards renewals to its leader in a loop (LeaseRenew), and once it
 * finds none (the moment of the election) it waits a whole election timeout before it looks again
 * (waitLeader). A renewal that arrives after the election goes straight to the new leader.
 */
function promoted(c: Core): void {
  const s = store(c);
  renewAllSessions(c, s, ETCD_ELECTION_TIMEOUT_MS);
  let held = false;
  for (const op of s.pending)
    if (op.body.op === 'keepAlive') {
      op.heldUntilMs = c.nowMs + ETCD_ELECTION_TIMEOUT_MS;
      held = true;
    }
  if (held) scheduleStoreTimer(c, s, STORE_SLOT.held, c.nowMs + ETCD_ELECTION_TIMEOUT_MS);
}

const ETCD_RULES: StoreRules<EtcdOp> = {
  commit,
  // An expired lease's key goes with it.
  expired: (c, _out, lease) => deleteKey(c, lease),
  promoted,
};

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
  return queueOf(c, store(c), {
    path: 'election/',
    numberName: 'create revision',
    watch: 'predecessor',
    watchReads: null,
    // The Go client names the key by its lease id in hex.
    name: (k) => `election/${k.key.toString(16)}`,
  });
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
    settings: settingsFor(e, 'etcd'),
    store: createStore(
      serviceEndpoints(ALGORITHM_INFO['etcd-election'].services, 'etcdMember'),
      MAX_PENDING_OPS,
      true,
    ),
    revision: 1,
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
  onServiceMessage: (c, out, endpoint, m) => {
    if (m.type === 'etcdRequest' || m.type === 'sessionKeepAlive') onRequest(c, out, endpoint, m);
    else if (m.type === 'storeOp') onStoreOp(c, endpoint, m);
    else if (m.type === 'storeAck') onStoreAck(c, out, store(c), ETCD_RULES, m);
  },
  onServiceTimer: (c, out, _service, slot) => onStoreTimer(c, out, store(c), ETCD_RULES, slot),
  onNetworkChange: (c, out) =>
    onStoreChange(c, out, store(c), hasMajority(c, store(c)), memberOf, 'the store lost its majority'),
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
  campaign: (c, _out, n) => {
    if (st(n).phase === 'idle') newSession(c, n);
  },
  renewalLatencyMs: (c, leader, at) =>
    renewalLatency(st(leader).renewLatencyMs, st(leader).lastKeepAliveRealMs, keepAliveEveryMs(c), at),
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
