// Raft's leader election as etcd's raft library runs it (etcd-io/raft, raft.go): a randomized
// election timeout in [et, 2et) drawn on every reset, heartbeats, one persisted vote per term, a
// refusing vote reply carrying the voter's term, a majority of the configured voters, the log
// up-to-date check, and PreVote and CheckQuorum as switches, in ms on each node's own clock rather
// than ticks. The leader's writes carry its term; Raft never hears storage's verdicts (the app does).
import type { ElectionAlgorithm } from '../algorithm';
import { ALGORITHM_INFO } from './info';
import { raftPage } from './pages/raft';
import { armAtLocal, armIn, cancelTimers, renewalLatency, settingsFor, stateViews, timerSlots } from './kit';
import { bodyOf, cancelTimer, due, localNow, realAtLocal, recordViolation, scheduleTimer } from '../core';
import type { Core, Message, NodeState, Outputs } from '../core';
import type { Experiment } from '../experiment';
import { checkTerm, checkVote } from '../invariants';
import { acquire, beginWarmUp, campaigned, currentLeader, markLoss, release, renewed } from '../leadership';
import { send } from '../network';
import { nextInt } from '../rng';
import type { StepDownReason } from '../types';

export const RT = timerSlots('election', 'heartbeat', 'checkQuorum', 'window');

/** A log's last entry, as a heartbeat carries it. */
export interface LogEntry {
  logTerm: number;
  logIndex: number;
}

/** What a (pre-)vote request carries: the candidate's last entry, and whether it is a transfer. */
export interface VoteAsk extends LogEntry {
  transfer: boolean;
}

declare module '../core' {
  interface MessageBodies {
    preVote: VoteAsk;
    requestVote: VoteAsk;
    heartbeat: LogEntry;
  }
}

export interface Round {
  round: number;
  sentRealMs: number;
  acks: number[];
}

const initRaftNode = () => ({
  // Persisted with NodeState.term: survive kill and restart.
  votedFor: null as string | null,
  /** The last entry of its log: every leader appends one entry in its term when it takes office. */
  logTerm: 0,
  logIndex: 0,
  // Volatile.
  /** Own-clock time its election clock was last reset (etcd's electionElapsed = 0). */
  lastResetLocalMs: 0,
  randomizedTimeoutMs: 0,
  /** Real time of the pending election timer, or -1 (deadlines only move later between resets). */
  electionTimerAtMs: -1,
  /** Real time it last heard from a leader, for the views; -1 if never. */
  lastHeardRealMs: -1,
  preVoting: false,
  granted: [] as number[],
  rejected: [] as number[],
  // Leader.
  /** Heard from each voter since the last CheckQuorum (the leader counts itself). */
  recentActive: [] as boolean[],
  nextCheckLocalMs: 0,
  round: 0,
  rounds: [] as Round[],
  lastRenewRealMs: -1,
  renewLatencyMs: 0,
});

export type RaftNode = ReturnType<typeof initRaftNode>;

const initRaftShared = (e: Experiment, count: number) => ({
  settings: settingsFor(e, 'raft'),
  // Invariant ledgers: kept apart from the node state they check.
  voteLedger: Array.from({ length: count }, () => ({ term: -1, for: '' })),
  termLedger: new Array<number>(count).fill(0),
});

export type RaftShared = ReturnType<typeof initRaftShared>;

const { st, shared, cfg } = stateViews<RaftNode, RaftShared>();
const checkQuorumOn = (c: Core) => c.safety.checkQuorum === true;
const preVoteOn = (c: Core) => c.safety.preVote === true;
const quorumOn = (c: Core) => c.safety.quorum !== false;

/** Heartbeat rounds kept for the renewal-latency signal. */
export const MAX_ROUNDS = 8;

// ---------------------------------------------------------------- terms and votes

export function setTerm(c: Core, out: Outputs, n: NodeState, term: number): void {
  const ledger = shared(c).termLedger;
  const bad = checkTerm(n.id, ledger[n.idx], term);
  if (bad) recordViolation(c, out, bad.invariant, bad.detail);
  if (term !== n.term) {
    n.term = term;
    st(n).votedFor = null;
  }
  if (term > ledger[n.idx]) ledger[n.idx] = term;
}

