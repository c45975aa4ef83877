// ZooKeeper's leader-election recipe (zookeeper-docs recipes.md, "Leader Election") with the
// programmer's guide's session rules: a candidate's session with the ensemble (three servers, a
// majority for every write) is kept alive by pings about every third of its timeout; it creates an
// EPHEMERAL_SEQUENTIAL znode under /election, the lowest leads, and every other watches its
// predecessor (`exists` with a watch) or, with the `leader` setting, the leader's znode, waking the
// whole herd on every change. A session unheard for its timeout expires with its znode; the client
// learns it only on hearing from the ensemble again, so a paused leader can believe it leads after
// its znode is gone. The token is the leader znode's czxid.
import type { ElectionAlgorithm } from '../algorithm';
import { ALGORITHM_INFO } from './info';
import { zookeeperPage } from './pages/zookeeper';
import { armAtLocal, armIn, cancelTimers, renewalLatency, settingsFor, stateViews, timerSlots } from './kit';
import { bodyOf, cancelTimer, localNow, realAtLocal, scheduleTimer, serviceEndpoints } from '../core';
import type { Core, Message, NodeState, Outputs } from '../core';
import type { Experiment } from '../experiment';
import { bringDown } from '../faults';
import { acquire, beginWarmUp, campaigned, release, renewed } from '../leadership';
import { send } from '../network';
import { nextInt } from '../rng';
import {
  createStore,
  deleteEntries,
  dropSession,
  findSession,
  hasMajority,
  onStoreChange,
  openSession,
  propose,
  queueOf,
  reachesMajority,
  renewAllSessions,
  storeHooks,
  touchSession,
  tryCommit,
  watchEntry,
  type StoreEntry,
  type StoreOp,
  type StoreRules,
} from '../services/quorumStore';

export type ZkOp =
  | { op: 'connect'; session: number }
  | { op: 'ping'; session: number }
  | { op: 'create'; session: number }
  | { op: 'children' }
  | { op: 'watch'; seq: number }
  | { op: 'close'; session: number };

declare module '../core' {
  interface MessageBodies {
    zkRequest: ZkOp;
    zkPing: ZkOp;
    zkReply: ZkReply;
    zkWatch: ZkReply;
  }
}

export interface ZkReply {
  op: ZkOp['op'];
  /** connect: the session (0: refused); ping: false when the session has expired. */
  session: number;
  ok: boolean;
  /** create: the znode's sequence number and czxid; watch: the watched znode's sequence. */
  seq: number;
  czxid: number;
  /** children: the sequence numbers under /election, lowest first. */
  children: number[];
}

const initZkShared = (e: Experiment) => ({
  settings: settingsFor(e, 'zookeeper'),
  store: createStore<ZkOp>(serviceEndpoints(ALGORITHM_INFO.zookeeper.services, 'zkServer')),
  seqCounter: 0,
  /** Whether a majority of the servers reach each other (the ensemble has a leader and serves). */
  quorum: true,
});

export type ZkShared = ReturnType<typeof initZkShared>;

const ZT = timerSlots('ping', 'readTimeout', 'request', 'retry');

type Phase = 'connecting' | 'creating' | 'listing' | 'watching' | 'leading' | 'stopping' | 'idle';

const initZkNode = (_e: unknown, idx: number) => ({
  phase: 'idle' as Phase,
  session: 0,
  /** Its server's index in the ensemble: it moves on when one is silent. */
  server: idx,
  seq: 0,
  czxid: 0,
  watching: 0,
  requestId: -1,
  /** Own-clock time it last heard its server; silence for 2/3 of the timeout means disconnected. */
  lastHeardLocalMs: 0,
  lastHeardRealMs: -1,
  pingSentRealMs: 0,
  renewLatencyMs: 0,
  /** The next getChildren counts as a read a watch notification triggered. */
  notified: false,
});

export type ZkNode = ReturnType<typeof initZkNode>;

const { st, shared, cfg } = stateViews<ZkNode, ZkShared>();
const store = (c: Core) => shared(c).store;

// ---------------------------------------------------------------- the ensemble

/** Writes (and session changes) commit on a majority of the servers; reads are local. */
function isWrite(body: ZkOp): boolean {
  return body.op === 'create' || body.op === 'close' || body.op === 'connect';
}

function reply(c: Core, server: number, client: number, id: number, body: ZkReply): void {
  const r = send(c, server, client, 'zkReply', 0);
  r.round = id;
  r.body = body;
}

