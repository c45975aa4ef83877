// One quorum-replicated coordination store, which three algorithms run against (the etcd behind
// Kubernetes' API server, etcd's own election service, the ZooKeeper ensemble), with what they share:
//  - operations: a coordinator (a member, or the API server in front of the members) proposes an
//    operation to the members and commits it once a majority has it (storeOp / storeAck);
//  - reachability: whether an endpoint reaches a majority of the members;
//  - its own raft leader, where the store elects one (etcd): nothing commits while it has none;
//  - sessions (etcd's leases, ZooKeeper's) expiring when their owner goes unheard, on one timer;
//  - entries bound to a session (etcd's keys, ephemeral znodes), deleted with it, and the watches
//    that tell a waiting candidate of a deletion: the election queue the znode queue scene draws.
// Each algorithm's own ways (a Lease's resourceVersion, held renewals, reads served locally) are
// handed to the store as a StoreRules table of plain functions.
import {
  nodeName,
  scheduleServiceTimer,
  serviceIndex,
  type Core,
  type Message,
  type NodeState,
  type Outputs,
} from '../core';
import { currentLeader, markLoss } from '../leadership';
import { canReach, send } from '../network';
import { nextInt } from '../rng';
import { isMajority } from '../algorithms/kit';
import type { QueueEntryView, QueueView } from '../types';

/** An operation a coordinator proposed, waiting for a majority of the members to have it. */
export interface StoreOp<B> {
  id: number;
  client: number;
  /** The endpoint coordinating it: the member the client talks to, or the API server. */
  via: number;
  body: B;
  /** Members that have it (the coordinator first, when it is a member). */
  acks: number[];
  /** Not to commit before this (a renewal held over the store's raft election), if set. */
  heldUntilMs?: number;
}

/** A session (a lease, a ZooKeeper session): it expires when its owner has not been heard for its TTL. */
export interface StoreSession {
  id: number;
  owner: number;
  ttlMs: number;
  expiresAtMs: number;
}

/** An entry bound to a session (an etcd key, an ephemeral znode): deleted when its session ends. */
export interface StoreEntry {
  /** How the algorithm names it (etcd: the key's lease id; ZooKeeper: the sequence number). */
  key: number;
  session: number;
  owner: number;
  /** Its place in the election queue: the create revision, the sequence number. */
  number: number;
  /** The fencing token it leads with: the create revision, the czxid. */
  token: number;
}

/** What an algorithm's store does its own way: applying its operations. */
export interface StoreRules<B> {
  /** A client's request reached one of the store's endpoints (a member, or the API server in front). */
  request(c: Core, out: Outputs, endpoint: number, m: Message): void;
  /** A majority has the operation: apply it and answer the client. */
  commit(c: Core, out: Outputs, op: StoreOp<B>): void;
  /** A session expired (the store already removed it): delete what was bound to it. */
  expired(c: Core, out: Outputs, session: number): void;
  /** The store's raft elected a leader (etcd's lessor.Promote and the renewals held over it). */
  promoted?(c: Core, out: Outputs): void;
}

/** The store's timers, as service-timer slots on its first member. */
export const STORE_SLOT = { expiry: 0, election: 1, held: 2 } as const;

/** etcd's own raft timing (`--heartbeat-interval`, `--election-timeout`): see checkLeader. */
export const STORE_HEARTBEAT_MS = 100;
export const STORE_ELECTION_TIMEOUT_MS = 1000;

/** Operations a coordinator may have waiting on the members at once (a bound, like every queue here). */
const MAX_PENDING_OPS = 128;

export function createStore<B>(
  members: number[],
  { withLeader = false, maxPending = MAX_PENDING_OPS, revision = 0 } = {},
) {
  return {
    members,
    /** Proposed, not yet committed, oldest first. */
    pending: [] as StoreOp<B>[],
    maxPending,
    /** The store's raft leader (0 while electing one); null where not modelled (Zab, the API's etcd). */
    leader: withLeader ? members[0] : null,
    sessionSeq: 0,
    sessions: [] as StoreSession[],
    entries: [] as StoreEntry[],
    /** Who watches which entry (by key) for its deletion. */
    watches: [] as { watcher: number; key: number }[],
    /** Its change counter (etcd's revision, ZooKeeper's zxid): a deletion takes the next, as a write does. */
    revision,
  };
}

export type QuorumStore<B> = ReturnType<typeof createStore<B>>;

// ---------------------------------------------------------------- operations

/** A coordinator proposes an operation to every member that does not have it yet. */
export function propose<B>(c: Core, s: QuorumStore<B>, op: StoreOp<B>): void {
  if (s.pending.length >= s.maxPending) s.pending.shift();
  s.pending.push(op);
  for (const m of s.members) if (!op.acks.includes(m)) send(c, op.via, m, 'storeOp', op.id);
}

function onStoreAck<B>(c: Core, out: Outputs, s: QuorumStore<B>, rules: StoreRules<B>, m: Message): void {
  const op = s.pending.find((x) => x.id === m.term);
  if (!op || op.acks.includes(m.from)) return;
  op.acks.push(m.from);
  tryCommit(c, out, s, rules, op);
}

