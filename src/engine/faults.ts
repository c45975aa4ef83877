// Faults and live commands: one function that the experiment's fault timeline, the page's
// buttons, scripted scenarios and the tests all call.
import type { Command } from './experiment';
import {
  K,
  STORAGE,
  T,
  cancelTimer,
  emit,
  idxOf,
  jitter,
  localNow,
  realAtLocal,
  scheduleTimer,
  type Core,
  type Message,
  type NodeState,
  type Outputs,
} from './core';
import {
  armElection,
  markLoss,
  rearmElection,
  sendManualWrite,
  startElection,
  stepDown,
  updateLeaderCount,
} from './rules';

/** The current leader: the alive node that believes it leads in the highest term (paused or not). */
export function currentLeader(c: Core): NodeState | null {
  let top: NodeState | null = null;
  for (const n of c.nodes) if (n.alive && n.role === 'leader' && (!top || n.term > top.term)) top = n;
  return top;
}

export function applyCommand(
  c: Core,
  out: Outputs,
  cmd: Command,
  live: boolean,
  resume: (n: NodeState) => void,
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
      return kill(c, out, n!);
    case 'restart':
      return restart(c, n!);
    case 'pause':
      return pause(c, n!, cmd.forMs);
    case 'resume':
      return resume(n!);
    case 'partition':
      return setPartition(c, cmd.groups);
    case 'heal':
      c.groupOf = null;
      c.storageGroup = -1;
      c.partition = null;
      return;
    case 'isolate':
      return isolate(c, n!);
    case 'clockRate':
      return setClockRate(c, n!, cmd.rate);
    case 'campaign':
      return startElection(c, out, n!, cmd.transfer ?? false);
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

function kill(c: Core, out: Outputs, n: NodeState): void {
  if (n.role === 'leader') stepDown(c, out, n, 'killed');
  n.alive = false;
  n.paused = false;
  n.pausedAtMs = -1;
  n.role = 'follower';
  n.ready = false;
  n.preVoting = false;
  n.votes = [];
  // What reached the node while it was paused dies with it: those messages are no longer in
  // flight (left in, they would be carried by every later snapshot and checkpoint).
  for (const ev of n.deferred) if (ev.kind === K.deliver) c.inflight.delete((ev.msg as Message).id);
  n.deferred = [];
  n.knownLeader = -1;
  n.electionTimerAtMs = -1;
  for (let t = 0; t < n.gens.length; t++) cancelTimer(n, t);
  updateLeaderCount(c);
}

function restart(c: Core, n: NodeState): void {
  // Term and vote were persisted; everything else starts fresh. A restarted node waits a full
  // lease before campaigning or voting, as it cannot know whether a leader still holds one.
  n.alive = true;
  n.role = 'follower';
  n.lastHeardLocalMs = localNow(c, n);
  n.lastHeardRealMs = c.nowMs;
  armElection(c, n, localNow(c, n) + c.e.lease.durationMs + jitter(c));
}

function pause(c: Core, n: NodeState, forMs: number | undefined): void {
  markLoss(c, n, 'paused');
  n.paused = true;
  n.pausedAtMs = c.nowMs;
  if (forMs !== undefined) scheduleTimer(c, n, T.pause, K.resume, c.nowMs + forMs);
}

function setPartition(c: Core, groups: string[][]): void {
  const groupOf = c.nodes.map(() => groups.length);
  let storageGroup = -1;
  groups.forEach((g, gi) =>
    g.forEach((id) => {
      const i = idxOf(c, id);
      if (i === STORAGE) storageGroup = gi;
      else if (i < c.nodes.length) groupOf[i] = gi;
    }),
  );
  c.groupOf = groupOf;
  c.storageGroup = storageGroup;
  const rest = c.nodes.filter((n) => groupOf[n.idx] === groups.length).map((n) => n.id);
  c.partition = rest.length ? [...groups.map((g) => [...g]), rest] : groups.map((g) => [...g]);
  const leader = currentLeader(c);
  if (leader) {
    const side = c.nodes.filter((p) => groupOf[p.idx] === groupOf[leader.idx]).length;
    if (side < c.majority) markLoss(c, leader, 'partitioned');
  }
}

function isolate(c: Core, n: NodeState): void {
  const groups = (c.partition ?? [c.nodes.map((p) => p.id)])
    .map((g) => g.filter((id) => id !== n.id))
    .filter((g) => g.length > 0);
  setPartition(c, [[n.id], ...groups]);
}

function setClockRate(c: Core, n: NodeState, rate: number): void {
  n.anchorLocalMs = localNow(c, n);
  n.anchorRealMs = c.nowMs;
  n.clockRate = rate;
  if (!n.alive) return;
  // Timers measured by the node's own clock move with it.
  rearmElection(c, n);
  if (n.role === 'leader') {
    cancelTimer(n, T.heartbeat);
    rescheduleHeartbeat(c, n);
    rescheduleRenewCheck(c, n);
  }
}

function rescheduleHeartbeat(c: Core, n: NodeState): void {
  const last = n.rounds.length ? n.rounds[n.rounds.length - 1].sentLocalMs : n.lastRenewLocalMs;
  scheduleTimer(c, n, T.heartbeat, K.heartbeat, realAtLocal(c, n, last + c.e.lease.retryPeriodMs));
}

function rescheduleRenewCheck(c: Core, n: NodeState): void {
  scheduleTimer(
    c,
    n,
    T.renew,
    K.renewCheck,
    realAtLocal(c, n, n.lastRenewLocalMs + c.e.lease.renewDeadlineMs),
  );
}
