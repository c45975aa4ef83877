// The engine's whole mutable state as one plain object (a checkpoint is one structured clone), and
// the helpers every rule uses: clocks, scheduling, timers, recording. It knows no election
// algorithm: each keeps its own plain data in `NodeState.p` and `Core.a`.
import type { Experiment } from './experiment';
import { majorityOf } from './algorithms/kit';
import { allowedBy } from './invariants';
import { createLedger, noClientWrites, noteViolation } from './ledger';
import { heapPush, type QueuedEvent } from './queue';
import { seedRng } from './rng';
import type { InvariantName, MessageType, Role, SimEvent, StorageWrite } from './types';

export type WriteEvent = Extract<SimEvent, { type: 'write' }>;

// Event kinds in the queue. A node timer's kind is TIMER + its slot.
export const K = {
  deliver: 0,
  fault: 1,
  clientTick: 2,
  clientWrite: 3,
  /** A service's timer: `node` is the service's endpoint, `msg` its slot, `gen` its generation. */
  serviceTimer: 4,
} as const;
export const TIMER = 8;

/** Every node's timer slots (write loop, warm-up, end of a pause); an algorithm's own start at ALG_SLOT. */
export const T = { write: 0, ready: 1, pause: 2 } as const;
export const ALG_SLOT = 3;

export interface Message {
  id: number;
  type: MessageType | 'clientWrite';
  from: number;
  to: number;
  term: number;
  sentAtMs: number;
  deliverAtMs: number;
  // What the views draw and the kernel reads: a reply's verdict, the request or round it answers, and
  // storage's fields (a write's token, kind and client, a refusal's newer token).
  granted?: boolean;
  status?: 'ok' | 'conflict' | 'notFound';
  round?: number;
  token?: number;
  kind?: StorageWrite['kind'];
  client?: number;
  maxTokenSeen?: number;
  /** An algorithm's payload, declared per type in MessageBodies and read through bodyOf. */
  body?: MessageBodies[keyof MessageBodies];
  /** Set once the message was dropped by a partition or a dead receiver. */
  droppedAtMs?: number;
  /** When it was delivered or dropped (a paused receiver takes it late): set as it enters the message log. */
  doneAtMs?: number;
}

/** Each algorithm declares its bodies beside its rules (`declare module '../core'`): one type, no casts. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by each algorithm
export interface MessageBodies {}

export function bodyOf<T extends keyof MessageBodies>(m: Message, _type: T): MessageBodies[T] {
  return m.body as MessageBodies[T];
}

/** A service an algorithm declares: its id in faults and views, and its kind. */
export interface ServiceSpec {
  id: string;
  kind: string;
  label: string;
}

/** A bounded output list: the items from absolute index `base` on (older ones are gone). */
export interface Bounded<T> {
  list: T[];
  base: number;
}

/** Non-cloned, append-only outputs; checkpoints remember their lengths. */
export interface Outputs {
  events: Bounded<SimEvent>;
  samples: Bounded<import('./types').Sample>;
  /** Messages delivered or dropped, by doneAtMs: apart from the events, so the trace's hashes stay. */
  messages: Bounded<Message>;
}

/** How many items a bounded list has had in all, those gone included. */
export const totalOf = (b: Bounded<unknown>): number => b.base + b.list.length;

export const MAX_RECENT_WRITES = 12;
export const MAX_RECENT_DROPS = 24;
export const MAX_DEFERRED = 20_000;
/** The diagram draws the last minute; older messages go every MESSAGE_LOG_TRIM_EVERY pushes. */
export const MESSAGE_LOG_KEEP_MS = 75_000;
const MESSAGE_LOG_TRIM_EVERY = 1024;
/** A bound on the count too, whatever the rate (between half of this and all of it). */
export const MAX_MESSAGE_LOG = 40_000;

export interface CoreShape {
  timerSlots: number;
  readonly services?: readonly ServiceSpec[];
  readonly unsafeBy?: readonly InvariantName[];
  readonly losesWrites?: boolean;
  readonly words: { readonly epoch: string };
  initNode(e: Experiment, idx: number): unknown;
  initShared(e: Experiment, nodeCount: number): unknown;
}

function createNode(e: Experiment, alg: CoreShape, idx: number) {
  const witness = idx === e.nodes;
  return {
    idx,
    id: witness ? 'w' : `n${idx + 1}`,
    witness,
    /** The node's epoch as it believes it (Raft's term, a coordinator's epoch). Persisted. */
    term: 0,
    role: 'follower' as Role,
    alive: true,
    paused: false,
    pausedAtMs: -1,
    clockRate: 1,
    anchorRealMs: 0,
    anchorLocalMs: 0,
    knownLeader: -1,
    // Leader, as the kernel sees it.
    ready: false,
    /** Own-clock renew deadline (-1: none) until which a leader may act; checked before every write. */
    actUntilLocalMs: -1,
    pendingToken: 0,
    gens: new Array<number>(ALG_SLOT + alg.timerSlots).fill(0),
    /** Events that reached the node while it was paused, in arrival order. */
    deferred: [] as QueuedEvent[],
    p: alg.initNode(e, idx),
  };
}