function recordVote(c: Core, out: Outputs, n: NodeState, candidate: string): void {
  const ledger = shared(c).voteLedger;
  const bad = checkVote(n.id, n.term, candidate, ledger[n.idx]);
  if (bad) recordViolation(c, out, bad.invariant, bad.detail);
  st(n).votedFor = candidate;
  ledger[n.idx] = { term: n.term, for: candidate };
}

/** Raft's voting restriction: the candidate's log is at least as up to date as the voter's. */
export function upToDate(voter: RaftNode, logTerm: number, logIndex: number): boolean {
  return logTerm > voter.logTerm || (logTerm === voter.logTerm && logIndex >= voter.logIndex);
}

// ---------------------------------------------------------------- the election clock

/** etcd's reset: a new term (or not), no known leader, the election clock at 0, a new random timeout. */
function reset(c: Core, out: Outputs, n: NodeState, term: number): void {
  if (term !== n.term) setTerm(c, out, n, term);
  const p = st(n);
  n.knownLeader = -1;
  p.granted = [];
  p.rejected = [];
  const et = cfg(c).electionTimeoutMs;
  p.randomizedTimeoutMs = et + nextInt(c.rngTimer, 0, et - 1);
  restartElectionClock(c, n);
}

/** electionElapsed = 0: heard from the leader, granted a vote, or began a campaign. */
function restartElectionClock(c: Core, n: NodeState): void {
  st(n).lastResetLocalMs = localNow(c, n);
  armElection(c, n);
}

const electionDeadlineLocal = (n: NodeState): number => st(n).lastResetLocalMs + st(n).randomizedTimeoutMs;

function armElection(c: Core, n: NodeState): void {
  if (n.witness || n.role === 'leader') return;
  const p = st(n);
  const at = realAtLocal(c, n, electionDeadlineLocal(n));
  // A pending timer that fires no later simply re-arms itself when it finds the deadline moved:
  // followers restart the clock on every heartbeat, and rescheduling each time would churn the heap.
  if (p.electionTimerAtMs >= c.nowMs && p.electionTimerAtMs <= at) return;
  p.electionTimerAtMs = at;
  scheduleTimer(c, n, RT.election, at);
}

function onElectionTimer(c: Core, out: Outputs, n: NodeState): void {
  const p = st(n);
  p.electionTimerAtMs = -1;
  if (n.role === 'leader' || n.witness) return;
  if (!due(c, n, electionDeadlineLocal(n))) return armElection(c, n);
  // tickElection: electionElapsed = 0, then MsgHup.
  p.lastResetLocalMs = localNow(c, n);
  hup(c, out, n, false);
}

/** Within an election timeout of hearing from a current leader (CheckQuorum's "lease"). */
function inLease(c: Core, n: NodeState): boolean {
  return (
    checkQuorumOn(c) && n.knownLeader >= 0 && !due(c, n, st(n).lastResetLocalMs + cfg(c).electionTimeoutMs)
  );
}

// ---------------------------------------------------------------- roles

function becomeFollower(
  c: Core,
  out: Outputs,
  n: NodeState,
  term: number,
  lead: number,
  reason: StepDownReason,
): void {
  const p = st(n);
  if (release(c, out, n, reason)) {
    p.rounds = [];
    cancelTimers(n, RT.heartbeat, RT.checkQuorum);
  }
  n.role = 'follower';
  p.preVoting = false;
  cancelTimer(n, RT.window);
  reset(c, out, n, term);
  n.knownLeader = lead;
  if (lead >= 0) p.lastHeardRealMs = c.nowMs;
}

export function hup(c: Core, out: Outputs, n: NodeState, transfer: boolean): void {
  if (n.role === 'leader' || n.witness || !n.alive || n.paused) return;
  // Without a quorum there is nothing to pre-vote on: the teaching switch skips it.
  if (preVoteOn(c) && quorumOn(c) && !transfer) campaign(c, out, n, 'pre', false);
  else campaign(c, out, n, 'real', transfer);
}

