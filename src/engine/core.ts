// The engine's whole mutable state, as one plain object (so a checkpoint is one structured
// clone), and the small helpers every rule uses: node clocks, scheduling, sending, recording.
import type { Experiment } from './experiment';
import { heapPush, type QueuedEvent } from './queue';
import { nextInt, seedRng, type RngState } from './rng';
import type { Failover, MessageType, Role, Sample, SimEvent, StorageWrite, Violation } from './types';

export const STORAGE = -1;

export type WriteEvent = Extract<SimEvent, { type: 'write' }>;

// Event kinds in the queue.
export const K = {
  deliver: 0,
  election: 1,
  heartbeat: 2,
  renewCheck: 3,
  writeTick: 4,
  writeSend: 5,
  ready: 6,
  fault: 7,
  resume: 8,
  clientTick: 9,
  voteWindow: 10,
  clientWrite: 11,
} as const;

// Timer generations: a scheduled timer runs only if its generation still matches, so changing
// role, dying or changing clock rate cancels timers without searching the heap.
export const T = { election: 0, heartbeat: 1, renew: 2, write: 3, ready: 4, pause: 5, window: 6 } as const;

export interface Round {
  round: number;
  sentLocalMs: number;
  sentRealMs: number;
  acks: number[];
}

export interface NodeState {
  idx: number;
  id: string;
  witness: boolean;
  // Persisted: survives kill and restart.
  term: number;
  votedFor: string | null;
  // Volatile.
  role: Role;
  alive: boolean;
  paused: boolean;
  pausedAtMs: number;
  clockRate: number;
  anchorRealMs: number;
  anchorLocalMs: number;
  /** Local clock time this node last heard from a current leader; -1 if never. */
  lastHeardLocalMs: number;
  lastHeardRealMs: number;
  electionDeadlineLocalMs: number;
  /** Real time of the pending election timer, or -1. Lets deadlines move later without heap churn. */
  electionTimerAtMs: number;
  knownLeader: number;
  /** The candidate this node last voted for, and until when (own clock) it backs that one alone. */
  backingIdx: number;
  backingUntilLocalMs: number;
  votes: number[];
  preVoting: boolean;
  /** Own-clock time the current (pre-)campaign round began. */
  campaignLocalMs: number;
  // Leader.
  ready: boolean;
  round: number;
  rounds: Round[];
  lastRenewLocalMs: number;
  lastRenewRealMs: number;
  renewLatencyMs: number;
  pendingToken: number;
  gens: number[];
  /** Events that reached the node while it was paused, in arrival order. */
  deferred: QueuedEvent[];
}

export interface Message {
  id: number;
  type: MessageType | 'clientWrite';
  from: number;
  to: number;
  term: number;
  sentAtMs: number;
  deliverAtMs: number;
  granted?: boolean;
  token?: number;
  round?: number;
  transfer?: boolean;
  kind?: StorageWrite['kind'];
  client?: number;
  maxTokenSeen?: number;
  /** Set once the message was dropped by a partition or a dead receiver. */
  droppedAtMs?: number;
}

export interface Core {
  e: Experiment;
  nowMs: number;
  seq: number;
  msgSeq: number;
  heap: QueuedEvent[];
  nodes: NodeState[];
  voterCount: number;
  majority: number;
  rngNet: RngState;
  rngTimer: RngState;
  rngClient: RngState;
  safety: Experiment['safety'];
  /** Group number per node, or null when there is no partition. */
  groupOf: number[] | null;
  storageGroup: number;
  partition: string[][] | null;
  /** recent holds the last few write events; the snapshot shows them as StorageWrites. */
  storage: { maxTokenSeen: number; accepted: number; rejected: number; recent: WriteEvent[] };
  highestTokenIssued: number;
  lastElectedTerm: number;
  elections: number;
  // Invariant ledgers: kept apart from the node state they check.
  leaderOfTerm: Map<number, string>;
  voteLedger: { term: number; for: string }[];
  termLedger: number[];
  counters: {
    leaderTransitions: number;
    fencingRejections: number;
    staleWritesAccepted: number;
    divergentWrites: number;
    clientRedirects: number;
    maxLeaderCount: number;
    msWithoutLeader: number;
  };
  leaderCount: number;
  leaderCountSinceMs: number;
  failovers: Failover[];
  pendingLoss: { atMs: number; from: string; cause: string } | null;
  detectedAtMs: number;
  firstCampaignMs: number;
  violations: Violation[];
  dnsLeader: number;
  clientLeader: number[];
  clientCacheUntil: number[];
  inflight: Map<number, Message>;
  recentDrops: Message[];
  nextSampleMs: number;
}

