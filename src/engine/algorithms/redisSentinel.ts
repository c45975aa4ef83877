// Redis Sentinel (redis.io/docs/latest/operate/oss_and_stack/management/sentinel/, and the rules of
// src/sentinel.c): the nodes are Redis servers, one primary and its replicas; three sentinels
// (services s1..s3) decide who is primary. Each sentinel pings every server every second and
// calls the primary subjectively down (SDOWN) when no valid reply came for down-after-milliseconds;
// it then asks the other sentinels, and the primary is objectively down (ODOWN) once `quorum`
// sentinels, itself included, say so. A sentinel that sees ODOWN starts a failover in a new epoch
// and asks for votes (one vote per sentinel per epoch, first come); with votes from a majority of
// the sentinels and at least `quorum`, it promotes the replica with the largest replication offset
// (REPLICAOF NO ONE) and points the others at it. The epoch is the configuration's version, not a
// token anyone checks: an isolated old primary keeps taking writes and, once back, is made a replica
// that drops every write the new primary never had. `min-replicas-to-write` bounds that loss: a
// primary with fewer replicas acknowledging within `min-replicas-max-lag` refuses writes.
import type { ElectionAlgorithm } from '../algorithm';
import { ALGORITHM_INFO } from './info';
import { pacemakerPage, redisSentinelPage } from './pages/redisSentinel';
import { armIn, majorityOf, settingsFor, stateViews } from './kit';
import {
  ALG_SLOT,
  bodyOf,
  emit,
  localNow,
  realAtLocal,
  nodeName,
  scheduleServiceTimer,
  scheduleTimer,
  serviceEndpoints,
  serviceIndex,
} from '../core';
import type { Core, Message, NodeState, Outputs } from '../core';
import type { Experiment, SentinelSettings } from '../experiment';
import {
  acquire,
  beginWarmUp,
  currentLeader,
  markLoss,
  mayAct,
  campaigned,
  onWriteTick,
  release,
} from '../leadership';
import { bringDown } from '../faults';
import { canReach, send } from '../network';
import { noteWritesLost } from '../ledger';
import { nextInt } from '../rng';

/** sentinel.c's periods: PING every second, is-master-down-by-addr every second, hello every 2 s. */
export const PING_PERIOD_MS = 1000;
const HELLO_PERIOD_MS = 2000;
/** A replica's REPLCONF ACK to its primary: once a second (replicationCron). */
export const ACK_PERIOD_MS = 1000;
/** SENTINEL_ELECTION_TIMEOUT: a candidate that has not won its epoch in this long gives up. */
export const ELECTION_TIMEOUT_MS = 10_000;
/** SENTINEL_MAX_DESYNC: the random part of a failover's start time, so sentinels rarely tie. */
const MAX_DESYNC_MS = 1000;
/** A replica is a promotion candidate only if it answered a ping within 5 ping periods. */
const REPLY_VALIDITY_MS = 5 * PING_PERIOD_MS;
/** A sentinel's "the primary is down" answer counts for ODOWN for 5 ask periods. */
const DOWN_REPLY_VALIDITY_MS = 5 * PING_PERIOD_MS;
/** SENTINEL_PUBLISH_PERIOD x 4: how long a server reports a wrong role before a sentinel reconfigures it. */
export const RECONF_WAIT_MS = 4 * HELLO_PERIOD_MS;
const MAX_PROMOTIONS = 256;

// The sentinels are services 1..3 (storage is 0). Pacemaker's cluster managers stand where they do:
// info.ts lists them first in both (tests/unit/engine/registry.test.ts holds it).
const SENTINELS = serviceEndpoints(ALGORITHM_INFO['redis-sentinel'].services, 'sentinel');
/** Pacemaker's fence device (service 4), reached by the observers over the network. */
const FENCE_DEVICE = serviceEndpoints(ALGORITHM_INFO.pacemaker.services, 'fenceDevice')[0];
const TICK_SLOT = 0;
/** A sentinel's next look at an ODOWN primary, where it may start a failover. */
const START_SLOT = 1;