function campaign(c: Core, out: Outputs, n: NodeState, kind: 'pre' | 'real', transfer: boolean): void {
  const p = st(n);
  let term: number;
  if (kind === 'pre') {
    // becomePreCandidate: no reset, no new term; the election clock was zeroed by the caller.
    n.role = 'follower';
    p.preVoting = true;
    p.rejected = [];
    n.knownLeader = -1;
    term = n.term + 1;
    armElection(c, n);
  } else {
    p.preVoting = false;
    n.role = 'candidate';
    reset(c, out, n, n.term + 1);
    recordVote(c, out, n, n.id);
    term = n.term;
  }
  campaigned(c, out, n, term, kind === 'pre', transfer);
  p.granted = [n.idx];
  // One body for every voter.
  const ask: VoteAsk = { logTerm: p.logTerm, logIndex: p.logIndex, transfer };
  const type = kind === 'pre' ? 'preVote' : 'requestVote';
  for (const q of c.nodes) if (q !== n) send(c, n.idx, q.idx, type, term).body = ask;
  if (kind === 'real' && !quorumOn(c)) {
    // Teaching switch: without a quorum a candidate wins with whatever votes arrive within a round trip.
    scheduleTimer(c, n, RT.window, c.nowMs + 2 * c.e.network.delayMsMax + 1);
  }
  tally(c, out, n);
}

/** quorum.VoteResult: won with a majority of the configured voters, lost once a majority refused. */
function tally(c: Core, out: Outputs, n: NodeState): void {
  const p = st(n);
  if (quorumOn(c) && p.granted.length >= c.majority) {
    if (p.preVoting) campaign(c, out, n, 'real', false);
    else becomeLeader(c, out, n);
  } else if (p.rejected.length > c.voterCount - c.majority) {
    becomeFollower(c, out, n, n.term, -1, 'saw higher term');
  }
}

function becomeLeader(c: Core, out: Outputs, n: NodeState): void {
  const p = st(n);
  const votes = p.granted.map((i) => c.nodes[i].id);
  p.preVoting = false;
  p.electionTimerAtMs = -1;
  cancelTimers(n, RT.election, RT.window);
  n.knownLeader = n.idx;
  // etcd's leader appends an empty entry in its term at once.
  p.logTerm = n.term;
  p.logIndex++;
  p.recentActive = c.nodes.map((q) => q === n);
  p.rounds = [];
  p.lastRenewRealMs = c.nowMs;
  p.renewLatencyMs = 0;
  acquire(c, out, n, n.term, votes);
  onHeartbeatTimer(c, out, n);
  p.lastResetLocalMs = localNow(c, n);
  p.nextCheckLocalMs = armIn(c, n, RT.checkQuorum, cfg(c).electionTimeoutMs);
  beginWarmUp(c, n);
}

// ---------------------------------------------------------------- the leader

function onHeartbeatTimer(c: Core, out: Outputs, n: NodeState): void {
  if (n.role !== 'leader') return;
  const p = st(n);
  const round: Round = { round: ++p.round, sentRealMs: c.nowMs, acks: [n.idx] };
  // One body for every heartbeat of the round.
  const log: LogEntry = { logTerm: p.logTerm, logIndex: p.logIndex };
  p.rounds.push(round);
  if (p.rounds.length > MAX_ROUNDS) p.rounds.shift();
  for (const q of c.nodes) {
    if (q === n) continue;
    const m = send(c, n.idx, q.idx, 'heartbeat', n.term);
    m.round = round.round;
    m.body = log;
  }
  if (!quorumOn(c)) roundHeard(c, out, n, round);
  armIn(c, n, RT.heartbeat, cfg(c).heartbeatMs);
}

function onCheckQuorum(c: Core, out: Outputs, n: NodeState): void {
  if (n.role !== 'leader') return;
  const p = st(n);
  if (checkQuorumOn(c) && quorumOn(c) && p.recentActive.filter(Boolean).length < c.majority) {
    return becomeFollower(c, out, n, n.term, -1, 'lost contact with a quorum');
  }
  p.recentActive = c.nodes.map((q) => q === n);
  // tickHeartbeat zeroes the leader's electionElapsed every election timeout, with or without
  // CheckQuorum: with it, the leader is always "in lease" and ignores higher-term vote requests.
  p.lastResetLocalMs = localNow(c, n);
  p.nextCheckLocalMs = armIn(c, n, RT.checkQuorum, cfg(c).electionTimeoutMs);
}

