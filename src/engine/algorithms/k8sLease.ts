// Kubernetes' leader election as client-go runs it (tools/leaderelection/leaderelection.go):
// replicas (like kube-controller-manager's) race for a Lease object held by an API server, which
// keeps it in a 3-member etcd. Every read and write of the Lease is a request to the API server,
// which needs a majority of the store's members to answer; an update is a compare-and-swap on the
// object's resourceVersion. Each replica measures time only on its own clock:
//  - acquire: a try every RetryPeriod x [1, 2.2) (wait.JitterUntil, JitterFactor 1.2);
//  - a try (tryAcquireOrRenew): the holder's fast path updates the record it last observed while its
//    lease is valid; otherwise get the record, remember when it last changed (observedTime, own
//    clock), give up while someone else holds it and observedTime + LeaseDuration is still ahead,
//    else update it (leaderTransitions + 1 when the holder changes);
//  - renew: rounds RetryPeriod apart, each trying on a RetryPeriod ticker until one succeeds or
//    RenewDeadline has passed; a failed round ends leadership and the controller exits (its next
//    process is a new holder);
//  - a request times out after RenewDeadline / 2 (resourcelock.NewFromKubeconfig), leaving a round
//    room for a second try;
//  - ReleaseOnCancel: a leader that stops writes an empty holder so the next need not wait.
// The token is the record's leaderTransitions, checked by the lab's fenced storage.
import type { ElectionAlgorithm } from '../algorithm';
import { ALGORITHM_INFO } from './info';
import { k8sLeasePage } from './pages/k8sLease';
import { armAtLocal, armIn, cancelTimers, renewalLatency, settingsFor, stateViews, timerSlots } from './kit';
import { bodyOf, cancelTimer, due, localNow, realAtLocal, serviceEndpoints } from '../core';
import type { Core, Message, NodeState, Outputs } from '../core';
import type { Experiment } from '../experiment';
import { acquire, beginWarmUp, campaigned, release, renewed } from '../leadership';
import { bringDown } from '../faults';
import { send } from '../network';
import { nextFloat, nextInt } from '../rng';
import {
  createStore,
  onStoreChange,
  propose,
  reachesMajority,
  storeHooks,
  type StoreRules,
} from '../services/quorumStore';
import type { LeaseRecord } from '../types';

export const JITTER_FACTOR = 1.2;
/** The client's request timeout, as kube-controller-manager builds its lock (NewFromKubeconfig, 1.20+). */
export function requestTimeoutMs(renewDeadlineMs: number): number {
  return Math.max(1000, Math.floor(renewDeadlineMs / 2));
}
/** Operations the API server may have waiting on the store at once (a bound, like every queue here). */
const MAX_PENDING_OPS = 64;
const SERVICES = ALGORITHM_INFO['k8s-lease'].services;
const apiOf = (c: Core) => shared(c).api;

const KT = timerSlots('next', 'request', 'round');

type Phase = 'acquiring' | 'leading';
/** The step of the try (or release) in flight. */
type Step = 'fast' | 'get' | 'update' | 'create' | 'releaseGet' | 'releaseUpdate' | null;

const initK8sNode = (_e: unknown, idx: number) => ({
  phase: 'acquiring' as Phase,
  /**
   * Its identity in the Lease: name and a fresh suffix at every start (kube-controller-manager's
   * hostname_UUID), so a restarted process is a new holder that waits out the lease like anyone else.
   */
  identity: `n${idx + 1}_1`,
  starts: 1,
  /** Exiting once its release is over: for good, or to restart as a new process (OnStoppedLeading). */
  exiting: null as 'stop' | 'restart' | null,
  /** The record as this replica last saw it, and when (own clock) it last saw it change. */
  observed: null as LeaseRecord | null,
  observedLocalMs: 0,
  observedRealMs: -1,
  /** The try in flight: its step, request id and the clock reading the try started at. */
  step: null as Step,
  requestId: -1,
  tryNowLocalMs: 0,
  /** The current renew round: when it began and when it must have succeeded by (own clock). */
  roundStartLocalMs: 0,
  roundStartRealMs: 0,
  roundDeadlineLocalMs: -1,
  /** Own-clock time the next try may start (the poll's interval, or the acquire jitter). */
  nextTryLocalMs: 0,
  lastRenewRealMs: -1,
  renewLatencyMs: 0,
});