const RT = { ack: ALG_SLOT } as const;

const initRedisNode = (e: Experiment, idx: number) => ({
  /** The server it replicates, or -1 when it is a primary. */
  primaryOf: idx === 0 ? -1 : 0,
  /** Its data set: the epoch of the primary whose history it holds, and its replication offset. */
  lineage: 0,
  offset: 0,
  /** As a primary: each replica's last REPLCONF ACK, on its own clock (-1: none). */
  ackLocalMs: new Array<number>(e.nodes + (e.witness ? 1 : 0)).fill(-1),
  lastAckRealMs: -1,
});

export type RedisNode = ReturnType<typeof initRedisNode>;

/** What a server says about itself in a PING / INFO reply. */
type Report = Pick<RedisNode, 'primaryOf' | 'lineage' | 'offset'> & { role: 'primary' | 'replica' };

export type SentinelFailover = 'none' | 'waitStart' | 'waitFence' | 'waitPromotion';

const initSentinel = (nodes: number) => ({
  /** The configuration it believes: the primary and the epoch that made it so. */
  primary: 0,
  configEpoch: 0,
  currentEpoch: 0,
  /** Per server: the last valid reply (real time), what it reported, and since when that role. */
  lastOkMs: new Array<number>(nodes).fill(0),
  reported: new Array<Report | null>(nodes).fill(null),
  roleSinceMs: new Array<number>(nodes).fill(0),
  sdown: false,
  /** Per sentinel: when it last answered "down" (-1: it said up), and whom it voted for in which epoch. */
  downAtMs: SENTINELS.map(() => -1),
  voteFor: SENTINELS.map(() => -1),
  voteEpoch: SENTINELS.map(() => 0),
  /** Its own vote: for which sentinel (index), in which epoch. */
  leader: -1,
  leaderEpoch: 0,
  failover: 'none' as SentinelFailover,
  failoverEpoch: 0,
  // Long enough ago that the first ODOWN may start a failover at once.
  failoverStartMs: -1e12,
  stateSinceMs: 0,
  promoted: -1,
  ticks: 0,
  /** When its next look at an ODOWN primary is due (-1: none pending). */
  startAtMs: -1,
  /** Fence requests that timed out unconfirmed (each retried: no promotion meanwhile). */
  fenceTimeouts: 0,
});

export type SentinelState = ReturnType<typeof initSentinel>;

const initRedisShared = (e: Experiment) => ({
  settings: settingsOf(e),
  sentinels: SENTINELS.map(() => initSentinel(e.nodes)),
  /** Each promotion: the epoch it started, and the promoted replica's data set at that moment. */
  promotions: [] as { epoch: number; fromLineage: number; fromOffset: number }[],
  /** STONITH (the pacemaker kind): how long to wait for the fence device to confirm; 0: no fencing. */
  stonithTimeoutMs: e.algorithm === 'pacemaker' && e.stonith ? e.stonith.timeoutMs : 0,
});

export type RedisShared = ReturnType<typeof initRedisShared>;

type Body =
  | { op: 'pong'; report: Report }
  | { op: 'isMasterDown'; epoch: number; candidate: number }
  | { op: 'downReply'; down: boolean; leader: number; leaderEpoch: number }
  | { op: 'hello'; primary: number; configEpoch: number }
  | { op: 'replicaOf'; primary: number; epoch: number }
  | { op: 'replicate'; lineage: number; offset: number; full: boolean }
  | { op: 'ack'; lineage: number; offset: number }
  | { op: 'fence'; target: number }
  | { op: 'fenced'; target: number };

declare module '../core' {
  interface MessageBodies {
    sentinelPong: Body;
    isMasterDown: Body;
    isMasterDownReply: Body;
    sentinelHello: Body;
    replicaOf: Body;
    replicate: Body;
    replAck: Body;
    fence: Body;
    fenced: Body;
  }
}