function onHeartbeatResponse(c: Core, out: Outputs, n: NodeState, m: Message): void {
  if (n.role !== 'leader') return;
  const p = st(n);
  p.recentActive[m.from] = true;
  const r = p.rounds.find((x) => x.round === m.round);
  if (!r || r.acks.includes(m.from)) return;
  r.acks.push(m.from);
  if (r.acks.length === c.majority) roundHeard(c, out, n, r);
}

/** A heartbeat round answered by a majority: the leader knows it still leads (its "renewal"). */
function roundHeard(c: Core, out: Outputs, n: NodeState, r: Round): void {
  const p = st(n);
  if (r.sentRealMs > p.lastRenewRealMs) p.lastRenewRealMs = r.sentRealMs;
  p.renewLatencyMs = c.nowMs - r.sentRealMs;
  // Rounds are oldest first: this and older ones settle in place (not a new array twenty times a second).
  const rounds = p.rounds;
  let settled = 0;
  while (settled < rounds.length && rounds[settled].round <= r.round) settled++;
  rounds.splice(0, settled);
  renewed(c, out, n);
}

// ---------------------------------------------------------------- receiving (etcd's Step)

function onMessage(c: Core, out: Outputs, n: NodeState, m: Message): void {
  const p = st(n);
  if (m.term > n.term) {
    if (m.type === 'preVote' || m.type === 'requestVote') {
      // A server within an election timeout of hearing from a current leader neither updates its
      // term nor votes (CheckQuorum's lease); a leadership transfer forces its way through.
      if (!bodyOf(m, 'requestVote')?.transfer && inLease(c, n)) return;
    }
    if (m.type === 'preVote') {
      // Never change the term in response to a pre-vote.
    } else if (m.type === 'preVoteReply' && m.granted) {
      // A granted pre-vote carries the term the pre-candidate asked for.
    } else {
      const lead = m.type === 'heartbeat' ? m.from : -1;
      becomeFollower(c, out, n, m.term, lead, 'saw higher term');
    }
  } else if (m.term < n.term) {
    if ((checkQuorumOn(c) || preVoteOn(c)) && m.type === 'heartbeat') {
      // Tell a stale leader the newer term, so it steps down.
      const r = send(c, n.idx, m.from, 'ack', n.term);
      r.round = m.round;
      r.granted = false;
    } else if (m.type === 'preVote') {
      send(c, n.idx, m.from, 'preVoteReply', n.term).granted = false;
    }
    return;
  }
  switch (m.type) {
    case 'preVote':
    case 'requestVote':
      return onVoteRequest(c, out, n, m);
    case 'heartbeat':
      // Two leaders of one term exist only with the quorum switched off; etcd's leader ignores it.
      if (n.role === 'leader') return;
      if (n.role !== 'follower' || p.preVoting) becomeFollower(c, out, n, m.term, m.from, 'saw higher term');
      n.knownLeader = m.from;
      p.lastHeardRealMs = c.nowMs;
      // The heartbeat stands for the leader's appends too: the follower's log catches up.
      const log = bodyOf(m, 'heartbeat');
      if (log) {
        p.logTerm = log.logTerm;
        p.logIndex = log.logIndex;
      }
      restartElectionClock(c, n);
      const ack = send(c, n.idx, m.from, 'ack', n.term);
      ack.round = m.round;
      ack.granted = true;
      return;
    case 'ack':
      return onHeartbeatResponse(c, out, n, m);
    case 'preVoteReply':
    case 'vote': {
      // Only replies to the current (pre-)candidacy count.
      const mine = p.preVoting ? 'preVoteReply' : n.role === 'candidate' ? 'vote' : null;
      if (m.type !== mine) return;
      if (p.granted.includes(m.from) || p.rejected.includes(m.from)) return;
      (m.granted ? p.granted : p.rejected).push(m.from);
      return tally(c, out, n);
    }
    default:
      return;
  }
}

