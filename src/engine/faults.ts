// Faults and live commands: one function that the experiment's fault timeline, the page's
// buttons, scripted scenarios and the tests all call. Kill, restart, pause (with what a paused
// node defers and how it resumes), partition, heal, isolate and clock rate are the same for every
// algorithm; each algorithm is told what happened to its node through its hooks.
import type { ElectionAlgorithm } from './algorithm';
import type { Command } from './experiment';
import {
  K,
  MAX_DEFERRED,
  T,
  TIMER,
  cancelTimer,
  emit,
  idxOf,
  localNow,
  scheduleTimer,
  type Core,
  type Message,
  type NodeState,
  type Outputs,
} from './core';
import type { QueuedEvent } from './queue';
import { currentLeader, markLoss, release, sendManualWrite, updateLeaderCount } from './leadership';
import { heal, setGroups } from './network';

/** What a paused node runs when it resumes: an event that was deferred while it was paused. */
export type RunDeferred = (n: NodeState, ev: QueuedEvent) => void;

export function applyCommand(
  c: Core,
  out: Outputs,
  cmd: Command,
  live: boolean,
  alg: ElectionAlgorithm,
  runDeferred: RunDeferred,
): void {
  const fault = { atMs: c.nowMs, ...cmd } as Extract<Command, object> & { atMs: number };
  let n: NodeState | null = null;
  if ('node' in cmd) {
    n = cmd.node === 'leader' ? currentLeader(c) : (c.nodes[idxOf(c, cmd.node)] ?? null);
    if (!n) {
      emit(c, out, { atMs: c.nowMs, type: 'fault', fault, skipped: true, live });
      return;
    }
  }
  const skipped = !applies(c, cmd, n);
  emit(c, out, { atMs: c.nowMs, type: 'fault', fault, target: n?.id, ...(skipped ? { skipped } : {}), live });
  if (skipped) return;
  switch (cmd.do) {
    case 'kill':
      return kill(c, out, n!, alg);
    case 'restart':
      n!.alive = true;
      n!.role = 'follower';
      return alg.onRestart(c, out, n!);
    case 'pause':
      return pause(c, out, n!, cmd.forMs);
    case 'resume':
      return resume(n!, runDeferred);
    case 'partition':
      setGroups(c, cmd.groups, (id) => idxOf(c, id));
      return alg.onPartition(c, out);
    case 'heal':
      return heal(c);
    case 'isolate':
      return isolate(c, out, n!, alg);
    case 'clockRate':
      return setClockRate(c, n!, cmd.rate, alg);
    case 'campaign':
      return alg.campaign(c, out, n!, cmd.transfer ?? false);
    case 'write':
      return sendManualWrite(c, n!);
    case 'safety': {
      const { do: _do, ...switches } = cmd;
      Object.assign(c.safety, switches);
      return;
    }
  }
}

function applies(c: Core, cmd: Command, n: NodeState | null): boolean {
  switch (cmd.do) {
    case 'kill':
      return n!.alive;
    case 'restart':
      return !n!.alive;
    case 'pause':
      return n!.alive && !n!.paused;
    case 'resume':
      return n!.paused;
    case 'campaign':
      return n!.alive && !n!.paused && !n!.witness;
    case 'write':
      return n!.alive && !n!.paused;
    case 'heal':
      return c.partition !== null;
    default:
      return true;
  }
}

function kill(c: Core, out: Outputs, n: NodeState, alg: ElectionAlgorithm): void {
  release(c, out, n, 'killed');
  alg.onKill(c, n);
  n.alive = false;
  n.paused = false;
  n.pausedAtMs = -1;
  n.role = 'follower';
  n.ready = false;
  // What reached the node while it was paused dies with it: those messages are no longer in
  // flight (left in, they would be carried by every later snapshot and checkpoint).
  for (const ev of n.deferred) if (ev.kind === K.deliver) c.inflight.delete((ev.msg as Message).id);
  n.deferred = [];
  n.knownLeader = -1;
  for (let t = 0; t < n.gens.length; t++) cancelTimer(n, t);
  updateLeaderCount(c);
}

function pause(c: Core, out: Outputs, n: NodeState, forMs: number | undefined): void {
  markLoss(c, out, n, 'paused');
  n.paused = true;
  n.pausedAtMs = c.nowMs;
  if (forMs !== undefined) scheduleTimer(c, n, T.pause, c.nowMs + forMs);
}

/** A stop-the-world pause: nothing runs on the node; what reaches it waits, in order. */
export function defer(c: Core, n: NodeState, ev: QueuedEvent): void {
  if (n.deferred.length < MAX_DEFERRED) n.deferred.push(ev);
  // Past the bound the node loses it, as a process whose buffers are full would: a message
  // is then no longer in flight anywhere.
  else if (ev.kind === K.deliver) c.inflight.delete((ev.msg as Message).id);
}

export function resume(n: NodeState, runDeferred: RunDeferred): void {
  if (!n.paused) return;
  n.paused = false;
  n.pausedAtMs = -1;
  n.gens[T.pause]++;
  // A write whose lease check passed before the pause was already on its way out: it leaves
  // first, with the token it captured (Kleppmann's 33/34), before the node can notice
  // anything. Everything else then runs in the order it arrived.
  const isWriteSend = (ev: QueuedEvent) => ev.kind === WRITE_SEND;
  const queued = [...n.deferred.filter(isWriteSend), ...n.deferred.filter((ev) => !isWriteSend(ev))];
  n.deferred = [];
  for (const ev of queued) {
    if (!n.alive || n.paused) break;
    runDeferred(n, ev);
  }
}

const WRITE_SEND = TIMER + T.write;

function isolate(c: Core, out: Outputs, n: NodeState, alg: ElectionAlgorithm): void {
  const groups = (c.partition ?? [c.nodes.map((p) => p.id)])
    .map((g) => g.filter((id) => id !== n.id))
    .filter((g) => g.length > 0);
  setGroups(c, [[n.id], ...groups], (id) => idxOf(c, id));
  alg.onPartition(c, out);
}

function setClockRate(c: Core, n: NodeState, rate: number, alg: ElectionAlgorithm): void {
  n.anchorLocalMs = localNow(c, n);
  n.anchorRealMs = c.nowMs;
  n.clockRate = rate;
  if (!n.alive) return;
  alg.onClockRate(c, n);
}
