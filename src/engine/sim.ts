// The Simulation: event loop, commands, samples, snapshots and traces for the page, CLI, scenarios and
// tests. It holds no rules: each event goes to the algorithm, the kernel, storage, clients or faults.
import type { ElectionAlgorithm } from './algorithm';
import { rulesFor } from './algorithms';
import {
  parseCommand,
  commandProblems,
  formatErrors,
  normalizeExperiment,
  type Command,
  type Experiment,
  type ExperimentInput,
} from './experiment';
import { heapPop, heapPush, type QueuedEvent } from './queue';
import { nextInt } from './rng';
import {
  K,
  boundList,
  serviceIndex,
  serviceTimerLive,
  MAX_MESSAGE_LOG,
  MAX_RECENT_DROPS,
  T,
  TIMER,
  createCore,
  totalOf,
  emit,
  inflightMessages,
  localNow,
  logMessage,
  nodeName,
  retainedFrom,
  recycle,
  schedule,
  type Bounded,
  type Core,
  type Message,
  type NodeState,
  type Outputs,
} from './core';
import { onClientTick, onClientWrite, onClientWriteToDeadNode } from './clients';
import { applyCommand, defer, resume } from './faults';
import { currentLeader, onReady, onWriteSend } from './leadership';
import { STORAGE, canReach, recycleMessage } from './network';
import { onStorageWrite } from './storage';
import { sampleOf, snapshotOf, summaryOf } from './readModel';
import type {
  MessageLog,
  MessageView,
  NodeView,
  Sample,
  SimEvent,
  Snapshot,
  StorageWrite,
  Summary,
  Trace,
} from './types';

export interface Checkpoint {
  core: Core;
  eventsTotal: number;
  samplesTotal: number;
  messagesTotal: number;
  eventsProcessed: number;
}

export class Simulation {
  readonly experiment: Experiment;
  readonly algorithm: ElectionAlgorithm;
  private c: Core;
  private out: Outputs = { events: emptyList(), samples: emptyList(), messages: emptyList() };
  /** Events processed so far (for benchmarks). */
  eventsProcessed = 0;
  /**
   * Whether the run keeps the space-time diagram's message log: off until something reads it (LabEngine,
   * at the diagram's first read), as it is a fifth of a headless run's cost. The run is the same either way.
   */
  logMessages = false;
  /** Restores so far: the message log's generation. */
  private restores = 0;
  private readonly runDeferred = (n: NodeState, ev: QueuedEvent) => this.runDeferredEvent(n, ev);
  /** Whether the event being dispatched was kept (deferred, or queued again), so not recycled. */
  private kept = false;

  /** `prepare` may change the initial state: tests start from a source's test table (terms, votes, logs). */
  constructor(input: ExperimentInput | Experiment, prepare?: (core: Core) => void) {
    this.experiment = normalizeExperiment(input);
    const e = this.experiment;
    const alg = (this.algorithm = rulesFor(e.algorithm));
    const c = (this.c = createCore(e, alg));
    prepare?.(c);
    for (const n of c.nodes) alg.boot(c, this.out, n);
    for (let i = 0; i < e.workload.clients; i++) {
      schedule(c, nextInt(c.rngClient, 0, e.workload.clientWriteEveryMs - 1), K.clientTick, i, 0);
    }
    for (const f of e.faults) schedule(c, f.atMs, K.fault, -1, 0, f);
  }

  get nowMs(): number {
    return this.c.nowMs;
  }

  /** The next queued event's time, or -1. */
  nextEventAtMs(): number {
    return this.c.heap.length ? this.c.heap[0].atMs : -1;
  }

  /** Process every event due at or before untilMs, then set the clock to untilMs. */
  runUntil(untilMs: number): void {
    const c = this.c;
    const heap = c.heap;
    while (heap.length && heap[0].atMs <= untilMs) {
      const at = heap[0].atMs;
      while (c.nextSampleMs < at) this.takeSample();
      const ev = heapPop(heap) as QueuedEvent;
      c.nowMs = at;
      this.kept = false;
      this.dispatch(ev);
      if (!this.kept) recycle(ev);
      this.eventsProcessed++;
    }
    if (untilMs > c.nowMs) c.nowMs = untilMs;
    while (c.nextSampleMs <= untilMs) this.takeSample();
  }

  /** Process the next distinct time step's events; false when nothing is queued. */
  step(): boolean {
    const at = this.nextEventAtMs();
    if (at < 0) return false;
    this.runUntil(at);
    return true;
  }