function onVoteRequest(c: Core, out: Outputs, n: NodeState, m: Message): void {
  const p = st(n);
  const candidate = c.nodes[m.from].id;
  const canVote =
    p.votedFor === candidate ||
    (p.votedFor === null && n.knownLeader < 0) ||
    (m.type === 'preVote' && m.term > n.term);
  const reply = m.type === 'preVote' ? 'preVoteReply' : 'vote';
  const ask = bodyOf(m, 'requestVote');
  if (canVote && upToDate(p, ask?.logTerm ?? 0, ask?.logIndex ?? 0)) {
    // A granted vote carries the term of the request (a pre-vote's is in the voter's future).
    send(c, n.idx, m.from, reply, m.term).granted = true;
    if (m.type === 'requestVote') {
      recordVote(c, out, n, candidate);
      restartElectionClock(c, n);
    }
  } else {
    // A refusal carries the voter's own term.
    send(c, n.idx, m.from, reply, n.term).granted = false;
  }
}

export const raft: ElectionAlgorithm = {
  ...ALGORITHM_INFO['raft'],
  page: raftPage,
  timerSlots: 4,
  initNode: initRaftNode,
  initShared: initRaftShared,
  boot: (c, out, n) => reset(c, out, n, n.term),
  onTimer: (c, out, n, slot) => {
    if (slot === RT.election) return onElectionTimer(c, out, n);
    if (slot === RT.heartbeat) return onHeartbeatTimer(c, out, n);
    if (slot === RT.checkQuorum) return onCheckQuorum(c, out, n);
    if (slot === RT.window && n.role === 'candidate' && !quorumOn(c)) return becomeLeader(c, out, n);
  },
  onMessage,
  onKill: (_c, n) => {
    const p = st(n);
    p.preVoting = false;
    p.granted = [];
    p.rejected = [];
    p.rounds = [];
    p.electionTimerAtMs = -1;
  },
  onRestart: (c, out, n) => {
    // Term, vote and log were persisted; the rest starts fresh. It may vote at once.
    const p = st(n);
    p.preVoting = false;
    p.electionTimerAtMs = -1;
    reset(c, out, n, n.term);
  },
  onClockRate: (c, n) => {
    const p = st(n);
    if (n.role === 'leader') {
      armIn(c, n, RT.heartbeat, cfg(c).heartbeatMs);
      armAtLocal(c, n, RT.checkQuorum, p.nextCheckLocalMs);
    } else {
      p.electionTimerAtMs = -1;
      cancelTimer(n, RT.election);
      armElection(c, n);
    }
  },
  onNetworkChange: (c, out) => {
    // For the failover timeline: a leader cut off from a majority has lost, whether it knows or not.
    const leader = currentLeader(c);
    if (leader && c.groupOf) {
      const g = c.groupOf;
      const side = c.nodes.filter((q) => g[q.idx] === g[leader.idx]).length;
      if (side < c.majority) markLoss(c, out, leader, 'partitioned');
    }
  },
  campaign: (c, out, n, transfer) => {
    if (n.role === 'leader') return;
    st(n).lastResetLocalMs = localNow(c, n);
    hup(c, out, n, transfer);
  },
  renewalLatencyMs: (c, leader, at) => {
    // The last answered round's latency, or how long the oldest unanswered round has waited, or,
    // when no round could even be sent (a paused leader), how overdue the next one is.
    const p = st(leader);
    const pendingSinceMs = p.rounds[0]?.sentRealMs ?? -1;
    return renewalLatency(p.renewLatencyMs, p.lastRenewRealMs, cfg(c).heartbeatMs, at, pendingSinceMs);
  },
  nodeView: (c, n) => {
    const p = st(n);
    let deadlineAtMs = -1;
    if (n.alive && n.role === 'leader') {
      if (checkQuorumOn(c)) deadlineAtMs = realAtLocal(c, n, p.nextCheckLocalMs);
    } else if (n.alive && !n.witness) {
      deadlineAtMs = realAtLocal(c, n, electionDeadlineLocal(n));
    }
    return {
      votedFor: p.votedFor,
      deadlineAtMs,
      lastRenewAtMs: n.role === 'leader' ? p.lastRenewRealMs : p.lastHeardRealMs,
      votes: p.granted.map((i) => c.nodes[i].id),
      preVoting: p.preVoting,
    };
  },
};