/** Non-cloned, append-only outputs; checkpoints remember their lengths. */
export interface Outputs {
  events: SimEvent[];
  eventsBase: number;
  samples: Sample[];
  samplesBase: number;
}

export const MAX_FAILOVERS = 500;
export const MAX_VIOLATIONS = 500;
export const MAX_RECENT_WRITES = 12;
export const MAX_RECENT_DROPS = 24;
export const MAX_DEFERRED = 20_000;
export const MAX_ROUNDS = 8;

export function createCore(e: Experiment): Core {
  const nodes: NodeState[] = [];
  const total = e.nodes + (e.witness ? 1 : 0);
  for (let i = 0; i < total; i++) {
    const witness = i === e.nodes;
    nodes.push({
      idx: i,
      id: witness ? 'w' : `n${i + 1}`,
      witness,
      term: 0,
      votedFor: null,
      role: 'follower',
      alive: true,
      paused: false,
      pausedAtMs: -1,
      clockRate: 1,
      anchorRealMs: 0,
      anchorLocalMs: 0,
      lastHeardLocalMs: -1,
      lastHeardRealMs: -1,
      electionDeadlineLocalMs: 0,
      electionTimerAtMs: -1,
      knownLeader: -1,
      backingIdx: -1,
      backingUntilLocalMs: 0,
      votes: [],
      preVoting: false,
      campaignLocalMs: 0,
      ready: false,
      round: 0,
      rounds: [],
      lastRenewLocalMs: 0,
      lastRenewRealMs: -1,
      renewLatencyMs: 0,
      pendingToken: 0,
      gens: [0, 0, 0, 0, 0, 0, 0],
      deferred: [],
    });
  }
  return {
    e,
    nowMs: 0,
    seq: 0,
    msgSeq: 0,
    heap: [],
    nodes,
    voterCount: total,
    majority: Math.floor(total / 2) + 1,
    rngNet: seedRng(e.seed, 1),
    rngTimer: seedRng(e.seed, 2),
    rngClient: seedRng(e.seed, 3),
    safety: { ...e.safety },
    groupOf: null,
    storageGroup: -1,
    partition: null,
    storage: { maxTokenSeen: 0, accepted: 0, rejected: 0, recent: [] },
    highestTokenIssued: 0,
    lastElectedTerm: 0,
    elections: 0,
    leaderOfTerm: new Map(),
    voteLedger: nodes.map(() => ({ term: -1, for: '' })),
    termLedger: nodes.map(() => 0),
    counters: {
      leaderTransitions: 0,
      fencingRejections: 0,
      staleWritesAccepted: 0,
      divergentWrites: 0,
      clientRedirects: 0,
      maxLeaderCount: 0,
      msWithoutLeader: 0,
    },
    leaderCount: 0,
    leaderCountSinceMs: 0,
    failovers: [],
    pendingLoss: null,
    detectedAtMs: -1,
    firstCampaignMs: -1,
    violations: [],
    dnsLeader: -1,
    clientLeader: new Array(e.workload.clients).fill(-1),
    clientCacheUntil: new Array(e.workload.clients).fill(0),
    inflight: new Map(),
    recentDrops: [],
    nextSampleMs: 0,
  };
}

export function localNow(c: Core, n: NodeState): number {
  return n.anchorLocalMs + (c.nowMs - n.anchorRealMs) * n.clockRate;
}

/** The real time at which node n's clock will read localMs (never before now). */
export function realAtLocal(c: Core, n: NodeState, localMs: number): number {
  const at = n.anchorRealMs + Math.ceil((localMs - n.anchorLocalMs) / n.clockRate - 1e-9);
  return at < c.nowMs ? c.nowMs : at;
}

/**
 * Whether node n's own clock has reached localMs. Decided in real milliseconds, through the same
 * rounding as realAtLocal, so a timer scheduled for a deadline always finds it due when it fires:
 * comparing the float clock reading instead can fall short by 1e-11 at a clock rate other than 1
 * and re-arm the timer at the same millisecond forever.
 */
export function due(c: Core, n: NodeState, localMs: number): boolean {
  return realAtLocal(c, n, localMs) <= c.nowMs;
}

