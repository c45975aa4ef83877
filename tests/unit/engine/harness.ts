// Shared helpers for the engine tests. They drive the real engine: a Simulation for behaviour
// over time, or one node's rules fed a single message for the rules that are about one exchange.
import {
  createCore,
  K,
  type Core,
  type Message,
  type NodeState,
  type Outputs,
} from '../../../src/engine/core';
import { rulesFor } from '../../../src/engine/algorithms';
import type { RaftNode } from '../../../src/engine/algorithms/raft';
import {
  normalizeExperiment,
  Simulation,
  type ExperimentInput,
  type NodeView,
  type SimEvent,
  type Trace,
} from '../../../src/engine';

export type EventOf<T extends SimEvent['type']> = Extract<SimEvent, { type: T }>;

export function eventsOf<T extends SimEvent['type']>(from: Simulation | Trace, type: T): EventOf<T>[] {
  const all = from instanceof Simulation ? from.events : from.events;
  return all.filter((e): e is EventOf<T> => e.type === type);
}

export function nodeView(sim: Simulation, id: string): NodeView {
  const n = sim.snapshot().nodes.find((x) => x.id === id);
  if (!n) throw new Error(`no node ${id}`);
  return n;
}

/** Alive nodes that believe they lead (the leader_count definition). */
export function leaders(sim: Simulation): NodeView[] {
  return sim.snapshot().nodes.filter((n) => n.alive && n.role === 'leader');
}

/** Step until some node is elected; returns the simulation and the leader's view. */
export function bootToLeader(
  input: ExperimentInput,
  withinMs = 10_000,
): { sim: Simulation; leader: NodeView } {
  const sim = new Simulation(input);
  while (leaders(sim).length === 0) {
    if (!sim.step() || sim.nowMs > withinMs)
      throw new Error(`no leader by ${withinMs} ms (seed ${sim.experiment.seed})`);
  }
  return { sim, leader: leaders(sim)[0] };
}

/** Step the simulation until pred holds (checked after every time step) or the limit passes. */
export function stepUntil(sim: Simulation, pred: () => boolean, untilMs: number): boolean {
  while (!pred()) {
    const next = sim.nextEventAtMs();
    if (next < 0 || next > untilMs) {
      sim.runUntil(untilMs);
      return pred();
    }
    sim.step();
  }
  return true;
}

/** Ids of the experiment's voters n1..nN. */
export function ids(n: number): string[] {
  return Array.from({ length: n }, (_, i) => `n${i + 1}`);
}

// ------------------------------------------------------------------ one node, one message

export interface Bench {
  c: Core;
  out: Outputs;
}

/** A cluster's state with no timers armed: nothing happens unless a test delivers a message. */
export function bench(input: ExperimentInput = {}): Bench {
  const e = normalizeExperiment(input);
  return {
    c: createCore(e, rulesFor(e.algorithm)),
    out: { events: { list: [], base: 0 }, samples: { list: [], base: 0 }, messages: { list: [], base: 0 } },
  };
}

type Incoming = Pick<Message, 'type' | 'term'> & Partial<Message>;

/** Deliver one message from `from` to `to` and return what `to` sent in reply. */
export function deliver(b: Bench, from: string, to: string, msg: Incoming): Message[] {
  const idx = (id: string) => b.c.nodes.findIndex((n) => n.id === id);
  const before = b.c.msgSeq;
  const m = {
    id: ++b.c.msgSeq,
    sentAtMs: b.c.nowMs,
    deliverAtMs: b.c.nowMs,
    ...msg,
    from: idx(from),
    to: idx(to),
  } as Message;
  const alg = rulesFor(b.c.e.algorithm);
  const n = b.c.nodes[idx(to)];
  // As the simulation delivers: storage's verdicts go to the algorithm's fencing rule.
  if (m.type === 'writeRejected') alg.onFenced?.(b.c, b.out, n, m.maxTokenSeen as number);
  else alg.onMessage(b.c, b.out, n, m);
  return b.c.heap
    .filter((e) => e.kind === K.deliver && (e.msg as Message).id > before + 1)
    .map((e) => e.msg as Message)
    .sort((x, y) => x.id - y.id);
}

export function benchNode(b: Bench, id: string): NodeState<RaftNode> {
  const n = b.c.nodes.find((x) => x.id === id);
  if (!n) throw new Error(`no node ${id}`);
  return n as NodeState<RaftNode>;
}

/** A node's shared and Raft fields in one object, for matching against what a test expects. */
export function flat(n: NodeState<RaftNode>): Record<string, unknown> {
  return { ...n, ...n.p };
}