const { st, shared, cfg } = stateViews<RedisNode, RedisShared>();
/** The sentinel (its index) at an endpoint. */
const sentinelAt = (endpoint: number) => SENTINELS.indexOf(endpoint);
const alive = (c: Core, endpoint: number) => c.services[serviceIndex(endpoint)].alive;

function settingsOf(e: Experiment): SentinelSettings {
  if (e.algorithm !== 'pacemaker') return settingsFor(e, 'sentinel');
  // Pacemaker on the same observers: a majority of the three must agree (votequorum), a node is
  // lost after Corosync's token timeout, and a stuck promotion is given the fencing timeout.
  const stonith = settingsFor(e, 'stonith');
  return {
    quorum: 2,
    downAfterMs: stonith.tokenMs,
    failoverTimeoutMs: stonith.timeoutMs,
    minReplicasToWrite: 0,
    minReplicasMaxLagMs: 10_000,
  };
}

function sendBody(c: Core, from: number, to: number, type: Message['type'], term: number, body: Body): void {
  send(c, from, to, type, term).body = body;
}

function toOtherSentinels(c: Core, s: number, type: Message['type'], term: number, body: Body): void {
  for (let o = 0; o < SENTINELS.length; o++)
    if (o !== s) sendBody(c, SENTINELS[s], SENTINELS[o], type, term, body);
}

/** REPLICAOF from a sentinel: replicate `primary` (-1: NO ONE, become the primary) in `epoch`. */
function replicaOf(c: Core, s: number, to: number, primary: number, epoch: number): void {
  sendBody(c, SENTINELS[s], to, 'replicaOf', epoch, { op: 'replicaOf', primary, epoch });
}

/** Votes a failover needs: a majority of the sentinels, and never fewer than the quorum. */
export function votesNeeded(quorum: number, sentinels: number): number {
  return Math.max(quorum, majorityOf(sentinels));
}

// ---------------------------------------------------------------- the data sets

/**
 * How many writes two data sets share from the start. A history is its lineage's: the promoted
 * replica's history up to its offset at promotion, then what the new primary accepted. Two
 * histories of different lineages share at most the older one's part before the newer began.
 */
export function commonPrefix(
  promotions: RedisShared['promotions'],
  a: { lineage: number; offset: number },
  b: { lineage: number; offset: number },
): number {
  let x = a;
  let y = b;
  for (let guard = 0; guard < MAX_PROMOTIONS + 2; guard++) {
    if (x.lineage === y.lineage) return Math.min(x.offset, y.offset);
    if (x.lineage > y.lineage) [x, y] = [y, x];
    const lineage = y.lineage;
    const p = promotions.find((q) => q.epoch === lineage);
    // A promotion older than the record keeps: nothing can be shown to be shared.
    if (!p) return 0;
    y = { lineage: p.fromLineage, offset: Math.min(y.offset, p.fromOffset) };
  }
  return 0;
}

// ---------------------------------------------------------------- a Redis server

/** min-replicas-to-write: writes are taken while enough replicas acknowledged within the max lag. */
function updateWriteGate(c: Core, n: NodeState): void {
  const k = cfg(c).minReplicasToWrite;
  if (k === 0) return;
  const acks = st(n)
    .ackLocalMs.filter((t) => t >= 0)
    .sort((x, y) => y - x);
  // Fewer replicas than required have ever acknowledged: refuse from now (0 is always past).
  n.actUntilLocalMs = acks.length < k ? 0 : acks[k - 1] + cfg(c).minReplicasMaxLagMs;
}

function becomePrimary(c: Core, out: Outputs, n: NodeState, epoch: number): void {
  const p = st(n);
  const { promotions } = shared(c);
  if (promotions.length >= MAX_PROMOTIONS) promotions.shift();
  promotions.push({ epoch, fromLineage: p.lineage, fromOffset: p.offset });
  p.primaryOf = -1;
  p.lineage = epoch;
  n.term = epoch;
  resumePrimary(c, out, n);
}

