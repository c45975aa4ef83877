// Leader election with etcd's election API: the candidate (candidates/etcdCandidate.ts) on the
// engine's core, against three etcd members; an expired lease's key goes with it. Every operation
// commits on a majority of the members while they have a raft leader: when it dies or is cut off,
// nothing commits until the rest elect one after etcd's election timeout, and the new leader
// extends every lease by that timeout (lessor.Promote), as etcd does.
import type { ElectionAlgorithm } from '../algorithm';
import { ALGORITHM_INFO } from './info';
import { etcdElectionPage } from './pages/etcdElection';
import { armAtLocal, renewalLatency, settingsFor, stateViews, timerSlots } from './kit';
import { bodyOf, cancelTimer, due, localNow, realAtLocal, scheduleTimer, serviceEndpoints } from '../core';
import type { Core, NodeState, Outputs } from '../core';
import type { Experiment } from '../experiment';
import { bringDown } from '../faults';
import { acquire, beginWarmUp, campaigned, release, renewed } from '../leadership';
import { send } from '../network';
import { nextInt } from '../rng';
import * as candidate from '../candidates/etcdCandidate';
import type {
  CandidateIO,
  CandidateTimer,
  EtcdCandidate,
  EtcdOp,
  EtcdReply,
} from '../candidates/etcdCandidate';
import {
  STORE_ELECTION_TIMEOUT_MS,
  STORE_SLOT,
  createStore,
  deleteEntries,
  dropSession,
  findSession,
  hasMajority,
  onStoreChange,
  openSession,
  propose,
  queueOf,
  renewAllSessions,
  scheduleStoreTimer,
  storeHooks,
  touchSession,
  tryCommit,
  watchEntry,
  type StoreEntry,
  type StoreOp,
  type StoreRules,
} from '../services/quorumStore';

export type { EtcdOp, EtcdReply } from '../candidates/etcdCandidate';

declare module '../core' {
  interface MessageBodies {
    etcdRequest: EtcdOp;
    sessionKeepAlive: EtcdOp;
    etcdReply: EtcdReply;
    watchEvent: EtcdReply;
  }
}

const initEtcdShared = (e: Experiment) => ({
  settings: settingsFor(e, 'etcd'),
  /** The etcd cluster: its members, leases (sessions), keys (entries) and raft leader. */
  store: createStore<EtcdOp>(serviceEndpoints(ALGORITHM_INFO['etcd-election'].services, 'etcdMember'), {
    withLeader: true,
    revision: 1,
  }),
});

export type EtcdShared = ReturnType<typeof initEtcdShared>;

const ET = timerSlots<CandidateTimer>('keepAlive', 'sessionDeadline', 'request', 'retry');

const { st, shared, cfg } = stateViews<EtcdCandidate, EtcdShared>();
const store = (c: Core) => shared(c).store;

/** Host nK runs member mK beside it. */
const memberOf = (c: Core, n: NodeState): number => store(c).members[n.idx % store(c).members.length];

// ---------------------------------------------------------------- what etcd does on the store

function emptyReply(op: EtcdOp['op']): EtcdReply {
  return { op, lease: 0, ttlMs: 0, key: 0, rev: 0, storeRev: 0 };
}