export type K8sNode = ReturnType<typeof initK8sNode>;

declare module '../core' {
  interface MessageBodies {
    leaseGet: LeaseRecord | null;
    leaseUpdate: LeaseRecord | null;
    leaseCreate: LeaseRecord | null;
    leaseReply: LeaseRecord | null;
  }
}

interface LeaseOp {
  op: 'get' | 'update' | 'create';
  record: LeaseRecord | null;
}

const initK8sShared = (e: Experiment) => ({
  settings: settingsFor(e, 'lease'),
  /** The Lease object as the store holds it (null until created). */
  lease: null as LeaseRecord | null,
  resourceVersion: 0,
  /** The etcd behind the API server. */
  store: createStore<LeaseOp>(serviceEndpoints(SERVICES, 'storeMember'), { maxPending: MAX_PENDING_OPS }),
  api: serviceEndpoints(SERVICES, 'apiServer')[0],
});

export type K8sShared = ReturnType<typeof initK8sShared>;

const { st, shared, cfg } = stateViews<K8sNode, K8sShared>();
const store = (c: Core) => shared(c).store;

// ---------------------------------------------------------------- the API server and its store

function request(c: Core, n: NodeState, op: LeaseOp['op'], step: Step, record: LeaseRecord | null): void {
  const p = st(n);
  p.step = step;
  const type = op === 'get' ? 'leaseGet' : op === 'create' ? 'leaseCreate' : 'leaseUpdate';
  const m = send(c, n.idx, shared(c).api, type, 0);
  p.requestId = m.id;
  m.round = m.id;
  m.body = record;
  // Within a renew round the round's own deadline (the poll's context) may cut it shorter: onRoundDeadline.
  armIn(c, n, KT.request, requestTimeoutMs(cfg(c).renewDeadlineMs));
}

const K8S_RULES: StoreRules<LeaseOp> = {
  // The replicas talk only to the API server, which needs a majority of the store for every operation.
  request: (c, _out, _api, m) => {
    const a = shared(c);
    const body: LeaseOp = {
      op: m.type === 'leaseGet' ? 'get' : m.type === 'leaseCreate' ? 'create' : 'update',
      record: bodyOf(m, 'leaseUpdate') ?? null,
    };
    propose(c, a.store, { id: m.round as number, client: m.from, via: a.api, body, acks: [] });
  },
  // A majority of the store has the operation: it commits now, compare-and-swap and all.
  commit: (c, _out, { id, client, body }) => {
    const a = shared(c);
    const record = body.record as LeaseRecord;
    let status: 'ok' | 'conflict' | 'notFound' = 'ok';
    let result = a.lease;
    if (body.op === 'get') {
      if (!a.lease) status = 'notFound';
    } else if (body.op === 'create' ? a.lease : a.lease?.resourceVersion !== record.resourceVersion) {
      status = 'conflict';
    } else {
      result = a.lease = { ...record, resourceVersion: ++a.resourceVersion };
    }
    const r = send(c, a.api, client, 'leaseReply', 0);
    r.round = id;
    r.body = result ? { ...result } : null;
    r.status = status;
  },
  // The Lease is an object, not bound to a session: nothing on this store expires.
  expired: () => {},
};

// ---------------------------------------------------------------- a replica's tries

const isLeader = (n: NodeState): boolean => st(n).observed?.holder === st(n).identity;

/** client-go's isLeaseValid: the observed record's duration has not run out since it was observed. */
function leaseValid(c: Core, n: NodeState): boolean {
  const p = st(n);
  return p.observed !== null && !due(c, n, p.observedLocalMs + p.observed.leaseDurationMs);
}

function setObserved(c: Core, n: NodeState, record: LeaseRecord | null): void {
  const p = st(n);
  p.observed = record;
  p.observedLocalMs = localNow(c, n);
  p.observedRealMs = c.nowMs;
  // The node an identity belongs to: its name before the start's suffix.
  const node = record?.holder.split('_')[0];
  n.knownLeader = node ? c.nodes.findIndex((q) => q.id === node) : -1;
}