/** A primary taking office in its own lineage's epoch (after a restart, no new history begins). */
function resumePrimary(c: Core, out: Outputs, n: NodeState): void {
  st(n).ackLocalMs.fill(-1);
  acquire(c, out, n, st(n).lineage, null);
  updateWriteGate(c, n);
  beginWarmUp(c, n);
}

function becomeReplica(c: Core, out: Outputs, n: NodeState, primary: number, epoch: number): void {
  if (n.role === 'leader') release(c, out, n, 'reconfigured as a replica');
  if (epoch > n.term) n.term = epoch;
  st(n).primaryOf = primary;
  n.knownLeader = primary;
  sendAck(c, n);
}

function sendAck(c: Core, n: NodeState): void {
  const p = st(n);
  if (p.primaryOf < 0) return;
  sendBody(c, n.idx, p.primaryOf, 'replAck', n.term, { op: 'ack', lineage: p.lineage, offset: p.offset });
  armIn(c, n, RT.ack, ACK_PERIOD_MS);
}

/** The primary accepted a write: it joins the data set and streams to every attached replica. */
function onWrite(c: Core, n: NodeState): void {
  if (n.role !== 'leader') return;
  const p = st(n);
  p.offset++;
  const stream: Body = { op: 'replicate', lineage: p.lineage, offset: p.offset, full: false };
  for (let i = 0; i < p.ackLocalMs.length; i++)
    if (p.ackLocalMs[i] >= 0) sendBody(c, n.idx, i, 'replicate', n.term, stream);
}

function onServerMessage(c: Core, out: Outputs, n: NodeState, m: Message): void {
  const p = st(n);
  const body = bodyOf(m, 'sentinelPong');
  // Only sentinels hear the others (isMasterDown, downReply, hello, pong).
  switch (body.op) {
    case 'replicaOf':
      if (body.primary < 0) {
        if (n.role !== 'leader') becomePrimary(c, out, n, body.epoch);
      } else if (body.primary !== n.idx && (p.primaryOf !== body.primary || n.role === 'leader')) {
        becomeReplica(c, out, n, body.primary, body.epoch);
      }
      return;
    case 'ack': {
      if (n.role !== 'leader') return;
      const gated = !mayAct(c, n);
      p.ackLocalMs[m.from] = localNow(c, n);
      p.lastAckRealMs = c.nowMs;
      const mine = { lineage: p.lineage, offset: p.offset };
      const same = body.lineage === p.lineage && body.offset <= p.offset;
      if (!same || body.offset < p.offset) {
        sendBody(c, n.idx, m.from, 'replicate', n.term, { op: 'replicate', ...mine, full: !same });
      }
      updateWriteGate(c, n);
      // The write loop stops while writes are refused; enough replicas again restart it.
      if (gated && mayAct(c, n)) onWriteTick(c, n);
      return;
    }
    case 'replicate': {
      if (m.from !== p.primaryOf || n.role === 'leader') return;
      if (body.full || body.lineage !== p.lineage) {
        // A full resync: the replica's data set becomes the primary's, and what only it had is gone.
        const lost = Math.max(0, p.offset - commonPrefix(shared(c).promotions, p, body));
        noteWritesLost(c.books, lost);
        emit(c, out, { atMs: c.nowMs, type: 'resynced', node: n.id, from: c.nodes[m.from].id, lost });
        p.lineage = body.lineage;
        p.offset = body.offset;
      } else if (body.offset > p.offset) {
        p.offset = body.offset;
      }
      return;
    }
  }
}

// ---------------------------------------------------------------- a sentinel