export type NodeState<P = unknown> = Omit<ReturnType<typeof createNode>, 'p'> & { p: P };

export function createCore(e: Experiment, alg: CoreShape) {
  const total = e.nodes + (e.witness ? 1 : 0);
  const nodes: NodeState[] = Array.from({ length: total }, (_, i) => createNode(e, alg, i));
  const clients = e.workload.clients;
  return {
    e,
    nowMs: 0,
    seq: 0,
    msgSeq: 0,
    heap: [] as QueuedEvent[],
    nodes,
    /** Endpoints -1, -2...: storage and the algorithm's services; `group` -1: every group reaches it. */
    services: [{ id: 'storage', kind: 'storage' }, ...(alg.services ?? [])].map(({ id, kind }) => ({
      id,
      kind,
      alive: true,
      group: -1,
      gens: [] as number[],
    })),
    voterCount: total,
    majority: majorityOf(total),
    rngNet: seedRng(e.seed, 1),
    rngTimer: seedRng(e.seed, 2),
    rngClient: seedRng(e.seed, 3),
    /** Delays of the clients' traffic (their requests, and the writes and rejections they cause). */
    rngClientNet: seedRng(e.seed, 4),
    safety: { ...e.safety },
    /** Group number per node, or null when there is no partition. */
    groupOf: null as number[] | null,
    /** Groups made by isolating one endpoint: the services that reach every group do not reach these. */
    isolatedGroups: [] as number[],
    partition: null as string[][] | null,
    /** recent holds the last few write events; the snapshot shows them as StorageWrites. */
    storage: { maxTokenSeen: 0, accepted: 0, rejected: 0, recent: [] as WriteEvent[] },
    /** The leadership books (ledger.ts); a run with clients has a client view from its first sample on. */
    books: { ...createLedger(alg.losesWrites === true), clients: clients > 0 ? noClientWrites() : null },
    /** Watch notifications a coordination store sent, and the reads they made candidates do. */
    watchCounts: { notifications: 0, reads: 0 },
    dnsLeader: -1,
    clientLeader: new Array<number>(clients).fill(-1),
    clientCacheUntil: new Array<number>(clients).fill(0),
    /** When each client first sent the write it is still retrying (-1: none waiting). */
    clientWaitingSinceMs: new Array<number>(clients).fill(-1),
    /** By type, clients' requests aside. */
    sent: new Map<string, number>(),
    recentDrops: [] as Message[],
    nextSampleMs: 0,
    /** Invariants the election algorithm breaks by design (no quorum): reported as allowed by it. */
    unsafeByAlgorithm: [...(alg.unsafeBy ?? [])],
    /** What the algorithm calls an epoch (term, epoch), for the violations' details. */
    epochWord: alg.words.epoch,
    a: alg.initShared(e, total),
  };
}

export type Core = ReturnType<typeof createCore>;

export function localNow(c: Core, n: NodeState): number {
  return n.anchorLocalMs + (c.nowMs - n.anchorRealMs) * n.clockRate;
}

/** The real time at which node n's clock will read localMs (never before now). */
export function realAtLocal(c: Core, n: NodeState, localMs: number): number {
  const at = n.anchorRealMs + Math.ceil((localMs - n.anchorLocalMs) / n.clockRate - 1e-9);
  return at < c.nowMs ? c.nowMs : at;
}

/**
 * Whether node n's own clock has reached localMs, decided in real ms through realAtLocal's rounding
 * so a timer for a deadline finds it due when it fires: the float reading can fall short by 1e-11 at
 * a rate other than 1 and re-arm the timer at the same millisecond forever.
 */
export function due(c: Core, n: NodeState, localMs: number): boolean {
  return realAtLocal(c, n, localMs) <= c.nowMs;
}

/**
 * Spent queue entries for schedule to fill in again: most of a run's allocations were these. Shared
 * by every simulation in the process, safe as an entry joins only once its run let go of it (recycle).
 */
const spare: QueuedEvent[] = [];
const MAX_SPARE = 4096;

export function schedule(
  c: Core,
  atMs: number,
  kind: number,
  node: number,
  gen: number,
  msg: unknown = null,
): void {
  const ev = spare.pop();
  if (ev === undefined) return heapPush(c.heap, { atMs, seq: c.seq++, kind, node, gen, msg });
  ev.atMs = atMs;
  ev.seq = c.seq++;
  ev.kind = kind;
  ev.node = node;
  ev.gen = gen;
  ev.msg = msg;
  heapPush(c.heap, ev);
}