  /** Apply a live command now (after every event due at this millisecond). */
  apply(command: Command | unknown): void {
    const parsed = parseCommand(command);
    if (!parsed.ok) throw new Error('invalid command: ' + formatErrors(parsed.errors));
    const problems = commandProblems(this.experiment, parsed.command);
    if (problems.length) throw new Error('invalid command: ' + formatErrors(problems));
    applyCommand(this.c, this.out, parsed.command, true, this.algorithm, this.runDeferred);
  }

  private takeSample(): void {
    const c = this.c;
    const at = c.nextSampleMs;
    const saved = c.nowMs;
    c.nowMs = at;
    const leader = currentLeader(c);
    let maxTerm = 0;
    for (const n of c.nodes) if (n.term > maxTerm) maxTerm = n.term;
    const s = sampleOf(c.books, at, {
      leaderCountObserved: c.books.observedCount,
      maxTerm,
      maxTokenSeen: c.storage.maxTokenSeen,
      renewalLatencyMs: leader ? this.algorithm.renewalLatencyMs(c, leader, at) : 0,
      watch: this.algorithm.watchCounts ? c.watchCounts : undefined,
    });
    c.nowMs = saved;
    const out = this.out;
    out.samples.list.push(s);
    out.samples.base = boundList(out.samples.list, out.samples.base, c.e.limits.maxSamples);
    c.nextSampleMs = at + c.e.sampleEveryMs;
  }

  private dispatch(ev: QueuedEvent): void {
    const c = this.c;
    // Deliveries first: most of a run's events.
    if (ev.kind === K.deliver) {
      const m = ev.msg as Message;
      const n = ev.node < 0 ? null : c.nodes[ev.node];
      const alive = n ? n.alive : c.services[serviceIndex(ev.node)].alive;
      if (!alive || !canReach(c, m.from, ev.node)) return this.drop(m);
      if (n?.paused) return this.defer(n, ev);
      if (this.logMessages) logMessage(c, this.out, m);
      if (n) this.deliver(n, m);
      else if (ev.node === STORAGE) onStorageWrite(c, this.out, m);
      else this.algorithm.onServiceMessage?.(c, this.out, ev.node, m);
      if (!this.logMessages) recycleMessage(m);
      return;
    }
    if (ev.kind === K.fault) {
      const { atMs: _at, ...cmd } = ev.msg as Command & { atMs: number };
      return applyCommand(c, this.out, cmd as Command, false, this.algorithm, this.runDeferred);
    }
    if (ev.kind === K.serviceTimer) {
      // A store's timer belongs to the store as a whole (its algorithm checks what a majority can do).
      const slot = ev.msg as number;
      if (serviceTimerLive(c, ev.node, slot, ev.gen))
        this.algorithm.onServiceTimer?.(c, this.out, ev.node, slot);
      return;
    }
    if (ev.kind === K.clientTick) {
      // The entry comes back as the client's next tick, saving an allocation per client write (most
      // of the queue's traffic); its seq is taken after the tick's sends, as a fresh tick's would be.
      ev.atMs = onClientTick(c, ev.node);
      ev.seq = c.seq++;
      heapPush(c.heap, ev);
      this.kept = true;
      return;
    }
    const n = c.nodes[ev.node];
    if (ev.kind === K.clientWrite) {
      // Clients reach any node whatever the partition (they are outside the cluster).
      if (!n.alive) return onClientWriteToDeadNode(c, this.out, n, ev.gen);
      if (n.paused) return this.defer(n, ev);
      return this.clientWrite(n, ev.gen);
    }
    if (!n.alive) return;
    if (ev.kind === TIMER + T.pause) {
      if (ev.gen !== n.gens[T.pause] || !n.paused) return;
      emit(c, this.out, { atMs: c.nowMs, type: 'resumed', node: n.id, pausedMs: c.nowMs - n.pausedAtMs });
      return resume(c, n, this.runDeferred);
    }
    if (n.paused) return this.defer(n, ev);
    this.runTimer(n, ev);
  }

  private defer(n: NodeState, ev: QueuedEvent): void {
    this.kept = true;
    defer(n, ev);
  }

  /** A message reaches a live node: storage's verdicts go to the algorithm's fencing rule. */
  private deliver(n: NodeState, m: Message): void {
    if (m.type === 'writeRejected') {
      this.algorithm.onFenced?.(this.c, this.out, n, m.maxTokenSeen as number);
    } else if (m.type === 'clientWrite') {
      // Clients' requests are queued as events of their own (sendClientWrite): this lets a test send one.
      this.clientWrite(n, m.client as number);
    } else {
      this.algorithm.onMessage(this.c, this.out, n, m);
    }
  }

