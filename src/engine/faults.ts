// Faults and live commands: one function for the fault timeline, the page's buttons, scenarios and
// tests. Each fault is the same for every algorithm, which is told through its hooks.
import type { ElectionAlgorithm } from './algorithm';
import type { Command, Fault } from './experiment';
import {
  MAX_DEFERRED,
  T,
  TIMER,
  cancelTimer,
  emit,
  idxOf,
  localNow,
  scheduleTimer,
  type Core,
  type NodeState,
  type Outputs,
} from './core';
import type { QueuedEvent } from './queue';
import { currentLeader, markLoss, release, updateLeaderCount } from './leadership';
import { heal, setGroups } from './network';
import { causesFailover, noteFault } from './ledger';
import { sendWrite } from './storage';

/** Runs an event a paused node deferred, when it resumes. */
export type RunDeferred = (n: NodeState, ev: QueuedEvent) => void;

export function applyCommand(
  c: Core,
  out: Outputs,
  cmd: Command,
  live: boolean,
  alg: ElectionAlgorithm,
  runDeferred: RunDeferred,
): void {
  if ('node' in cmd && cmd.node !== 'leader' && idxOf(c, cmd.node) < 0) {
    return serviceFault(c, out, cmd, live, alg);
  }
  let n: NodeState | null = null;
  if ('node' in cmd) n = cmd.node === 'leader' ? currentLeader(c) : (c.nodes[idxOf(c, cmd.node)] ?? null);
  // A command aimed at a node that is not there does nothing; the others do what APPLIES says.
  const skipped = ('node' in cmd && !n) || !(APPLIES[cmd.do]?.(n!, c) ?? true);
  emitFault(c, out, cmd, live, skipped, n?.id);
  if (skipped) return;
  if (causesFailover(cmd)) noteFault(c.books, c.nowMs);
  switch (cmd.do) {
    case 'kill':
      return kill(c, out, n!, alg);
    case 'stop':
      if (!alg.onStop) return kill(c, out, n!, alg);
      return alg.onStop(c, out, n!);
    case 'restart':
      n!.alive = true;
      n!.role = 'follower';
      return alg.onRestart(c, out, n!);
    case 'pause':
      return pause(c, out, n!, cmd.forMs);
    case 'resume':
      return resume(c, n!, runDeferred);
    case 'partition':
      setGroups(c, cmd.groups, (id) => idxOf(c, id));
      return alg.onNetworkChange(c, out);
    case 'heal':
      heal(c);
      return alg.onNetworkChange(c, out);
    case 'isolate':
      isolate(c, n!.id);
      return alg.onNetworkChange(c, out);
    case 'clockRate':
      n!.anchorLocalMs = localNow(c, n!);
      n!.anchorRealMs = c.nowMs;
      n!.clockRate = cmd.rate;
      if (n!.alive) alg.onClockRate(c, n!);
      return;
    case 'campaign':
      return alg.campaign(c, out, n!, cmd.transfer ?? false);
    case 'write':
      sendWrite(c, n!.idx, n!.term, 'manual');
      return alg.onWrite?.(c, n!);
    case 'safety': {
      const { do: _do, ...switches } = cmd;
      Object.assign(c.safety, switches);
      return;
    }
  }
}

/** The fault's event: `skipped` if it did nothing. */
function emitFault(c: Core, out: Outputs, cmd: Command, live: boolean, skipped: boolean, target?: string) {
  const fault = { atMs: c.nowMs, ...cmd } as Fault;
  emit(c, out, { atMs: c.nowMs, type: 'fault', fault, target, ...(skipped ? { skipped } : {}), live });
}

/** A fault aimed at a service: killed, restarted or cut off like a node (storage, the protected, never). */
function serviceFault(
  c: Core,
  out: Outputs,
  cmd: Extract<Command, { node: string }>,
  live: boolean,
  alg: ElectionAlgorithm,
): void {
  const svc = c.services[-idxOf(c, cmd.node) - 1];
  const applies =
    svc !== undefined &&
    svc.kind !== 'storage' &&
    ((cmd.do === 'kill' && svc.alive) || (cmd.do === 'restart' && !svc.alive) || cmd.do === 'isolate');
  emitFault(c, out, cmd, live, !applies, cmd.node);
  if (!applies) return;
  noteFault(c.books, c.nowMs);
  if (cmd.do === 'kill') svc.alive = false;
  else if (cmd.do === 'restart') svc.alive = true;
  else isolate(c, svc.id);
  alg.onNetworkChange(c, out);
}

const running = (n: NodeState) => n.alive && !n.paused;

/** Whether a command does anything now (its node, where it has one, is found); others always apply. */
const APPLIES: Partial<Record<Command['do'], (n: NodeState, c: Core) => boolean>> = {
  kill: (n) => n.alive,
  stop: running,
  restart: (n) => !n.alive,
  pause: running,
  resume: (n) => n.paused,
  campaign: (n) => running(n) && !n.witness,
  write: running,
  heal: (_n, c) => c.partition !== null,
};

function kill(c: Core, out: Outputs, n: NodeState, alg: ElectionAlgorithm): void {
  release(c, out, n, 'killed');
  alg.onKill(c, n);
  bringDown(c, n);
}

/** The node's process ends (its algorithm has cleaned its own state). */
export function bringDown(c: Core, n: NodeState): void {
  n.alive = false;
  n.paused = false;
  n.pausedAtMs = -1;
  n.role = 'follower';
  n.ready = false;
  // What reached the node while it was paused dies with it: those messages are no longer in flight.
  n.deferred = [];
  n.knownLeader = -1;
  for (let t = 0; t < n.gens.length; t++) cancelTimer(n, t);
  updateLeaderCount(c);
}

function pause(c: Core, out: Outputs, n: NodeState, forMs: number | undefined): void {
  markLoss(c, out, n, 'paused');
  n.paused = true;
  n.pausedAtMs = c.nowMs;
  // A paused leader fails its scrape: the observed leader_count drops.
  updateLeaderCount(c);
  if (forMs !== undefined) scheduleTimer(c, n, T.pause, c.nowMs + forMs);
}

/** A stop-the-world pause: nothing runs on the node; what reaches it waits, in order. */
export function defer(n: NodeState, ev: QueuedEvent): void {
  // Past the bound the node loses it, as a process with full buffers would.
  if (n.deferred.length < MAX_DEFERRED) n.deferred.push(ev);
}

export function resume(c: Core, n: NodeState, runDeferred: RunDeferred): void {
  if (!n.paused) return;
  n.paused = false;
  n.pausedAtMs = -1;
  n.gens[T.pause]++;
  updateLeaderCount(c);
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

/** Cut one endpoint off from everyone, keeping the partition among the rest (earlier isolations stay). */
function isolate(c: Core, id: string): void {
  const groups = (c.partition ?? [c.nodes.map((p) => p.id)])
    .map((g) => g.filter((x) => x !== id))
    .filter((g) => g.length > 0);
  const isolated = (c.partition ?? []).filter((g, gi) => g.length === 1 && c.isolatedGroups.includes(gi));
  setGroups(c, [[id], ...groups], (x) => idxOf(c, x), [...isolated.map((g) => g[0]), id]);
}