/** What a try writes: held from now, or renewing `kept` (its acquire time, transitions and version). */
function newRecord(c: Core, n: NodeState, kept?: LeaseRecord): LeaseRecord {
  const now = st(n).tryNowLocalMs;
  return {
    holder: st(n).identity,
    leaseDurationMs: cfg(c).durationMs,
    acquireTimeMs: kept ? kept.acquireTimeMs : now,
    renewTimeMs: now,
    leaderTransitions: kept ? kept.leaderTransitions : 0,
    resourceVersion: kept ? kept.resourceVersion : 0,
  };
}

function startTry(c: Core, n: NodeState): void {
  const p = st(n);
  p.tryNowLocalMs = localNow(c, n);
  if (isLeader(n) && leaseValid(c, n)) {
    // 1. The fast path: update the record observed last time, assuming it is still current.
    return request(c, n, 'update', 'fast', newRecord(c, n, p.observed as LeaseRecord));
  }
  request(c, n, 'get', 'get', null);
}

function onReply(c: Core, out: Outputs, n: NodeState, m: Message): void {
  const p = st(n);
  if (m.round !== p.requestId || p.step === null) return;
  cancelTimer(n, KT.request);
  const step = p.step;
  p.step = null;
  const record = bodyOf(m, 'leaseReply') ?? null;
  switch (step) {
    case 'fast':
      if (m.status === 'ok') return tryDone(c, out, n, true, record);
      // Fall back to the slow path.
      return request(c, n, 'get', 'get', null);
    case 'get': {
      if (m.status === 'notFound') {
        if (p.phase === 'acquiring') campaigned(c, out, n, 0);
        return request(c, n, 'create', 'create', newRecord(c, n));
      }
      if (!record) return tryDone(c, out, n, false, null);
      // 3. Remember when the record last changed, by this replica's clock.
      if (!p.observed || p.observed.resourceVersion !== record.resourceVersion) setObserved(c, n, record);
      if (record.holder !== '' && leaseValidAt(n, p.tryNowLocalMs) && !isLeader(n)) {
        return tryDone(c, out, n, false, null);
      }
      // 4. Take it (or renew it): a new holder adds one transition.
      if (isLeader(n)) return request(c, n, 'update', 'update', newRecord(c, n, record));
      const next = newRecord(c, n);
      next.leaderTransitions = record.leaderTransitions + 1;
      next.resourceVersion = record.resourceVersion;
      if (p.phase === 'acquiring') campaigned(c, out, n, next.leaderTransitions);
      return request(c, n, 'update', 'update', next);
    }
    case 'update':
    case 'create':
      return tryDone(c, out, n, m.status === 'ok', m.status === 'ok' ? record : null);
    case 'releaseGet':
      if (!record || record.holder !== st(n).identity) return finishExit(c, n);
      return request(c, n, 'update', 'releaseUpdate', {
        ...record,
        holder: '',
        leaseDurationMs: 1000,
        acquireTimeMs: localNow(c, n),
        renewTimeMs: localNow(c, n),
      });
    case 'releaseUpdate':
      if (m.status === 'ok' && record) setObserved(c, n, record);
      return finishExit(c, n);
  }
}

/** The release on the way out is over (done or failed, or there was none): the process exits. */
function finishExit(c: Core, n: NodeState): void {
  const p = st(n);
  const how = p.exiting;
  if (how === null) return;
  p.exiting = null;
  p.observed = null;
  if (how === 'stop') bringDown(c, n);
  else startProcess(c, n);
}

/**
 * A new process: a new identity, nothing observed, acquiring at once. To client-go a Lease naming its
 * previous process is another holder's: waited out, and taking it adds a transition (a new token).
 */
function startProcess(c: Core, n: NodeState): void {
  const p = st(n);
  p.starts++;
  p.identity = `${n.id}_${p.starts}`;
  p.observed = null;
  n.knownLeader = -1;
  scheduleNext(c, n, localNow(c, n));
}