function apply(c: Core, body: ZkOp, client: number): ZkReply {
  const a = shared(c);
  const s = a.store;
  const r: ZkReply = { op: body.op, session: 0, ok: true, seq: 0, czxid: 0, children: [] };
  switch (body.op) {
    case 'connect':
    case 'ping':
      if (body.op === 'connect' && body.session === 0) {
        r.session = openSession(c, s, client, a.settings.sessionTimeoutMs).id;
        break;
      }
      // A reconnection or a ping: an expired session is refused (the client learns it now).
      r.session = body.session;
      r.ok = findSession(s, body.session) !== undefined;
      break;
    case 'create': {
      if (!findSession(s, body.session)) {
        r.ok = false;
        break;
      }
      r.seq = ++a.seqCounter;
      // The znode's czxid: the create's zxid, the store's next revision.
      r.czxid = ++s.revision;
      s.entries.push({ key: r.seq, session: body.session, owner: client, number: r.seq, token: r.czxid });
      break;
    }
    case 'children':
      r.children = s.entries.map((z) => z.number).sort((x, y) => x - y);
      break;
    case 'watch':
      // exists(path, watch): set the watch if the znode is there; answer whether it is.
      r.seq = body.seq;
      r.ok = watchEntry(s, client, body.seq);
      break;
    case 'close':
      dropSession(s, body.session);
      endSession(c, body.session);
      break;
  }
  return r;
}

function endSession(c: Core, session: number): void {
  deleteEntries(c, store(c), (z) => z.session === session, notifyDeleted);
}

function notifyDeleted(c: Core, watcher: number, z: StoreEntry): void {
  const m = send(c, serverOf(c, c.nodes[watcher]), watcher, 'zkWatch', 0);
  m.body = { op: 'watch', session: 0, ok: false, seq: z.key, czxid: 0, children: [] } satisfies ZkReply;
}

const ZK_RULES: StoreRules<ZkOp> = {
  request: (c, out, server, m) => {
    const s = store(c);
    const body = bodyOf(m, 'zkRequest');
    // A server outside a majority serves no client (no leader; read-only mode is off by default).
    if (!reachesMajority(c, s, server)) return;
    // Any word from the client keeps its session alive on the ensemble.
    if ('session' in body) touchSession(c, s, body.session);
    if (!isWrite(body)) return reply(c, server, m.from, m.id, apply(c, body, m.from));
    const op: StoreOp<ZkOp> = { id: m.id, client: m.from, via: server, body, acks: [server] };
    propose(c, s, op);
    tryCommit(c, out, s, ZK_RULES, op);
  },
  commit: (c, _out, op) => reply(c, op.via, op.client, op.id, apply(c, op.body, op.client)),
  expired: (c, _out, session) => endSession(c, session),
};

// ---------------------------------------------------------------- a candidate

const serverOf = (c: Core, n: NodeState): number => store(c).members[st(n).server % store(c).members.length];

function request(c: Core, n: NodeState, body: ZkOp, type: 'zkRequest' | 'zkPing' = 'zkRequest'): void {
  const m = send(c, n.idx, serverOf(c, n), type, 0);
  m.body = body;
  if (type === 'zkPing') {
    st(n).pingSentRealMs = c.nowMs;
    return;
  }
  st(n).requestId = m.id;
  armIn(c, n, ZT.request, readTimeoutMs(c));
}

const readTimeoutMs = (c: Core): number => Math.floor((cfg(c).sessionTimeoutMs * 2) / 3);
const pingEveryMs = (c: Core): number => Math.floor(cfg(c).sessionTimeoutMs / 3);

/** The request each phase that waits on the ensemble makes. */
const REQUEST_OF: Partial<Record<Phase, (p: ZkNode) => ZkOp>> = {
  connecting: (p) => ({ op: 'connect', session: p.session }),
  creating: (p) => ({ op: 'create', session: p.session }),
  listing: () => ({ op: 'children' }),
  watching: (p) => ({ op: 'watch', seq: p.watching }),
  stopping: (p) => ({ op: 'close', session: p.session }),
};

function enter(c: Core, out: Outputs, n: NodeState, phase: Phase): void {
  const p = st(n);
  p.phase = phase;
  if (phase === 'creating') campaigned(c, out, n, 0);
  if (phase === 'listing') p.watching = 0;
  request(c, n, REQUEST_OF[phase]!(p));
}