  private clientWrite(n: NodeState, client: number): void {
    if (onClientWrite(this.c, this.out, n, client)) this.algorithm.onWrite?.(this.c, n);
  }

  private runTimer(n: NodeState, ev: QueuedEvent): void {
    const slot = ev.kind - TIMER;
    if (ev.gen !== n.gens[slot]) return;
    const c = this.c;
    const out = this.out;
    if (slot === T.write) {
      onWriteSend(c, n);
      return this.algorithm.onWrite?.(c, n);
    }
    if (slot === T.ready) return onReady(c, out, n);
    this.algorithm.onTimer(c, out, n, slot);
  }

  private runDeferredEvent(n: NodeState, ev: QueuedEvent): void {
    if (ev.kind === K.deliver) {
      const m = ev.msg as Message;
      if (this.logMessages) logMessage(this.c, this.out, m);
      this.deliver(n, m);
    } else if (ev.kind === K.clientWrite) {
      this.clientWrite(n, ev.gen);
    } else {
      this.runTimer(n, ev);
    }
  }

  private drop(m: Message): void {
    const c = this.c;
    if (m.type === 'clientWrite') return;
    m.deliverAtMs = c.nowMs;
    m.droppedAtMs = c.nowMs;
    c.recentDrops.push(m);
    if (c.recentDrops.length > MAX_RECENT_DROPS) c.recentDrops.shift();
    if (this.logMessages) logMessage(c, this.out, m);
  }

  // ------------------------------------------------------------------ reading

  get events(): readonly SimEvent[] {
    return this.out.events.list;
  }

  /** Events emitted so far, those dropped by the bound included. */
  get eventsTotal(): number {
    return totalOf(this.out.events);
  }

  /** Events with absolute index >= from (those still retained). */
  eventsSince(from: number): SimEvent[] {
    const { list, base } = this.out.events;
    return list.slice(Math.max(0, from - base));
  }

  get samples(): readonly Sample[] {
    return this.out.samples.list;
  }

  /** The message log, read-only: views make their records from it (messageLog.ts), not the engine. */
  get messageLog(): MessageLog {
    return { ...this.out.messages, generation: this.restores };
  }

  get samplesTotal(): number {
    return totalOf(this.out.samples);
  }

  summary(): Summary {
    const c = this.c;
    return summaryOf(c.books, c.nowMs, {
      eventsDropped: this.out.events.base,
      watch: c.watchCounts,
      electionMessages: this.algorithm.messages.reduce(
        (sum, k) => sum + (k.election ? (c.sent.get(k.type) ?? 0) : 0),
        0,
      ),
    });
  }

  snapshot(): Snapshot {
    const c = this.c;
    const { recent, ...register } = c.storage;
    const view = (m: Message): MessageView => {
      const v: MessageView = {
        id: m.id,
        type: m.type as MessageView['type'],
        from: nodeName(c, m.from),
        to: nodeName(c, m.to),
        term: m.term,
        sentAtMs: m.sentAtMs,
        deliverAtMs: m.deliverAtMs,
      };
      if (m.granted !== undefined) v.granted = m.granted;
      if (m.token !== undefined) v.token = m.token;
      if (m.status !== undefined) v.status = m.status;
      if (m.droppedAtMs !== undefined) v.droppedAtMs = m.droppedAtMs;
      return v;
    };
    const byTarget: Record<string, number> = {};
    let unresolved = 0;
    for (const t of c.clientLeader) {
      if (t < 0) unresolved++;
      else byTarget[c.nodes[t].id] = (byTarget[c.nodes[t].id] ?? 0) + 1;
    }
    return snapshotOf(c.books, {
      nowMs: c.nowMs,
      seed: c.e.seed,
      nodes: c.nodes.map((n) => this.nodeView(n)),
      messages: [...inflightMessages(c), ...c.recentDrops].map(view),
      storage: {
        ...register,
        // Each entry is also the trace's write event: copied without its type.
        recent: recent.map(({ type: _type, ...w }): StorageWrite => w),
      },
      partition: c.partition ? c.partition.map((g) => [...g]) : null,
      safety: { ...c.safety },
      clients: { count: c.clientLeader.length, byTarget, unresolved },
      leaderCountObserved: c.books.observedCount,
      services: (this.algorithm.services ?? []).map((spec, i) => ({
        id: spec.id,
        kind: spec.kind,
        label: spec.label,
        alive: c.services[i + 1].alive,
      })),
      eventCount: this.eventsTotal,
      ...(this.algorithm.queueView ? { queue: this.algorithm.queueView(c) } : {}),
    });
  }