export function schedule(
  c: Core,
  atMs: number,
  kind: number,
  node: number,
  gen: number,
  msg: unknown = null,
): void {
  heapPush(c.heap, { atMs, seq: c.seq++, kind, node, gen, msg });
}

export function scheduleTimer(c: Core, n: NodeState, timer: number, kind: number, atMs: number): void {
  schedule(c, atMs, kind, n.idx, ++n.gens[timer]);
}

export function cancelTimer(n: NodeState, timer: number): void {
  n.gens[timer]++;
}

export function jitter(c: Core): number {
  return nextInt(c.rngTimer, 0, c.e.lease.jitterMs);
}

export function canReach(c: Core, a: number, b: number): boolean {
  const g = c.groupOf;
  if (g === null) return true;
  if (a === STORAGE) return c.storageGroup === -1 || g[b] === c.storageGroup;
  if (b === STORAGE) return c.storageGroup === -1 || g[a] === c.storageGroup;
  return g[a] === g[b];
}

/**
 * Send a message of the given type; it is delivered after the network's delay. Returns the
 * message so the caller can fill in the fields its type carries (it is delivered later in
 * simulated time, so filling it in after queueing is safe).
 */
export function send(c: Core, from: number, to: number, type: Message['type'], term: number): Message {
  const delay = nextInt(c.rngNet, c.e.network.delayMsMin, c.e.network.delayMsMax);
  // Every message is built with every field, in one order, whatever its type: the hot paths
  // that read messages (dispatch, deliverToNode, the storage) then see a single object shape
  // and stay fast, instead of a dozen shapes grown field by field.
  const m: Message = {
    id: ++c.msgSeq,
    type,
    from,
    to,
    term,
    sentAtMs: c.nowMs,
    deliverAtMs: c.nowMs + delay,
    granted: undefined,
    token: undefined,
    round: undefined,
    transfer: undefined,
    kind: undefined,
    client: undefined,
    maxTokenSeen: undefined,
    droppedAtMs: undefined,
  };
  if (type !== 'clientWrite') c.inflight.set(m.id, m);
  schedule(c, m.deliverAtMs, K.deliver, to, 0, m);
  return m;
}

/**
 * A client's write request to node `to`. It is queued as an event of its own (the client in the
 * gen field) rather than as a Message: clients send thousands of these per simulated second,
 * and none is drawn on the stage. It still takes a message id, so the ids of the messages that
 * are drawn stay the same.
 */
export function sendClientWrite(c: Core, to: number, client: number): void {
  const delay = nextInt(c.rngNet, c.e.network.delayMsMin, c.e.network.delayMsMax);
  ++c.msgSeq;
  schedule(c, c.nowMs + delay, K.clientWrite, to, client);
}

/** A privileged write to the storage: its term is the token it carries. */
export function sendWrite(
  c: Core,
  from: number,
  token: number,
  kind: StorageWrite['kind'],
  client?: number,
): void {
  const m = send(c, from, STORAGE, 'write', token);
  m.token = token;
  m.kind = kind;
  m.client = client;
}

export function nodeName(c: Core, idx: number): string {
  return idx === STORAGE ? 'storage' : c.nodes[idx].id;
}

export function idxOf(c: Core, id: string): number {
  if (id === 'storage') return STORAGE;
  if (id === 'w') return c.e.nodes;
  return Number(id.slice(1)) - 1;
}

/**
 * Where the retained part of a bounded output starts once `total` items were produced: emit and
 * takeSample drop the older half whenever a list grows past its bound `max`, so this is a pure
 * function of the total. Restoring a checkpoint uses it to keep the window a straight run keeps.
 */
export function retainedFrom(total: number, max: number): number {
  if (total <= max) return 0;
  const step = max + 1 - Math.floor(max / 2);
  return (Math.floor((total - max - 1) / step) + 1) * step;
}

export function emit(c: Core, out: Outputs, ev: SimEvent): void {
  out.events.push(ev);
  const max = c.e.limits.maxEvents;
  if (out.events.length > max) {
    // Drop the older half. The cut comes from the total alone (the same cut as "keep the newest
    // max/2"), so a list restored shorter than a straight run's falls back in step here.
    const keepFrom = retainedFrom(out.eventsBase + out.events.length, max);
    out.events.splice(0, keepFrom - out.eventsBase);
    out.eventsBase = keepFrom;
  }
}