function heard(c: Core, n: NodeState): void {
  const p = st(n);
  p.lastHeardLocalMs = localNow(c, n);
  p.lastHeardRealMs = c.nowMs;
  armAtLocal(c, n, ZT.readTimeout, p.lastHeardLocalMs + readTimeoutMs(c));
}

function onReply(c: Core, out: Outputs, n: NodeState, m: Message): void {
  const p = st(n);
  const r = bodyOf(m, 'zkReply');
  heard(c, n);
  if (r.op === 'ping') return onPingReply(c, out, n, r);
  if (m.round !== p.requestId) return;
  cancelTimer(n, ZT.request);
  switch (r.op) {
    case 'connect':
      // Only now, hearing from the ensemble again, does a client learn that its session expired.
      if (!r.ok) return sessionExpired(c, out, n);
      if (p.phase === 'leading') return schedulePing(c, n); // reconnected, still the leader
      if (p.phase !== 'connecting') return;
      schedulePing(c, n);
      if (p.session !== 0 && p.session === r.session && p.seq !== 0) return enter(c, out, n, 'listing'); // same session: carry on
      p.session = r.session;
      return enter(c, out, n, 'creating');
    case 'create':
      if (p.phase !== 'creating') return;
      if (!r.ok) return sessionExpired(c, out, n);
      p.seq = r.seq;
      p.czxid = r.czxid;
      return enter(c, out, n, 'listing');
    case 'children': {
      if (p.phase !== 'listing') return;
      if (p.notified) {
        c.watchCounts.reads++;
        p.notified = false;
      }
      const i = r.children.indexOf(p.seq);
      if (i < 0) return sessionExpired(c, out, n); // its znode is gone: the session expired
      if (i === 0) return lead(c, out, n);
      // Watch the predecessor (the recipe), or the leader (the herd effect).
      p.watching = cfg(c).watch === 'predecessor' ? r.children[i - 1] : r.children[0];
      return enter(c, out, n, 'watching');
    }
    case 'watch':
      if (p.phase === 'watching' && !r.ok) enter(c, out, n, 'listing'); // it was gone already
      return;
    case 'close':
      if (p.phase === 'stopping') finishStop(c, n);
      return;
  }
}

function onWatch(c: Core, out: Outputs, n: NodeState, m: Message): void {
  const p = st(n);
  heard(c, n);
  const r = bodyOf(m, 'zkReply');
  if (p.phase !== 'watching' || r.seq !== p.watching) return;
  p.notified = true;
  enter(c, out, n, 'listing');
}

function lead(c: Core, out: Outputs, n: NodeState): void {
  const p = st(n);
  p.phase = 'leading';
  n.term = p.czxid;
  acquire(c, out, n, p.czxid, null);
  beginWarmUp(c, n);
}

// ---------------------------------------------------------------- the session

const schedulePing = (c: Core, n: NodeState): void => void armIn(c, n, ZT.ping, pingEveryMs(c));

function onPingTimer(c: Core, n: NodeState): void {
  const p = st(n);
  if (p.session === 0 || p.phase === 'connecting' || p.phase === 'idle') return;
  request(c, n, { op: 'ping', session: p.session }, 'zkPing');
  schedulePing(c, n);
}

function onPingReply(c: Core, out: Outputs, n: NodeState, r: ZkReply): void {
  const p = st(n);
  if (r.session !== p.session) return;
  if (!r.ok) return sessionExpired(c, out, n);
  p.renewLatencyMs = c.nowMs - p.pingSentRealMs;
  if (p.phase === 'leading') renewed(c, out, n);
}

/** Silence for 2/3 of the timeout: disconnected. It tries the next server; its session may live on. */
function onReadTimeout(c: Core, n: NodeState): void {
  const p = st(n);
  if (p.session === 0 || p.phase === 'idle' || p.phase === 'stopping') return;
  p.server++;
  // The leader does not know its session's fate while disconnected: it keeps believing it leads.
  if (p.phase !== 'leading') cancelTimer(n, ZT.request);
  const m = send(c, n.idx, serverOf(c, n), 'zkRequest', 0);
  m.body = { op: 'connect', session: p.session } satisfies ZkOp;
  p.requestId = m.id;
  if (p.phase !== 'leading') p.phase = 'connecting';
  armIn(c, n, ZT.readTimeout, readTimeoutMs(c));
}