/** Commit once a majority has it, the store has a leader (where it has one) and it is not held. */
export function tryCommit<B>(
  c: Core,
  out: Outputs,
  s: QuorumStore<B>,
  rules: StoreRules<B>,
  op: StoreOp<B>,
): void {
  if (s.leader === 0 || !isMajority(op.acks.length, s.members.length)) return;
  if (op.heldUntilMs !== undefined && c.nowMs < op.heldUntilMs) return;
  s.pending = s.pending.filter((x) => x !== op);
  rules.commit(c, out, op);
}

/** Try every waiting operation again (after an election, or once held ones may go). */
export function retryPending<B>(c: Core, out: Outputs, s: QuorumStore<B>, rules: StoreRules<B>): void {
  for (const op of [...s.pending]) tryCommit(c, out, s, rules, op);
}

// ---------------------------------------------------------------- reachability

/** Whether an endpoint (a member, the API server) is alive and reaches a majority of the members. */
export function reachesMajority(c: Core, s: QuorumStore<unknown>, from: number): boolean {
  if (!c.services[serviceIndex(from)].alive) return false;
  let reached = 0;
  for (const m of s.members) if (c.services[serviceIndex(m)].alive && canReach(c, from, m)) reached++;
  return isMajority(reached, s.members.length);
}

/** Whether some majority of the members is alive and reaches one another. */
export function hasMajority(c: Core, s: QuorumStore<unknown>): boolean {
  return s.members.some((m) => reachesMajority(c, s, m));
}

/**
 * A service or the network changed: a dead endpoint's operations are forgotten, the raft notices a
 * lost leader, and a leader whose store cannot commit (`working`) or reach (`endpointOf`) is lost.
 */
export function onStoreChange<B>(
  c: Core,
  out: Outputs,
  s: QuorumStore<B>,
  working: boolean,
  endpointOf: (c: Core, n: NodeState) => number,
  lostMajority: string,
): void {
  s.pending = s.pending.filter((op) => c.services[serviceIndex(op.via)].alive);
  checkLeader(c, s);
  const leader = currentLeader(c);
  if (!leader) return;
  if (!working) markLoss(c, out, leader, lostMajority);
  else if (!canReach(c, leader.idx, endpointOf(c, leader))) markLoss(c, out, leader, 'partitioned');
  armExpiry(c, s);
}

// ---------------------------------------------------------------- the store's own raft leader

/** The raft leader died or was cut off: the rest elect another (pre-vote, CheckQuorum) after a timeout. */
function checkLeader(c: Core, s: QuorumStore<unknown>): void {
  if (s.leader === null || s.leader === 0 || reachesMajority(c, s, s.leader)) return;
  s.leader = 0;
  // Each surviving member's timer runs from the last heartbeat it heard (up to one heartbeat ago)
  // to its own randomized [et, 2et); the first to run out campaigns, and (pre-vote, a majority
  // that also lost the leader) wins at once.
  const timers = s.members
    .filter((m) => c.services[serviceIndex(m)].alive)
    .map(() => nextInt(c.rngTimer, STORE_ELECTION_TIMEOUT_MS, 2 * STORE_ELECTION_TIMEOUT_MS - 1));
  const heardAgoMs = nextInt(c.rngTimer, 0, STORE_HEARTBEAT_MS - 1);
  const at = c.nowMs + Math.max(0, Math.min(...timers, 2 * STORE_ELECTION_TIMEOUT_MS) - heardAgoMs);
  scheduleStoreTimer(c, s, STORE_SLOT.election, at);
}

/** The members elect a raft leader, if one of them reaches a majority; else they try again. */
function onLeaderElection<B>(c: Core, out: Outputs, s: QuorumStore<B>, rules: StoreRules<B>): void {
  if (s.leader !== 0) return;
  const next = s.members.find((m) => reachesMajority(c, s, m));
  if (next === undefined)
    return scheduleStoreTimer(c, s, STORE_SLOT.election, c.nowMs + STORE_ELECTION_TIMEOUT_MS);
  s.leader = next;
  rules.promoted?.(c, out);
  // What waited for a leader commits now.
  retryPending(c, out, s, rules);
  armExpiry(c, s);
}

// ---------------------------------------------------------------- sessions and their expiry

export function openSession(c: Core, s: QuorumStore<unknown>, owner: number, ttlMs: number): StoreSession {
  const session: StoreSession = { id: ++s.sessionSeq, owner, ttlMs, expiresAtMs: c.nowMs + ttlMs };
  s.sessions.push(session);
  armExpiry(c, s);
  return session;
}

export function findSession(s: QuorumStore<unknown>, id: number): StoreSession | undefined {
  return s.sessions.find((x) => x.id === id);
}

/** The owner was heard from: its session's TTL starts over. Whether the session still exists. */
export function touchSession(c: Core, s: QuorumStore<unknown>, id: number): boolean {
  const session = findSession(s, id);
  if (session) session.expiresAtMs = c.nowMs + session.ttlMs;
  return session !== undefined;
}