/** A spent queue entry kept nowhere (not deferred, not queued again) may be reused. */
export function recycle(ev: QueuedEvent): void {
  ev.msg = null;
  if (spare.length < MAX_SPARE) spare.push(ev);
}

/** Arm node n's timer in `slot` for real time atMs, cancelling the slot's earlier arming. */
export function scheduleTimer(c: Core, n: NodeState, slot: number, atMs: number): void {
  schedule(c, atMs, TIMER + slot, n.idx, ++n.gens[slot]);
}

export function cancelTimer(n: NodeState, slot: number): void {
  n.gens[slot]++;
}

/** Arm a service's timer (a store expiring sessions) in `slot` for atMs, as scheduleTimer does a node's. */
export function scheduleServiceTimer(c: Core, endpoint: number, slot: number, atMs: number): void {
  const gens = c.services[serviceIndex(endpoint)].gens;
  gens[slot] = (gens[slot] ?? 0) + 1;
  schedule(c, atMs, K.serviceTimer, endpoint, gens[slot], slot);
}

export function serviceTimerLive(c: Core, endpoint: number, slot: number, gen: number): boolean {
  return c.services[serviceIndex(endpoint)].gens[slot] === gen;
}

/** The endpoints of an algorithm's services of one kind: -2, -3... in AlgorithmInfo.services' order. */
export function serviceEndpoints(specs: readonly ServiceSpec[] | undefined, kind: string): number[] {
  return (specs ?? []).flatMap((s, i) => (s.kind === kind ? [-(i + 2)] : []));
}

/** The index into Core.services of an endpoint that is not a node. */
export function serviceIndex(endpoint: number): number {
  return -endpoint - 1;
}

export function nodeName(c: Core, idx: number): string {
  return idx < 0 ? c.services[-idx - 1].id : c.nodes[idx].id;
}

export function idxOf(c: Core, id: string): number {
  const s = c.services.findIndex((x) => x.id === id);
  if (s >= 0) return -s - 1;
  if (id === 'w') return c.e.nodes;
  return Number(id.slice(1)) - 1;
}

/**
 * Where a bounded output's retained part starts after `total` items (boundList drops the older half
 * past `max`): a pure function of the total, so a restored checkpoint keeps a straight run's window.
 */
export function retainedFrom(total: number, max: number): number {
  if (total <= max) return 0;
  const step = max + 1 - Math.floor(max / 2);
  return (Math.floor((total - max - 1) / step) + 1) * step;
}

/** Drop a bounded list's older half past `max`, at retainedFrom's cut; returns its new base. */
export function boundList(list: unknown[], base: number, max: number): number {
  if (list.length <= max) return base;
  const keepFrom = retainedFrom(base + list.length, max);
  list.splice(0, keepFrom - base);
  return keepFrom;
}

/** In-flight messages by id, read from the queue: a map of their own cost two operations a message. */
export function inflightMessages(c: Core): Message[] {
  const out: Message[] = [];
  const add = (ev: QueuedEvent) => {
    if (ev.kind === K.deliver && (ev.msg as Message).type !== 'clientWrite') out.push(ev.msg as Message);
  };
  for (const ev of c.heap) add(ev);
  for (const n of c.nodes) for (const ev of n.deferred) add(ev);
  return out.sort((a, b) => a.id - b.id);
}

export function emit(c: Core, out: Outputs, ev: SimEvent): void {
  out.events.list.push(ev);
  out.events.base = boundList(out.events.list, out.events.base, c.e.limits.maxEvents);
}

/** Log a message delivered or dropped now (clients' requests are not messages: network.ts). */
export function logMessage(c: Core, out: Outputs, m: Message): void {
  if (m.type === 'clientWrite') return;
  m.doneAtMs = c.nowMs;
  const list = out.messages.list;
  list.push(m);
  if (
    list.length % MESSAGE_LOG_TRIM_EVERY === 0 &&
    (list[0].doneAtMs as number) < c.nowMs - MESSAGE_LOG_KEEP_MS
  ) {
    // The log is in completion order: bisect for the first message to keep.
    const keepAfterMs = c.nowMs - MESSAGE_LOG_KEEP_MS;
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((list[mid].doneAtMs as number) < keepAfterMs) lo = mid + 1;
      else hi = mid;
    }
    list.splice(0, lo);
    out.messages.base += lo;
  }
  out.messages.base = boundList(list, out.messages.base, MAX_MESSAGE_LOG);
}

export function recordViolation(c: Core, out: Outputs, invariant: InvariantName, detail: string): void {
  noteViolation(c.books, c.nowMs, invariant, detail, allowedBy(invariant, c.safety, c.unsafeByAlgorithm));
  emit(c, out, { atMs: c.nowMs, type: 'violation', invariant, detail });
}