function onSentinelTick(c: Core, s: number): void {
  const endpoint = SENTINELS[s];
  scheduleServiceTimer(c, endpoint, TICK_SLOT, c.nowMs + PING_PERIOD_MS);
  if (!alive(c, endpoint)) return;
  const me = shared(c).sentinels[s];
  me.ticks++;
  for (const n of c.nodes) send(c, endpoint, n.idx, 'sentinelPing', me.configEpoch);
  me.sdown = c.nowMs - me.lastOkMs[me.primary] > cfg(c).downAfterMs;
  if (me.ticks % (HELLO_PERIOD_MS / PING_PERIOD_MS) === 0) {
    const hello: Body = { op: 'hello', primary: me.primary, configEpoch: me.configEpoch };
    toOtherSentinels(c, s, 'sentinelHello', me.configEpoch, hello);
  }
  if (me.sdown) askOthers(c, s);
  considerFailover(c, s);
  stepFailover(c, s);
  if (me.failover === 'none') fixRoles(c, s);
}

function askOthers(c: Core, s: number): void {
  const me = shared(c).sentinels[s];
  const candidate = me.failover === 'waitStart' ? s : -1;
  const ask: Body = { op: 'isMasterDown', epoch: me.currentEpoch, candidate };
  toOtherSentinels(c, s, 'isMasterDown', me.currentEpoch, ask);
}

/** ODOWN: `quorum` sentinels, this one included, think the primary is down. */
export function objectivelyDown(c: Core, s: number): boolean {
  const me = shared(c).sentinels[s];
  if (!me.sdown) return false;
  const others = me.downAtMs.filter((t, o) => o !== s && t >= 0 && c.nowMs - t <= DOWN_REPLY_VALIDITY_MS);
  return 1 + others.length >= cfg(c).quorum;
}

/**
 * ODOWN seen: the sentinel acts at its next tick, which sentinelTimer varies so that sentinels seeing
 * it together do not split the votes; the lab draws that moment within the next second.
 */
function considerFailover(c: Core, s: number): void {
  const me = shared(c).sentinels[s];
  if (me.failover !== 'none' || me.startAtMs >= 0 || !objectivelyDown(c, s)) return;
  me.startAtMs = c.nowMs + nextInt(c.rngTimer, 0, MAX_DESYNC_MS - 1);
  scheduleServiceTimer(c, SENTINELS[s], START_SLOT, me.startAtMs);
}

function onStartTimer(c: Core, out: Outputs, s: number): void {
  const me = shared(c).sentinels[s];
  if (me.startAtMs < 0 || c.nowMs < me.startAtMs) return;
  me.startAtMs = -1;
  if (!alive(c, SENTINELS[s])) return;
  if (me.failover === 'none' && objectivelyDown(c, s)) startFailover(c, out, s);
}

function startFailover(c: Core, out: Outputs, s: number): void {
  const me = shared(c).sentinels[s];
  // A sentinel that tried (or voted for another) lately waits 2 x failover-timeout to try again.
  if (c.nowMs - me.failoverStartMs < 2 * cfg(c).failoverTimeoutMs) return;
  newEpoch(c, out, s, false);
  me.failover = 'waitStart';
  me.failoverStartMs = c.nowMs + nextInt(c.rngTimer, 0, MAX_DESYNC_MS - 1);
  me.stateSinceMs = c.nowMs;
  askOthers(c, s);
}

/** A failover in a new epoch, this sentinel its candidate and its own first vote. */
function newEpoch(c: Core, out: Outputs, s: number, forced: boolean): void {
  const me = shared(c).sentinels[s];
  me.currentEpoch++;
  campaigned(c, out, nodeName(c, SENTINELS[s]), me.currentEpoch, false, forced);
  me.failoverEpoch = me.currentEpoch;
  me.leader = s;
  me.leaderEpoch = me.currentEpoch;
}

/** Servers are watched afresh, as sentinel.c recreates their records on +switch-master. */
function switchPrimary(c: Core, me: SentinelState, primary: number, epoch: number): void {
  me.primary = primary;
  me.configEpoch = epoch;
  me.sdown = false;
  me.reported.fill(null);
  me.roleSinceMs.fill(c.nowMs);
}

function abortFailover(me: SentinelState): void {
  me.failover = 'none';
  me.promoted = -1;
}

