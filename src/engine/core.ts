// The engine's whole mutable state, as one plain object (so a checkpoint is one structured
// clone), and the small helpers every rule uses: node clocks, scheduling, sending, recording.
import type { Experiment } from './experiment';
import { heapPush, type QueuedEvent } from './queue';
import { nextInt, seedRng, type RngState } from './rng';
import type { Failover, MessageType, Role, Sample, SimEvent, StorageWrite, Violation } from './types';

export const STORAGE = -1;

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
  storage: { maxTokenSeen: number; accepted: number; rejected: number; recent: StorageWrite[] };
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

export function schedule(c: Core, atMs: number, kind: number, node: number, gen: number, msg: unknown = null): void {
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

export function send(c: Core, from: number, to: number, msg: Omit<Message, 'id' | 'from' | 'to' | 'sentAtMs' | 'deliverAtMs'>): void {
  const delay = nextInt(c.rngNet, c.e.network.delayMsMin, c.e.network.delayMsMax);
  const m = msg as Message;
  m.id = ++c.msgSeq;
  m.from = from;
  m.to = to;
  m.sentAtMs = c.nowMs;
  m.deliverAtMs = c.nowMs + delay;
  if (m.type !== 'clientWrite') c.inflight.set(m.id, m);
  schedule(c, m.deliverAtMs, K.deliver, to, 0, m);
}

export function nodeName(c: Core, idx: number): string {
  return idx === STORAGE ? 'storage' : c.nodes[idx].id;
}

export function idxOf(c: Core, id: string): number {
  if (id === 'storage') return STORAGE;
  if (id === 'w') return c.e.nodes;
  return Number(id.slice(1)) - 1;
}

export function emit(c: Core, out: Outputs, ev: SimEvent): void {
  out.events.push(ev);
  const max = c.e.limits.maxEvents;
  if (out.events.length > max) {
    const drop = out.events.length - Math.floor(max / 2);
    out.events.splice(0, drop);
    out.eventsBase += drop;
  }
}