function forget(p: ZkNode): void {
  p.phase = 'idle';
  p.session = 0;
  p.seq = 0;
  p.czxid = 0;
  p.watching = 0;
}

/** The client hears that its session expired: a leader stops; it starts over with a new session. */
function sessionExpired(c: Core, out: Outputs, n: NodeState): void {
  const p = st(n);
  if (p.phase === 'leading') release(c, out, n, 'session expired');
  cancelTimers(n, ZT.ping, ZT.request);
  forget(p);
  armIn(c, n, ZT.retry, pingEveryMs(c));
}

/** No answer in time: a stop ends; a connection tries the next server; any other request goes again. */
function onRequestTimeout(c: Core, out: Outputs, n: NodeState): void {
  const p = st(n);
  if (p.phase === 'stopping') return finishStop(c, n);
  if (p.phase === 'connecting') p.server++;
  if (REQUEST_OF[p.phase]) enter(c, out, n, p.phase);
}

function finishStop(c: Core, n: NodeState): void {
  st(n).phase = 'idle';
  st(n).session = 0;
  bringDown(c, n);
}

export const zookeeper: ElectionAlgorithm = {
  ...ALGORITHM_INFO['zookeeper'],
  page: zookeeperPage,
  timerSlots: 4,
  initNode: initZkNode,
  initShared: initZkShared,
  boot: (c, _out, n) => scheduleTimer(c, n, ZT.retry, nextInt(c.rngTimer, 0, 300)),
  onTimer: (c, out, n, slot) => {
    if (slot === ZT.ping) return onPingTimer(c, n);
    if (slot === ZT.readTimeout) return onReadTimeout(c, n);
    if (slot === ZT.request) return onRequestTimeout(c, out, n);
    if (slot === ZT.retry && st(n).phase === 'idle') return enter(c, out, n, 'connecting');
  },
  onMessage: (c, out, n, m) => {
    if (m.type === 'zkReply') onReply(c, out, n, m);
    else if (m.type === 'zkWatch') onWatch(c, out, n, m);
  },
  ...storeHooks(store, ZK_RULES),
  onNetworkChange: (c, out) => {
    const a = shared(c);
    const quorum = hasMajority(c, a.store);
    // A majority back together elects a leader of its own, which gives every session a full
    // timeout from now (SessionTrackerImpl tracks each anew): none expires for the outage itself.
    if (quorum && !a.quorum) renewAllSessions(c, a.store);
    a.quorum = quorum;
    onStoreChange(c, out, a.store, quorum, serverOf, 'the ensemble lost its majority');
  },
  onKill: (_c, n) => {
    forget(st(n));
    st(n).notified = false;
  },
  onRestart: (c, out, n) => enter(c, out, n, 'connecting'),
  onStop: (c, out, n) => {
    // Close the session: its ephemeral znode goes at once, then the process exits.
    const p = st(n);
    if (p.phase === 'leading') release(c, out, n, 'stopped');
    cancelTimer(n, ZT.ping);
    if (p.session === 0) return finishStop(c, n);
    enter(c, out, n, 'stopping');
  },
  onClockRate: (c, n) => {
    const p = st(n);
    if (p.session !== 0) {
      schedulePing(c, n);
      armAtLocal(c, n, ZT.readTimeout, p.lastHeardLocalMs + readTimeoutMs(c));
    }
  },
  campaign: (c, out, n) => {
    if (st(n).phase === 'idle') enter(c, out, n, 'connecting');
  },
  renewalLatencyMs: (c, leader, at) =>
    renewalLatency(st(leader).renewLatencyMs, st(leader).lastHeardRealMs, pingEveryMs(c), at),
  nodeView: (c, n) => {
    const p = st(n);
    return {
      deadlineAtMs:
        n.alive && p.session !== 0 ? realAtLocal(c, n, p.lastHeardLocalMs + readTimeoutMs(c)) : -1,
      lastRenewAtMs: p.lastHeardRealMs,
    };
  },
  // The znode queue as the ensemble holds it: what the znode queue scene draws.
  queueView: (c) =>
    queueOf(c, store(c), {
      path: '/election',
      numberName: 'sequence number',
      watch: cfg(c).watch,
      watchReads: c.watchCounts.reads,
      // ZooKeeper appends the sequence to the name the client gives, padded to ten digits.
      name: (z) => `/election/n_${String(z.number).padStart(10, '0')}`,
    }),
};