function stepFailover(c: Core, s: number): void {
  const me = shared(c).sentinels[s];
  const settings = cfg(c);
  if (me.failover === 'waitStart') {
    const own = me.leader === s && me.leaderEpoch === me.failoverEpoch ? 1 : 0;
    const votes = me.voteFor.filter((v, o) => o !== s && v === s && me.voteEpoch[o] === me.failoverEpoch);
    if (own + votes.length >= votesNeeded(settings.quorum, SENTINELS.length)) {
      return shared(c).stonithTimeoutMs > 0 ? requestFence(c, s) : promote(c, s);
    }
    if (c.nowMs - me.failoverStartMs > Math.min(ELECTION_TIMEOUT_MS, settings.failoverTimeoutMs))
      abortFailover(me);
    return;
  }
  if (me.failover === 'waitFence') {
    // No confirmation: the old primary may run, so nothing is promoted; Pacemaker retries the fencing.
    if (c.nowMs - me.stateSinceMs > shared(c).stonithTimeoutMs) {
      me.fenceTimeouts++;
      requestFence(c, s);
    }
    return;
  }
  if (me.failover === 'waitPromotion') {
    const r = me.reported[me.promoted];
    if (r && r.role === 'primary' && r.lineage === me.failoverEpoch) {
      // +switch-master, told to the other replicas and, by hello, the other sentinels. The old
      // primary is not among them: if seen again, its role is set right after the wait (fixRoles).
      const old = me.primary;
      switchPrimary(c, me, me.promoted, me.failoverEpoch);
      for (const n of c.nodes) {
        if (n.idx !== me.primary && n.idx !== old) replicaOf(c, s, n.idx, me.primary, me.configEpoch);
      }
      return abortFailover(me);
    }
    if (c.nowMs - me.stateSinceMs > settings.failoverTimeoutMs) abortFailover(me);
  }
}

/** The replica to promote: answering pings, with the largest offset; ties go to the lowest id. */
function selectReplica(c: Core, s: number): number {
  const me = shared(c).sentinels[s];
  let best = -1;
  for (let i = 0; i < c.nodes.length; i++) {
    const r = me.reported[i];
    if (i === me.primary || !r || r.role !== 'replica') continue;
    if (c.nowMs - me.lastOkMs[i] > REPLY_VALIDITY_MS) continue;
    const b = best >= 0 ? me.reported[best] : null;
    if (!b || r.offset > b.offset) best = i;
  }
  return best;
}

/** STONITH: ask the fence device to power the old primary off, and wait for its confirmation. */
function requestFence(c: Core, s: number): void {
  const me = shared(c).sentinels[s];
  me.failover = 'waitFence';
  me.stateSinceMs = c.nowMs;
  sendBody(c, SENTINELS[s], FENCE_DEVICE, 'fence', me.failoverEpoch, { op: 'fence', target: me.primary });
}

/** The fence device powers the target off (out of band: IPMI, a PDU), then confirms, even if it was down. */
function onFenceRequest(c: Core, out: Outputs, m: Message, target: number): void {
  const n = c.nodes[target];
  if (n.alive) {
    // The power-off is a kill, the promotion's own first step: recorded as the fault it is.
    const fault = { atMs: c.nowMs, do: 'kill' as const, node: n.id };
    emit(c, out, { atMs: c.nowMs, type: 'fault', fault, target: n.id, live: false });
    release(c, out, n, 'powered off by STONITH');
    st(n).ackLocalMs.fill(-1);
    bringDown(c, n);
  }
  sendBody(c, FENCE_DEVICE, m.from, 'fenced', m.term, { op: 'fenced', target });
}

/** `SENTINEL FAILOVER`: the first live sentinel fails over now, unasked; the others hear by hello. */
function forceFailover(c: Core, out: Outputs): void {
  const s = SENTINELS.findIndex((e, i) => alive(c, e) && shared(c).sentinels[i].failover === 'none');
  if (s < 0) return;
  newEpoch(c, out, s, true);
  shared(c).sentinels[s].failoverStartMs = c.nowMs;
  promote(c, s);
}

