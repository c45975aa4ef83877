// The leadership kernel: an algorithm decides *who* leads and calls acquire() when a node takes
// office with a token, release() when it leaves, and renewed() when it renews. The kernel keeps
// leader_count, the failover ledger, the DNS-like leader record, the claim write, warm-up and the
// leader's write loop, the same for every algorithm.
import {
  T,
  cancelTimer,
  due,
  emit,
  recordViolation,
  scheduleTimer,
  type Core,
  type NodeState,
  type Outputs,
} from './core';
import { checkElection } from './invariants';
import { sendWrite } from './storage';
import {
  countLeaders,
  noteCampaign,
  noteElected,
  noteLost,
  noteReady,
  noteSurvived,
  previousLeaderOf,
} from './ledger';
import type { NodeView, Role, Snapshot, StepDownReason } from './types';

/**
 * Who leads, the lab's one rule: the alive node believing it leads in the highest epoch, paused or
 * not, the first in node order on a tie (no quorum). "leader" faults and the snapshot use it.
 */
export function leaderAmong<T extends { alive: boolean; role: Role; term: number }>(
  nodes: readonly T[],
): T | null {
  let top: T | null = null;
  for (const n of nodes) if (n.alive && n.role === 'leader' && (!top || n.term > top.term)) top = n;
  return top;
}

export function leaderOf(nodes: readonly NodeView[]): Snapshot['leader'] {
  const l = leaderAmong(nodes);
  return l ? { id: l.id, epoch: l.term } : null;
}

export function currentLeader(c: Core): NodeState | null {
  return leaderAmong(c.nodes);
}

/** leader_count: alive nodes that believe they lead (paused ones included). */
export function updateLeaderCount(c: Core): void {
  let believed = 0;
  let observed = 0;
  for (const n of c.nodes) {
    if (!n.alive || n.role !== 'leader') continue;
    believed++;
    if (!n.paused) observed++;
  }
  countLeaders(c.books, c.nowMs, believed, observed);
}

/** Whether a leader's own-clock renew deadline (if its algorithm sets one) has not passed. */
export function mayAct(c: Core, n: NodeState): boolean {
  return n.actUntilLocalMs < 0 || !due(c, n, n.actUntilLocalMs);
}

/** A campaign by node n or a named observer (a sentinel): the first after a loss is when it was detected. */
export function campaigned(
  c: Core,
  out: Outputs,
  who: NodeState | string,
  term: number,
  preVote = false,
  transfer = false,
): void {
  noteCampaign(c.books, c.nowMs);
  const node = typeof who === 'string' ? who : who.id;
  emit(c, out, { atMs: c.nowMs, type: 'campaign', node, term, preVote, transfer });
}

/**
 * Node n takes office with `token`; `votes` it won with (null: no vote), `holder` its identity if not
 * its name (a Kubernetes process). Ends with the claim write, so a zombie's write that arrives later
 * is fenced even before the new leader's first regular write. The algorithm then calls beginWarmUp.
 */
export function acquire(
  c: Core,
  out: Outputs,
  n: NodeState,
  token: number,
  votes: string[] | null,
  holder?: string,
): void {
  for (const v of checkElection({
    term: token,
    node: n.id,
    votes,
    majority: c.majority,
    voterCount: c.voterCount,
    previousLeaderOfTerm: previousLeaderOf(c.books, token),
    word: c.epochWord,
  })) {
    recordViolation(c, out, v.invariant, v.detail);
  }
  noteElected(c.books, c.nowMs, n.id, token, holder ?? n.id);
  n.role = 'leader';
  n.ready = false;
  n.knownLeader = n.idx;
  c.dnsLeader = n.idx;
  const elected = { atMs: c.nowMs, type: 'elected' as const, node: n.id, term: token, votes: votes ?? [] };
  emit(c, out, holder === undefined ? elected : { ...elected, holder });
  updateLeaderCount(c);
  sendWrite(c, n.idx, token, 'claim');
}

/** Warm-up: a new leader serves nothing until it is ready, warmUpMs after it took office. */
export function beginWarmUp(c: Core, n: NodeState): void {
  scheduleTimer(c, n, T.ready, c.nowMs + c.e.warmUpMs);
}

/** Node n leaves office (false, doing nothing, if it was not leading); the algorithm does its own part. */
export function release(c: Core, out: Outputs, n: NodeState, reason: StepDownReason): boolean {
  if (n.role !== 'leader') return false;
  markLoss(c, out, n, reason);
  n.role = 'follower';
  n.ready = false;
  n.actUntilLocalMs = -1;
  cancelTimer(n, T.write);
  cancelTimer(n, T.ready);
  emit(c, out, { atMs: c.nowMs, type: 'steppedDown', node: n.id, term: n.term, reason });
  updateLeaderCount(c);
  return true;
}

/** The leader renewed: one that was marked lost (a short pause, a healed partition) survived it. */
export function renewed(c: Core, out: Outputs, n: NodeState): void {
  if (noteSurvived(c.books, n.id))
    emit(c, out, { atMs: c.nowMs, type: 'survived', node: n.id, term: n.term });
}

/** Mark the current leader as lost (killed, paused, cut off); a later election closes the failover. */
export function markLoss(c: Core, out: Outputs, n: NodeState, cause: string): void {
  if (n.role !== 'leader' || c.books.pendingLoss) return;
  if (currentLeader(c) !== n) return;
  noteLost(c.books, c.nowMs, n.id, cause);
  emit(c, out, { atMs: c.nowMs, type: 'lost', node: n.id, term: n.term, cause });
}

export function onReady(c: Core, out: Outputs, n: NodeState): void {
  if (n.role !== 'leader') return;
  n.ready = true;
  emit(c, out, { atMs: c.nowMs, type: 'ready', node: n.id, term: n.term });
  noteReady(c.books, n.id, n.term, c.nowMs);
  onWriteTick(c, n);
}

// ---------------------------------------------------------------- the leader's write loop

/** Step one of a write: check the lease by the node's own clock and capture the token. */
export function onWriteTick(c: Core, n: NodeState): void {
  if (n.role !== 'leader' || !n.ready) return;
  if (!mayAct(c, n)) return;
  n.pendingToken = n.term;
  // Step two comes after the work; a pause that lands in between freezes the node mid-write.
  scheduleTimer(c, n, T.write, c.nowMs + c.e.workload.leaderWriteEveryMs);
}

/** Step two: send the write with the token captured at the check, whatever has happened since. */
export function onWriteSend(c: Core, n: NodeState): void {
  sendWrite(c, n.idx, n.pendingToken, 'leader');
  onWriteTick(c, n);
}