/** Remove a session (revoked, closed or expired); its entries are the algorithm's to delete. */
export function dropSession(s: QuorumStore<unknown>, id: number): void {
  s.sessions = s.sessions.filter((x) => x.id !== id);
}

/** Arm the one expiry timer for the session that runs out first. */
export function armExpiry(c: Core, s: QuorumStore<unknown>): void {
  if (s.sessions.length === 0) return;
  scheduleStoreTimer(c, s, STORE_SLOT.expiry, Math.max(c.nowMs, nextExpiry(s)));
}

function nextExpiry(s: QuorumStore<unknown>): number {
  let next = Infinity;
  for (const x of s.sessions) if (x.expiresAtMs < next) next = x.expiresAtMs;
  return next;
}

/** Expire the sessions whose owners went unheard, if the store can commit; else look again later. */
function onExpiry<B>(c: Core, out: Outputs, s: QuorumStore<B>, rules: StoreRules<B>): void {
  if (s.leader !== 0 && hasMajority(c, s)) {
    for (const x of [...s.sessions]) {
      if (x.expiresAtMs > c.nowMs) continue;
      dropSession(s, x.id);
      rules.expired(c, out, x.id);
    }
  }
  if (s.sessions.length === 0) return;
  scheduleStoreTimer(c, s, STORE_SLOT.expiry, Math.max(c.nowMs + 100, nextExpiry(s)));
}

/** A majority back together gives every session a full TTL from now (after `extraMs`, if any). */
export function renewAllSessions(c: Core, s: QuorumStore<unknown>, extraMs = 0): void {
  for (const x of s.sessions) x.expiresAtMs = c.nowMs + extraMs + x.ttlMs;
}

// ---------------------------------------------------------------- timers

/** Arm one of the store's STORE_SLOT timers, kept on its first member. */
export function scheduleStoreTimer(c: Core, s: QuorumStore<unknown>, slot: number, atMs: number): void {
  scheduleServiceTimer(c, s.members[0], slot, atMs);
}

/** The algorithm's service hooks: store messages and timers here, clients' requests to the rules. */
export function storeHooks<B>(storeOf: (c: Core) => QuorumStore<B>, rules: StoreRules<B>) {
  return {
    onServiceMessage(c: Core, out: Outputs, endpoint: number, m: Message): void {
      // A member has the proposed operation: it says so to the coordinator.
      if (m.type === 'storeOp') send(c, endpoint, m.from, 'storeAck', m.term);
      else if (m.type === 'storeAck') onStoreAck(c, out, storeOf(c), rules, m);
      else rules.request(c, out, endpoint, m);
    },
    onServiceTimer(c: Core, out: Outputs, _service: number, slot: number): void {
      const s = storeOf(c);
      if (slot === STORE_SLOT.expiry) onExpiry(c, out, s, rules);
      else if (slot === STORE_SLOT.election) onLeaderElection(c, out, s, rules);
      else if (slot === STORE_SLOT.held) retryPending(c, out, s, rules);
    },
  };
}

// ---------------------------------------------------------------- entries and their watches

/** Delete the entries matching `gone`: if any went, a new revision, and their watchers told once. */
export function deleteEntries(
  c: Core,
  s: QuorumStore<unknown>,
  gone: (e: StoreEntry) => boolean,
  notify: (c: Core, watcher: number, entry: StoreEntry) => void,
): void {
  const deleted = s.entries.filter(gone);
  if (deleted.length === 0) return;
  s.entries = s.entries.filter((e) => !gone(e));
  s.revision++;
  for (const e of deleted) {
    for (const w of s.watches) {
      if (w.key !== e.key) continue;
      c.watchCounts.notifications++;
      notify(c, w.watcher, e);
    }
    s.watches = s.watches.filter((w) => w.key !== e.key);
  }
}

/** Set a watch on an entry if it is there; whether it is. */
export function watchEntry(s: QuorumStore<unknown>, watcher: number, key: number): boolean {
  if (!s.entries.some((e) => e.key === key)) return false;
  if (!s.watches.some((w) => w.watcher === watcher && w.key === key)) s.watches.push({ watcher, key });
  return true;
}

/** The election queue as the store holds it, lowest number first: the znode queue scene. */
export function queueOf(
  c: Core,
  s: QuorumStore<unknown>,
  how: Pick<QueueView, 'path' | 'numberName' | 'watch' | 'watchReads'> & { name: (e: StoreEntry) => string },
): QueueView {
  const entries: QueueEntryView[] = [...s.entries]
    .sort((x, y) => x.number - y.number)
    .map((e) => ({
      number: e.number,
      name: how.name(e),
      owner: nodeName(c, e.owner),
      token: e.token,
      expiresAtMs: findSession(s, e.session)?.expiresAtMs ?? -1,
      watchers: s.watches.filter((w) => w.key === e.key).map((w) => nodeName(c, w.watcher)),
    }));
  return {
    path: how.path,
    numberName: how.numberName,
    watch: how.watch,
    entries,
    watchNotifications: c.watchCounts.notifications,
    watchReads: how.watchReads,
  };
}