function promote(c: Core, s: number): void {
  const me = shared(c).sentinels[s];
  const chosen = selectReplica(c, s);
  if (chosen < 0) return abortFailover(me);
  me.promoted = chosen;
  me.failover = 'waitPromotion';
  me.stateSinceMs = c.nowMs;
  replicaOf(c, s, chosen, -1, me.failoverEpoch);
}

/** A server reporting a wrong role for RECONF_WAIT_MS is set right (an old primary: +convert-to-slave). */
function fixRoles(c: Core, s: number): void {
  const me = shared(c).sentinels[s];
  for (let i = 0; i < c.nodes.length; i++) {
    const r = me.reported[i];
    if (i === me.primary || !r) continue;
    if (c.nowMs - me.lastOkMs[i] > REPLY_VALIDITY_MS) continue;
    const wrong = r.role === 'primary' || r.primaryOf !== me.primary;
    if (wrong && c.nowMs - me.roleSinceMs[i] >= RECONF_WAIT_MS) {
      replicaOf(c, s, i, me.primary, me.configEpoch);
      me.roleSinceMs[i] = c.nowMs;
    }
  }
}

function onSentinelMessage(c: Core, s: number, m: Message): void {
  const me = shared(c).sentinels[s];
  const body = bodyOf(m, 'sentinelPong');
  if (body.op === 'fenced') {
    // Confirmed off: only now may a replica take over.
    if (me.failover === 'waitFence' && body.target === me.primary) promote(c, s);
    return;
  }
  if (m.from >= 0) {
    if (body.op !== 'pong') return;
    const i = m.from;
    const before = me.reported[i];
    me.lastOkMs[i] = c.nowMs;
    if (!before || before.role !== body.report.role || before.primaryOf !== body.report.primaryOf)
      me.roleSinceMs[i] = c.nowMs;
    me.reported[i] = body.report;
    // Redis checks its failover ten times a second; the lab acts on the report that moves it on.
    if (me.failover === 'waitPromotion' && i === me.promoted) stepFailover(c, s);
    return;
  }
  const from = sentinelAt(m.from);
  if (body.op === 'isMasterDown') {
    if (body.epoch > me.currentEpoch) me.currentEpoch = body.epoch;
    if (body.candidate >= 0 && me.leaderEpoch < body.epoch && me.currentEpoch <= body.epoch) {
      me.leader = body.candidate;
      me.leaderEpoch = body.epoch;
      // Having voted for another, it waits before trying a failover of its own.
      if (body.candidate !== s) me.failoverStartMs = c.nowMs + nextInt(c.rngTimer, 0, MAX_DESYNC_MS - 1);
    }
    sendBody(c, SENTINELS[s], m.from, 'isMasterDownReply', me.currentEpoch, {
      op: 'downReply',
      down: me.sdown,
      leader: body.candidate >= 0 ? me.leader : -1,
      leaderEpoch: me.leaderEpoch,
    });
  } else if (body.op === 'downReply') {
    me.downAtMs[from] = body.down ? c.nowMs : -1;
    if (body.leader >= 0) {
      me.voteFor[from] = body.leader;
      me.voteEpoch[from] = body.leaderEpoch;
    }
    considerFailover(c, s);
    if (me.failover === 'waitStart') stepFailover(c, s);
  } else if (body.op === 'hello') {
    if (body.configEpoch > me.configEpoch) {
      switchPrimary(c, me, body.primary, body.configEpoch);
      if (me.failover !== 'none') abortFailover(me);
    }
    if (body.configEpoch > me.currentEpoch) me.currentEpoch = body.configEpoch;
  }
}