function apply(c: Core, body: EtcdOp, client: number): EtcdReply {
  const a = shared(c);
  const s = a.store;
  const reply = emptyReply(body.op);
  // The simulator names leases and keys by number (the lease's id): what the candidate sends back.
  const id = 'lease' in body ? (body.lease as number) : 'key' in body ? (body.key as number) : 0;
  switch (body.op) {
    case 'grant': {
      const lease = openSession(c, s, client, a.settings.ttlMs);
      reply.lease = lease.id;
      reply.ttlMs = lease.ttlMs;
      break;
    }
    case 'keepAlive':
      reply.lease = body.lease;
      reply.ttlMs = touchSession(c, s, id) ? findSession(s, id)!.ttlMs : -1;
      break;
    case 'create': {
      // Txn: if the key's create revision is 0 (it does not exist), put it bound to the lease.
      reply.key = body.lease;
      const existing = s.entries.find((k) => k.key === id);
      if (existing) reply.rev = existing.number;
      else if (findSession(s, id)) {
        const rev = ++s.revision;
        s.entries.push({ key: id, session: id, owner: client, number: rev, token: rev });
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
      if (watchEntry(s, client, id)) reply.rev = 1;
      break;
    case 'delete':
      deleteKey(c, id);
      break;
    case 'revoke':
      dropSession(s, id);
      deleteKey(c, id);
      break;
  }
  reply.storeRev = s.revision;
  return reply;
}

/** Delete a lease's key: a new revision, and each watcher hears of it from its own member. */
function deleteKey(c: Core, lease: number): void {
  deleteEntries(c, store(c), (k) => k.key === lease, notifyDeleted);
}

function notifyDeleted(c: Core, watcher: number, k: StoreEntry): void {
  const r = send(c, memberOf(c, c.nodes[watcher]), watcher, 'watchEvent', 0);
  r.body = { ...emptyReply('watch'), key: k.key, storeRev: store(c).revision } satisfies EtcdReply;
}

const ETCD_RULES: StoreRules<EtcdOp> = {
  request: (c, out, member, m) => {
    const s = store(c);
    const body = bodyOf(m, 'etcdRequest');
    const op: StoreOp<EtcdOp> = { id: m.id, client: m.from, via: member, body, acks: [member] };
    // A client's keep-alives share one stream served in order: a later one waits behind a held renewal.
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
  },
  commit: (c, _out, op) => {
    const reply = apply(c, op.body, op.client);
    const r = send(c, op.via, op.client, 'etcdReply', 0);
    r.round = op.id;
    r.body = reply;
  },
  // An expired lease's key goes with it.
  expired: (c, _out, lease) => deleteKey(c, lease),
  /**
   * lessor.Promote: every lease starts over from its TTL plus an election timeout. A renewal that
   * waited through the election goes on an election timeout later: a member forwarding renewals
   * (LeaseRenew) that finds no leader waits that long before it looks again (waitLeader).
   */
  promoted: (c) => {
    const s = store(c);
    renewAllSessions(c, s, STORE_ELECTION_TIMEOUT_MS);
    let held = false;
    for (const op of s.pending)
      if (op.body.op === 'keepAlive') {
        op.heldUntilMs = c.nowMs + STORE_ELECTION_TIMEOUT_MS;
        held = true;
      }
    if (held) scheduleStoreTimer(c, s, STORE_SLOT.held, c.nowMs + STORE_ELECTION_TIMEOUT_MS);
  },
};

// ---------------------------------------------------------------- the candidate's runtime

/** The candidate's IO on the engine: one object serves every call, `bound` naming the node and run. */
const bound: { c: Core; out: Outputs; n: NodeState } = { c: null!, out: null!, n: null! };

const io: CandidateIO = {
  nowMs: () => bound.c.nowMs,
  localNowMs: () => localNow(bound.c, bound.n),
  reached: (atLocalMs) => due(bound.c, bound.n, atLocalMs),
  request: (op) => {
    const { c, n } = bound;
    const m = send(c, n.idx, memberOf(c, n), 'etcdRequest', 0);
    m.body = op;
    return m.id;
  },
  keepAlive: (lease) => {
    const { c, n } = bound;
    const m = send(c, n.idx, memberOf(c, n), 'sessionKeepAlive', 0);
    m.body = { op: 'keepAlive', lease } satisfies EtcdOp;
  },
  setTimer: (slot, atLocalMs) => armAtLocal(bound.c, bound.n, ET[slot], atLocalMs),
  cancelTimer: (slot) => cancelTimer(bound.n, ET[slot]),
  campaigned: () => campaigned(bound.c, bound.out, bound.n, 0),
  acquired: (token) => {
    const { c, out, n } = bound;
    n.term = token;
    acquire(c, out, n, token, null);
    beginWarmUp(c, n);
  },
  released: (reason) => void release(bound.c, bound.out, bound.n, reason),
  renewed: () => renewed(bound.c, bound.out, bound.n),
  exited: () => bringDown(bound.c, bound.n),
};

/** Bind the IO to this node, for one of the candidate machine's inputs. */
function step(c: Core, out: Outputs, n: NodeState): CandidateIO {
  bound.c = c;
  bound.out = out;
  bound.n = n;
  return io;
}

export const etcdElection: ElectionAlgorithm = {
  ...ALGORITHM_INFO['etcd-election'],
  page: etcdElectionPage,
  timerSlots: 4,
  initNode: () => candidate.initCandidate(),
  initShared: initEtcdShared,
  // Candidates start a little apart.
  boot: (c, _out, n) => scheduleTimer(c, n, ET.retry, nextInt(c.rngTimer, 0, 300)),
  onTimer: (c, out, n, slot) => {
    const p = st(n);
    const io = step(c, out, n);
    if (slot === ET.keepAlive) return candidate.onKeepAliveTimer(p, cfg(c), io);
    if (slot === ET.sessionDeadline) return candidate.onSessionDeadline(p, cfg(c), io);
    if (slot === ET.request) return candidate.onRequestTimeout(p, cfg(c), io);
    if (slot === ET.retry) return candidate.onRetry(p, cfg(c), io);
  },
  onMessage: (c, out, n, m) => {
    const r = bodyOf(m, 'etcdReply');
    const io = step(c, out, n);
    if (m.type === 'watchEvent') return candidate.onWatchEvent(st(n), cfg(c), io, r.key);
    if (r.op === 'keepAlive') return candidate.onKeepAliveReply(st(n), cfg(c), io, r);
    candidate.onReply(st(n), cfg(c), io, m.round as number, r);
  },
  ...storeHooks(store, ETCD_RULES),
  onNetworkChange: (c, out) =>
    onStoreChange(c, out, store(c), hasMajority(c, store(c)), memberOf, 'the store lost its majority'),
  onKill: (_c, n) => candidate.onKilled(st(n)),
  onRestart: (c, out, n) => candidate.newSession(st(n), cfg(c), step(c, out, n)),
  // Resign: revoke the lease (the key goes with it), then exit.
  onStop: (c, out, n) => candidate.resign(st(n), cfg(c), step(c, out, n)),
  // Re-arming timers emits nothing: the kernel's outputs are not needed (this hook has none).
  onClockRate: (c, n) => candidate.onClockChanged(st(n), cfg(c), step(c, null!, n)),
  campaign: (c, out, n) => candidate.onRetry(st(n), cfg(c), step(c, out, n)),
  renewalLatencyMs: (c, leader, at) =>
    renewalLatency(
      st(leader).renewLatencyMs,
      st(leader).lastKeepAliveRealMs,
      candidate.keepAliveEveryMs(cfg(c)),
      at,
    ),
  nodeView: (c, n) => {
    const p = st(n);
    const deadlineAtMs =
      n.alive && p.lease !== 0
        ? realAtLocal(c, n, p.lastKeepAliveLocalMs + candidate.sessionDeadlineMs(cfg(c)))
        : -1;
    return { deadlineAtMs, lastRenewAtMs: p.lastKeepAliveRealMs };
  },
  // The election's keys by create revision: the same queue as ZooKeeper's, for the znode queue scene.
  queueView: (c) =>
    queueOf(c, store(c), {
      path: 'election/',
      numberName: 'create revision',
      watch: 'predecessor',
      watchReads: null,
      // The Go client names the key by its lease id in hex.
      name: (k) => `election/${k.key.toString(16)}`,
    }),
};