  private nodeView(n: NodeState): NodeView {
    const c = this.c;
    const a = this.algorithm.nodeView(c, n);
    return {
      id: n.id,
      witness: n.witness,
      role: n.role,
      term: n.term,
      votedFor: a.votedFor ?? null,
      alive: n.alive,
      paused: n.paused,
      pausedAtMs: n.pausedAtMs,
      clockRate: n.clockRate,
      localNowMs: Math.round(localNow(c, n)),
      knownLeader: n.knownLeader >= 0 ? c.nodes[n.knownLeader].id : null,
      ready: n.ready,
      deadlineAtMs: a.deadlineAtMs,
      lastRenewAtMs: a.lastRenewAtMs,
      votes: a.votes ?? [],
      preVoting: a.preVoting ?? false,
    };
  }

  /** The trace so far: the engine's public output format. */
  trace(): Trace {
    const { recent: _recent, ...storage } = this.c.storage;
    return {
      experiment: this.experiment,
      events: [...this.out.events.list],
      samples: [...this.out.samples.list],
      summary: this.summary(),
      final: {
        nodes: this.c.nodes.map((n) => {
          const { id, role, term, votedFor, alive, paused, clockRate } = this.nodeView(n);
          return { id, role, term, votedFor, alive, paused, clockRate };
        }),
        storage,
      },
    };
  }

  // ------------------------------------------------------------------ checkpoints

  checkpoint(): Checkpoint {
    return {
      core: structuredClone(this.c),
      eventsTotal: this.eventsTotal,
      samplesTotal: this.samplesTotal,
      messagesTotal: totalOf(this.out.messages),
      eventsProcessed: this.eventsProcessed,
    };
  }

  /** Copies of the output lists (their items are shared). */
  outputs(): Outputs {
    const copy = <T>(b: Bounded<T>): Bounded<T> => ({ list: b.list.slice(), base: b.base });
    return {
      events: copy(this.out.events),
      samples: copy(this.out.samples),
      messages: copy(this.out.messages),
    };
  }

  /**
   * Restore a checkpoint of this run's past, truncating the outputs; `later`, outputs() from further
   * on, lets one ahead of now be restored without simulating up to it (the page's quick jumps).
   */
  restore(cp: Checkpoint, later?: Outputs): void {
    const out = this.out;
    const limits = this.experiment.limits;
    const reaches = (o: Outputs) =>
      cp.eventsTotal <= totalOf(o.events) && cp.samplesTotal <= totalOf(o.samples);
    const from = reaches(out) ? out : later;
    if (!from || !reaches(from)) throw new Error('restore: no record of this run reaches the checkpoint');
    const own = from === out;
    out.events = windowAt(from.events, cp.eventsTotal, limits.maxEvents, own);
    out.samples = windowAt(from.samples, cp.samplesTotal, limits.maxSamples, own);
    // A record's log short of the checkpoint keeps what it has: the diagram starts later (messageLogFromMs).
    const messagesTotal = Math.min(cp.messagesTotal, totalOf(from.messages));
    out.messages = windowAt(from.messages, messagesTotal, MAX_MESSAGE_LOG, own);
    this.restores++;
    this.c = structuredClone(cp.core);
    this.eventsProcessed = cp.eventsProcessed;
  }
}

/**
 * A bounded output as it stood after `total` items, cut from the same run's list (now or later): the
 * window a straight run would have kept, or as much of it as is left. The total is always right.
 */
function windowAt<T>({ list, base }: Bounded<T>, total: number, max: number, own: boolean): Bounded<T> {
  const start = Math.max(base, retainedFrom(total, max));
  if (start >= total) return { list: [], base: total };
  // Going back in the simulation's own list: truncating it in place is enough.
  if (own && start === base) {
    list.length = total - base;
    return { list, base };
  }
  return { list: list.slice(start - base, total - base), base: start };
}

const emptyList = <T>(): Bounded<T> => ({ list: [], base: 0 });

export function runExperiment(input: ExperimentInput | Experiment): Trace {
  const sim = new Simulation(input);
  sim.runUntil(sim.experiment.untilMs);
  return sim.trace();
}