export const redisSentinel: ElectionAlgorithm = {
  ...ALGORITHM_INFO['redis-sentinel'],
  page: redisSentinelPage,
  timerSlots: 1,
  initNode: initRedisNode,
  initShared: initRedisShared,
  boot: (c, out, n) => {
    if (n.idx === 0) {
      // `sentinel monitor mymaster <n1> <port> <quorum>`: the configuration names n1 as primary
      // (epoch 0); the sentinels start their once-a-second loop, a little apart.
      resumePrimary(c, out, n);
      for (const e of SENTINELS)
        scheduleServiceTimer(c, e, TICK_SLOT, nextInt(c.rngTimer, 1, PING_PERIOD_MS));
      return;
    }
    n.knownLeader = 0;
    scheduleTimer(c, n, RT.ack, nextInt(c.rngTimer, 1, ACK_PERIOD_MS));
  },
  onTimer: (c, _out, n, slot) => {
    if (slot === RT.ack) sendAck(c, n);
  },
  onMessage: (c, out, n, m) => {
    if (m.type === 'sentinelPing') {
      const { primaryOf, lineage, offset } = st(n);
      const role = n.role === 'leader' ? 'primary' : 'replica';
      const report: Report = { role, primaryOf, lineage, offset };
      sendBody(c, n.idx, m.from, 'sentinelPong', n.term, { op: 'pong', report });
    } else {
      onServerMessage(c, out, n, m);
    }
  },
  onServiceMessage: (c, out, endpoint, m) => {
    const body = bodyOf(m, 'sentinelPong');
    if (endpoint !== FENCE_DEVICE) return onSentinelMessage(c, sentinelAt(endpoint), m);
    if (body.op === 'fence') onFenceRequest(c, out, m, body.target);
  },
  onServiceTimer: (c, out, endpoint, slot) => {
    if (slot === TICK_SLOT) onSentinelTick(c, sentinelAt(endpoint));
    else if (slot === START_SLOT) onStartTimer(c, out, sentinelAt(endpoint));
  },
  onNetworkChange: (c, out) => {
    const leader = currentLeader(c);
    if (!leader) return;
    // Once fewer than `quorum` sentinels can reach it, they will agree it is down: a failover begins.
    const reaching = SENTINELS.filter((e) => alive(c, e) && canReach(c, e, leader.idx)).length;
    if (reaching < cfg(c).quorum) markLoss(c, out, leader, 'partitioned');
  },
  onKill: (_c, n) => void st(n).ackLocalMs.fill(-1),
  onRestart: (c, out, n) => {
    // A restarted server loads its data set and configuration from disk: a primary comes back a
    // primary, a replica replicates on. The sentinels set it right if that contradicts theirs.
    if (st(n).primaryOf >= 0) return sendAck(c, n);
    resumePrimary(c, out, n);
  },
  onWrite: (c, n) => onWrite(c, n),
  onClockRate: (c, n) => {
    if (st(n).primaryOf >= 0) armIn(c, n, RT.ack, ACK_PERIOD_MS);
  },
  campaign: (c, out) => forceFailover(c, out),
  renewalLatencyMs: (_c, leader, at) => {
    const p = st(leader);
    return p.lastAckRealMs >= 0 ? Math.max(0, at - p.lastAckRealMs) : 0;
  },
  nodeView: (c, n) => {
    const p = st(n);
    return {
      // A primary refusing writes for want of replicas shows when that began; others show nothing.
      deadlineAtMs:
        n.alive && n.role === 'leader' && n.actUntilLocalMs > 0 ? realAtLocal(c, n, n.actUntilLocalMs) : -1,
      lastRenewAtMs: n.role === 'leader' ? p.lastAckRealMs : -1,
    };
  },
};

/**
 * Pacemaker with STONITH (ClusterLabs, "Pacemaker Explained": `stonith-enabled`, `stonith-timeout`):
 * Redis's model with one more step before a promotion: the fence device must confirm the old primary
 * powered off, rather than leave a hung one to wake up and write. With no confirmation (the device
 * down or cut off) nothing is promoted: the cluster waits without a primary rather than risk two.
 */
export const pacemaker: ElectionAlgorithm = {
  ...redisSentinel,
  page: pacemakerPage,
  ...ALGORITHM_INFO.pacemaker,
  // A manual move of the primary is a graceful demotion in Pacemaker, not a failover: not modelled.
  campaign: () => {},
};