function leaseValidAt(n: NodeState, nowLocalMs: number): boolean {
  const p = st(n);
  return p.observed !== null && p.observedLocalMs + p.observed.leaseDurationMs > nowLocalMs;
}

/** The request timed out on the client (or the API server never answered): the try failed. */
function onRequestTimeout(c: Core, out: Outputs, n: NodeState): void {
  const p = st(n);
  if (p.step === null) return;
  // A failed fast-path update, lost or refused, falls back to the slow path within the same try.
  if (p.step === 'fast') return request(c, n, 'get', 'get', null);
  const releasing = p.step === 'releaseGet' || p.step === 'releaseUpdate';
  p.step = null;
  if (releasing) finishExit(c, n);
  else tryDone(c, out, n, false, null);
}

function tryDone(c: Core, out: Outputs, n: NodeState, ok: boolean, record: LeaseRecord | null): void {
  const p = st(n);
  if (ok && record) setObserved(c, n, record);
  if (p.phase === 'acquiring') {
    if (ok && record) return startLeading(c, out, n, record);
    // wait.JitterUntil (sliding): the next try RetryPeriod x [1, 2.2) after this one returned.
    const wait = cfg(c).retryPeriodMs * (1 + nextFloat(c.rngTimer) * JITTER_FACTOR);
    return scheduleNext(c, n, localNow(c, n) + wait);
  }
  if (ok) {
    // The round succeeded: the lease is renewed. The next round starts RetryPeriod from now.
    p.lastRenewRealMs = p.roundStartRealMs;
    p.renewLatencyMs = c.nowMs - p.roundStartRealMs;
    renewed(c, out, n);
    cancelTimer(n, KT.round);
    p.roundDeadlineLocalMs = -1;
    return scheduleNext(c, n, localNow(c, n) + cfg(c).retryPeriodMs);
  }
  // Try again at the poll's next interval, unless the round's deadline has passed.
  if (due(c, n, p.roundDeadlineLocalMs)) return exitProcess(c, out, n, 'restart');
  scheduleNext(c, n, Math.max(localNow(c, n), p.nextTryLocalMs));
}

function scheduleNext(c: Core, n: NodeState, atLocalMs: number): void {
  st(n).nextTryLocalMs = atLocalMs;
  armAtLocal(c, n, KT.next, atLocalMs);
}

function onNext(c: Core, n: NodeState): void {
  const p = st(n);
  // A release still in flight (ReleaseOnCancel) holds the connection: try again a period later.
  if (p.step !== null) return scheduleNext(c, n, localNow(c, n) + cfg(c).retryPeriodMs);
  if (p.phase === 'leading' && p.roundDeadlineLocalMs < 0) {
    // A new round (PollUntilContextTimeout, immediate): tries until one succeeds or RenewDeadline passes.
    p.roundStartLocalMs = localNow(c, n);
    p.roundStartRealMs = c.nowMs;
    p.roundDeadlineLocalMs = armIn(c, n, KT.round, cfg(c).renewDeadlineMs);
  }
  if (p.phase === 'leading') p.nextTryLocalMs = nextTick(c, p, localNow(c, n));
  startTry(c, n);
}

/**
 * The first tick after a try began of the round's poll, a ticker every RetryPeriod from the round's
 * start (PollUntilContextTimeout): a try that outlasts a tick is followed by the next at once.
 */
function nextTick(c: Core, p: K8sNode, tryLocalMs: number): number {
  const every = cfg(c).retryPeriodMs;
  return p.roundStartLocalMs + (Math.floor((tryLocalMs - p.roundStartLocalMs) / every) + 1) * every;
}

function onRoundDeadline(c: Core, out: Outputs, n: NodeState): void {
  const p = st(n);
  if (p.phase !== 'leading' || p.roundDeadlineLocalMs < 0 || !due(c, n, p.roundDeadlineLocalMs)) return;
  // The poll's context ran out mid-try: the request in flight is cancelled with it.
  p.step = null;
  exitProcess(c, out, n, 'restart');
}

function startLeading(c: Core, out: Outputs, n: NodeState, record: LeaseRecord): void {
  const p = st(n);
  p.phase = 'leading';
  n.term = record.leaderTransitions;
  p.lastRenewRealMs = c.nowMs;
  p.renewLatencyMs = 0;
  p.roundDeadlineLocalMs = -1;
  acquire(c, out, n, record.leaderTransitions, null, p.identity);
  beginWarmUp(c, n);
  // renew: the first round starts at once.
  onNext(c, n);
}

function idle(n: NodeState): void {
  const p = st(n);
  p.phase = 'acquiring';
  p.step = null;
  p.roundDeadlineLocalMs = -1;
}

/**
 * The process exits, first releasing a held Lease under ReleaseOnCancel: it stopped leading
 * (OnStoppedLeading: klog.FlushAndExit, restarted as a new holder), or its context was cancelled.
 */
function exitProcess(c: Core, out: Outputs, n: NodeState, how: 'stop' | 'restart'): void {
  const p = st(n);
  const holding = p.phase === 'leading';
  cancelTimers(n, KT.next, KT.round, KT.request);
  idle(n);
  release(c, out, n, how === 'stop' ? 'stopped' : 'renew deadline passed');
  p.exiting = how;
  if (holding && cfg(c).releaseOnCancel) request(c, n, 'get', 'releaseGet', null);
  else finishExit(c, n);
}

// ---------------------------------------------------------------- the algorithm

export const k8sLease: ElectionAlgorithm = {
  ...ALGORITHM_INFO['k8s-lease'],
  page: k8sLeasePage,
  timerSlots: 3,
  initNode: initK8sNode,
  initShared: initK8sShared,
  boot: (c, _out, n) => {
    // Replicas start a little apart.
    scheduleNext(c, n, nextInt(c.rngTimer, 0, cfg(c).retryPeriodMs));
  },
  onTimer: (c, out, n, slot) => {
    if (slot === KT.next) return onNext(c, n);
    if (slot === KT.request) return onRequestTimeout(c, out, n);
    if (slot === KT.round) return onRoundDeadline(c, out, n);
  },
  // A replica hears only the API server's replies.
  onMessage: onReply,
  ...storeHooks(store, K8S_RULES),
  // For the failover timeline: a leader that cannot reach a working store has lost its lease.
  onNetworkChange: (c, out) =>
    onStoreChange(
      c,
      out,
      store(c),
      reachesMajority(c, store(c), shared(c).api),
      apiOf,
      'the store lost its majority',
    ),
  onKill: (_c, n) => {
    idle(n);
    st(n).exiting = null;
    st(n).observed = null;
  },
  onRestart: (c, _out, n) => startProcess(c, n),
  onStop: (c, out, n) => exitProcess(c, out, n, 'stop'),
  onClockRate: (c, n) => {
    const p = st(n);
    armAtLocal(c, n, KT.next, p.nextTryLocalMs);
    if (p.roundDeadlineLocalMs >= 0) armAtLocal(c, n, KT.round, p.roundDeadlineLocalMs);
  },
  campaign: (c, _out, n) => {
    // Try to acquire now (a replica's next try, brought forward).
    if (st(n).phase === 'acquiring' && st(n).step === null) onNext(c, n);
  },
  renewalLatencyMs: (c, leader, at) => {
    const p = st(leader);
    const roundSince = p.roundDeadlineLocalMs >= 0 ? p.roundStartRealMs : -1;
    return renewalLatency(p.renewLatencyMs, p.lastRenewRealMs, cfg(c).retryPeriodMs, at, roundSince);
  },
  nodeView: (c, n) => {
    const p = st(n);
    let deadlineAtMs = -1;
    if (n.alive && p.phase === 'leading' && p.roundDeadlineLocalMs >= 0) {
      deadlineAtMs = realAtLocal(c, n, p.roundDeadlineLocalMs);
    } else if (n.alive && p.phase === 'acquiring' && p.observed && p.observed.holder !== p.identity) {
      // When, by its own clock, the lease it observed runs out: it may take over then.
      deadlineAtMs = realAtLocal(c, n, p.observedLocalMs + p.observed.leaseDurationMs);
    }
    return { deadlineAtMs, lastRenewAtMs: p.phase === 'leading' ? p.lastRenewRealMs : p.observedRealMs };
  },
};
