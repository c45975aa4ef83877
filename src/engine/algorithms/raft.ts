// Raft's election with pre-vote, and a lease with Kubernetes' timing renewed by a majority of
// the voters' acknowledgements. Every function takes the engine state and mutates it; none reads
// a wall clock or an unseeded random source.
import type { ElectionAlgorithm } from '../algorithm';
import {
  ALG_SLOT,
  cancelTimer,
  due,
  localNow,
  realAtLocal,
  recordViolation,
  scheduleTimer,
  type Core,
  type Message,
  type NodeState,
  type Outputs,
} from '../core';
// Types only from experiment.ts: it imports the algorithm registry, which imports this file.
import type { Experiment, LeaseSettings } from '../experiment';
import { checkTerm, checkVote } from '../invariants';
import { acquire, beginWarmUp, campaigned, currentLeader, markLoss, release, renewed } from '../leadership';
import { send } from '../network';
import { nextInt } from '../rng';
import type { StepDownReason } from '../types';

/** Raft's timer slots. */
export const RT = {
  election: ALG_SLOT,
  heartbeat: ALG_SLOT + 1,
  renew: ALG_SLOT + 2,
  window: ALG_SLOT + 3,
} as const;

export interface Round {
  round: number;
  sentLocalMs: number;
  sentRealMs: number;
  acks: number[];
}

export interface RaftNode {
  // Persisted: survives kill and restart (with NodeState.term).
  votedFor: string | null;
  // Volatile.
  /** Local clock time this node last heard from a current leader; -1 if never. */
  lastHeardLocalMs: number;
  lastHeardRealMs: number;
  electionDeadlineLocalMs: number;
  /** Real time of the pending election timer, or -1. Lets deadlines move later without heap churn. */
  electionTimerAtMs: number;
  /** The candidate this node last voted for, and until when (own clock) it backs that one alone. */
  backingIdx: number;
  backingUntilLocalMs: number;
  votes: number[];
  preVoting: boolean;
  /** Own-clock time the current (pre-)campaign round began. */
  campaignLocalMs: number;
  // Leader.
  round: number;
  rounds: Round[];
  lastRenewLocalMs: number;
  lastRenewRealMs: number;
  renewLatencyMs: number;
}

export interface RaftShared {
  /** The lease timing (Raft's settings always include it). */
  lease: LeaseSettings;
  // Invariant ledgers: kept apart from the node state they check.
  voteLedger: { term: number; for: string }[];
  termLedger: number[];
}

type RaftCore = Core<RaftShared>;
const st = (n: NodeState) => n.p as RaftNode;
const lease = (c: Core) => (c as RaftCore).a.lease;

export const MAX_ROUNDS = 8;

function leaseOf(e: Experiment): LeaseSettings {
  // parseExperiment fills in every setting an algorithm lists; a missing one is a bug upstream.
  if (!e.lease) throw new Error('a Raft experiment without its lease settings');
  return e.lease;
}

function jitter(c: Core): number {
  return nextInt(c.rngTimer, 0, lease(c).jitterMs);
}

/** The one place the renew deadline is computed: RenewDeadline after the last renewal, on the leader's own clock. */
function setRenewDeadline(c: Core, n: NodeState): void {
  n.actUntilLocalMs = st(n).lastRenewLocalMs + lease(c).renewDeadlineMs;
}

function renewDeadlinePassed(c: Core, n: NodeState): boolean {
  return due(c, n, n.actUntilLocalMs);
}

// ---------------------------------------------------------------- terms

export function setTerm(c: Core, out: Outputs, n: NodeState, term: number): void {
  const ledger = (c as RaftCore).a.termLedger;
  const bad = checkTerm(n.id, ledger[n.idx], term);
  if (bad) recordViolation(c, out, bad.invariant, bad.detail);
  if (term > n.term) {
    n.term = term;
    st(n).votedFor = null;
  }
  if (term > ledger[n.idx]) ledger[n.idx] = term;
}

// ---------------------------------------------------------------- election timer

function inLease(c: Core, n: NodeState): boolean {
  if (n.role === 'leader') return true;
  const p = st(n);
  return p.lastHeardLocalMs >= 0 && !due(c, n, p.lastHeardLocalMs + lease(c).durationMs);
}

/** Arm the election timer for node n at its own-clock deadline. */
export function armElection(c: Core, n: NodeState, deadlineLocalMs: number): void {
  if (n.witness) return;
  const p = st(n);
  p.electionDeadlineLocalMs = deadlineLocalMs;
  const at = realAtLocal(c, n, deadlineLocalMs);
  // A pending timer that fires earlier simply re-arms itself: cheaper than cancelling.
  if (p.electionTimerAtMs >= 0 && p.electionTimerAtMs <= at && p.electionTimerAtMs >= c.nowMs) return;
  p.electionTimerAtMs = at;
  scheduleTimer(c, n, RT.election, at);
}

function rearmElection(c: Core, n: NodeState): void {
  st(n).electionTimerAtMs = -1;
  cancelTimer(n, RT.election);
  armElection(c, n, st(n).electionDeadlineLocalMs);
}

/** A follower waits a full lease (plus jitter) after hearing from a leader before it campaigns. */
function leaseWaitDeadline(c: Core, n: NodeState): number {
  return localNow(c, n) + lease(c).durationMs + jitter(c);
}

/** A candidate whose round did not finish retries after a retry period plus jitter. */
function retryDeadline(c: Core, n: NodeState): number {
  return localNow(c, n) + lease(c).retryPeriodMs + jitter(c);
}

export function onElectionTimer(c: Core, out: Outputs, n: NodeState): void {
  const p = st(n);
  p.electionTimerAtMs = -1;
  if (n.role === 'leader' || n.witness) return;
  if (!due(c, n, p.electionDeadlineLocalMs)) {
    armElection(c, n, p.electionDeadlineLocalMs);
    return;
  }
  if (backsOther(c, n, n.idx)) {
    armElection(c, n, p.backingUntilLocalMs + jitter(c));
    return;
  }
  startElection(c, out, n, false);
}

// ---------------------------------------------------------------- campaigning

export function startElection(c: Core, out: Outputs, n: NodeState, transfer: boolean): void {
  if (n.witness || !n.alive || n.paused) return;
  if (n.role === 'leader') stepDown(c, out, n, 'saw higher term');
  const p = st(n);
  if (c.safety.preVote && c.safety.quorum && !transfer) {
    n.role = 'follower';
    p.preVoting = true;
    p.votes = [n.idx];
    p.campaignLocalMs = localNow(c, n);
    campaigned(c, out, n, n.term + 1, true, transfer);
    p.electionTimerAtMs = -1;
    armElection(c, n, retryDeadline(c, n));
    for (const q of c.nodes) {
      if (q !== n) send(c, n.idx, q.idx, 'preVote', n.term + 1);
    }
    if (p.votes.length >= c.majority) becomeCandidate(c, out, n, false);
    return;
  }
  becomeCandidate(c, out, n, transfer);
}

function becomeCandidate(c: Core, out: Outputs, n: NodeState, transfer: boolean): void {
  const p = st(n);
  setTerm(c, out, n, n.term + 1);
  n.role = 'candidate';
  p.preVoting = false;
  grantVote(c, out, n, n.id);
  p.votes = [n.idx];
  p.campaignLocalMs = localNow(c, n);
  campaigned(c, out, n, n.term, false, transfer);
  p.electionTimerAtMs = -1;
  armElection(c, n, retryDeadline(c, n));
  for (const q of c.nodes) {
    if (q !== n) send(c, n.idx, q.idx, 'requestVote', n.term).transfer = transfer;
  }
  if (!c.safety.quorum) {
    // Without quorum a candidate wins with whatever votes arrive within a round trip.
    scheduleTimer(c, n, RT.window, c.nowMs + 2 * c.e.network.delayMsMax + 1);
  }
  if (p.votes.length >= c.majority) becomeLeader(c, out, n);
}

function onVoteWindow(c: Core, out: Outputs, n: NodeState): void {
  if (n.role === 'candidate' && n.alive && !c.safety.quorum) becomeLeader(c, out, n);
}

function grantVote(c: Core, out: Outputs, n: NodeState, candidate: string): void {
  const ledger = (c as RaftCore).a.voteLedger;
  const bad = checkVote(n.id, n.term, candidate, ledger[n.idx]);
  if (bad) recordViolation(c, out, bad.invariant, bad.detail);
  st(n).votedFor = candidate;
  ledger[n.idx] = { term: n.term, for: candidate };
}

/**
 * Whether node n still backs a candidate other than idx. A voter backs the candidate it voted for
 * for 2 x RetryPeriod + jitter by its own clock and meanwhile helps no one else, itself included,
 * into a later term. Any later majority contains such a voter, and the candidate counts votes for
 * only one RetryPeriod (roundOver), so a term cannot be won after a later one was, as long as no
 * clock runs more than (2 x RetryPeriod + jitter) / RetryPeriod times faster than another (3x
 * with the defaults). Beyond that, as with any lease, only fencing at the storage protects.
 */
function backsOther(c: Core, n: NodeState, idx: number): boolean {
  const p = st(n);
  return p.backingIdx >= 0 && p.backingIdx !== idx && !due(c, n, p.backingUntilLocalMs);
}

function backCandidate(c: Core, n: NodeState, idx: number): void {
  const p = st(n);
  p.backingIdx = idx;
  p.backingUntilLocalMs = localNow(c, n) + 2 * lease(c).retryPeriodMs + lease(c).jitterMs;
}

function becomeLeader(c: Core, out: Outputs, n: NodeState): void {
  const p = st(n);
  const votes = p.votes.map((i) => c.nodes[i].id);
  p.preVoting = false;
  p.rounds = [];
  p.lastRenewLocalMs = localNow(c, n);
  p.lastRenewRealMs = c.nowMs;
  p.renewLatencyMs = 0;
  p.electionTimerAtMs = -1;
  cancelTimer(n, RT.election);
  setRenewDeadline(c, n);
  acquire(c, out, n, n.term, votes);
  onHeartbeatTimer(c, out, n);
  scheduleRenewCheck(c, n);
  beginWarmUp(c, n);
}

// ---------------------------------------------------------------- votes

function onPreVote(c: Core, n: NodeState, m: Message): void {
  const granted = m.term > n.term && !inLease(c, n) && !backsOther(c, n, m.from);
  send(c, n.idx, m.from, 'preVoteReply', m.term).granted = granted;
}

function onPreVoteReply(c: Core, out: Outputs, n: NodeState, m: Message): void {
  const p = st(n);
  if (!p.preVoting || m.term !== n.term + 1 || !m.granted || p.votes.includes(m.from)) return;
  if (roundOver(c, n)) return;
  p.votes.push(m.from);
  if (p.votes.length >= c.majority) becomeCandidate(c, out, n, false);
}

/**
 * A candidate counts votes for one retry period of its own clock after it asked for them (its
 * round runs on, with jitter, until its timer starts the next one). Voters back it for longer
 * (backCandidate), which is what keeps a late-counted vote from electing it below a newer term.
 */
function roundOver(c: Core, n: NodeState): boolean {
  return due(c, n, st(n).campaignLocalMs + lease(c).retryPeriodMs);
}

function onRequestVote(c: Core, out: Outputs, n: NodeState, m: Message): void {
  const candidate = c.nodes[m.from].id;
  // Leader stickiness: while a node still hears from a leader (within LeaseDuration by its own
  // clock) it ignores vote requests entirely, without even adopting their term. A leadership
  // transfer (a forced campaign) bypasses this, as Raft's TimeoutNow does.
  // A node that just voted backs that candidate for a full round, transfer or not (see backsOther).
  if (m.term > n.term && ((!m.transfer && inLease(c, n)) || backsOther(c, n, m.from))) {
    send(c, n.idx, m.from, 'vote', m.term).granted = false;
    return;
  }
  if (m.term > n.term) {
    if (n.role === 'leader') stepDown(c, out, n, 'saw higher term');
    setTerm(c, out, n, m.term);
    becomeFollower(c, n);
  }
  const p = st(n);
  let granted = false;
  if (m.term === n.term && (p.votedFor === null || p.votedFor === candidate) && n.role !== 'leader') {
    grantVote(c, out, n, candidate);
    backCandidate(c, n, m.from);
    granted = true;
    // Give the candidate a round to win before competing with it.
    armElection(c, n, retryDeadline(c, n));
  }
  send(c, n.idx, m.from, 'vote', n.term).granted = granted;
}

function onVote(c: Core, out: Outputs, n: NodeState, m: Message): void {
  if (m.term > n.term) {
    if (n.role === 'leader') stepDown(c, out, n, 'saw higher term');
    setTerm(c, out, n, m.term);
    becomeFollower(c, n);
    return;
  }
  const p = st(n);
  if (n.role !== 'candidate' || m.term !== n.term || !m.granted || p.votes.includes(m.from)) return;
  // A vote that reaches a candidate after its round ran out (by its own clock) is too late: the
  // voters may since have elected someone in a later term. Without this check a candidate that
  // was paused while its votes arrived would resume and take office below a newer leader's term.
  if (roundOver(c, n)) return;
  p.votes.push(m.from);
  if (c.safety.quorum && p.votes.length >= c.majority) becomeLeader(c, out, n);
}

function becomeFollower(c: Core, n: NodeState): void {
  if (n.role === 'leader') return;
  const p = st(n);
  n.role = 'follower';
  p.preVoting = false;
  p.votes = [];
  cancelTimer(n, RT.window);
  if (p.electionTimerAtMs < 0) armElection(c, n, retryDeadline(c, n));
}

// ---------------------------------------------------------------- lease: heartbeats and renewals

export function onHeartbeatTimer(c: Core, out: Outputs, n: NodeState): void {
  if (n.role !== 'leader') return;
  // A leader past its renew deadline by its own clock stops acting before it sends anything
  // (e.g. when it wakes from a GC pause): its heartbeat would otherwise reset the followers'
  // lease wait and delay the failover it can no longer prevent.
  if (renewDeadlinePassed(c, n)) {
    stepDown(c, out, n, 'renew deadline passed');
    return;
  }
  const p = st(n);
  const round = { round: ++p.round, sentLocalMs: localNow(c, n), sentRealMs: c.nowMs, acks: [n.idx] };
  p.rounds.push(round);
  if (p.rounds.length > MAX_ROUNDS) p.rounds.shift();
  for (const q of c.nodes) {
    if (q !== n) send(c, n.idx, q.idx, 'heartbeat', n.term).round = round.round;
  }
  // Without quorum a leader renews on its own say-so, which is how each side of a split keeps one.
  if (round.acks.length >= c.majority || !c.safety.quorum) renewRound(c, out, n, round.round);
  scheduleHeartbeat(c, n, round.sentLocalMs);
}

function scheduleHeartbeat(c: Core, n: NodeState, lastSentLocalMs: number): void {
  scheduleTimer(c, n, RT.heartbeat, realAtLocal(c, n, lastSentLocalMs + lease(c).retryPeriodMs));
}

function onHeartbeat(c: Core, out: Outputs, n: NodeState, m: Message): void {
  if (m.term < n.term) {
    sendAck(c, n, m, false);
    return;
  }
  if (n.role === 'leader') stepDown(c, out, n, 'saw higher term');
  if (m.term > n.term) setTerm(c, out, n, m.term);
  const p = st(n);
  n.role = 'follower';
  p.preVoting = false;
  p.votes = [];
  n.knownLeader = m.from;
  // A leader at this term or later exists: the race that backing guards is decided.
  p.backingIdx = -1;
  p.lastHeardLocalMs = localNow(c, n);
  p.lastHeardRealMs = c.nowMs;
  armElection(c, n, leaseWaitDeadline(c, n));
  sendAck(c, n, m, true);
}

function sendAck(c: Core, n: NodeState, m: Message, granted: boolean): void {
  const ack = send(c, n.idx, m.from, 'ack', n.term);
  ack.round = m.round;
  ack.granted = granted;
}

function onAck(c: Core, out: Outputs, n: NodeState, m: Message): void {
  if (m.term > n.term) {
    if (n.role === 'leader') stepDown(c, out, n, 'saw higher term');
    setTerm(c, out, n, m.term);
    becomeFollower(c, n);
    return;
  }
  if (n.role !== 'leader' || m.term !== n.term || !m.granted) return;
  const r = st(n).rounds.find((x) => x.round === m.round);
  if (!r || r.acks.includes(m.from)) return;
  r.acks.push(m.from);
  if (r.acks.length >= c.majority) renewRound(c, out, n, r.round);
}

/** A round reached a majority: the lease counts as renewed from the moment the round was sent. */
function renewRound(c: Core, out: Outputs, n: NodeState, roundNo: number): void {
  const p = st(n);
  const i = p.rounds.findIndex((x) => x.round === roundNo);
  const r = p.rounds[i];
  if (r.sentLocalMs > p.lastRenewLocalMs) {
    p.lastRenewLocalMs = r.sentLocalMs;
    p.lastRenewRealMs = r.sentRealMs;
    setRenewDeadline(c, n);
  }
  p.renewLatencyMs = c.nowMs - r.sentRealMs;
  p.rounds.splice(0, i + 1);
  scheduleRenewCheck(c, n);
  renewed(c, out, n);
}

function scheduleRenewCheck(c: Core, n: NodeState): void {
  scheduleTimer(c, n, RT.renew, realAtLocal(c, n, n.actUntilLocalMs));
}

function onRenewCheck(c: Core, out: Outputs, n: NodeState): void {
  if (n.role !== 'leader') return;
  if (renewDeadlinePassed(c, n)) {
    stepDown(c, out, n, 'renew deadline passed');
  } else {
    scheduleRenewCheck(c, n);
  }
}

export function stepDown(c: Core, out: Outputs, n: NodeState, reason: StepDownReason): void {
  if (!release(c, out, n, reason)) return;
  const p = st(n);
  p.rounds = [];
  cancelTimer(n, RT.heartbeat);
  cancelTimer(n, RT.renew);
  if (reason !== 'killed') {
    // It knew of a leader (itself) until now, so it waits a full lease like any follower.
    p.lastHeardLocalMs = localNow(c, n);
    p.lastHeardRealMs = c.nowMs;
    n.knownLeader = -1;
    p.electionTimerAtMs = -1;
    armElection(c, n, leaseWaitDeadline(c, n));
  }
}

// ---------------------------------------------------------------- storage's verdict

function onFenced(c: Core, out: Outputs, n: NodeState, newerToken: number): void {
  // The retryable error names a newer token: this node has been deposed.
  if (n.role === 'leader' && newerToken > n.term) stepDown(c, out, n, 'fenced by storage');
  if (newerToken > n.term) setTerm(c, out, n, newerToken);
}

// ---------------------------------------------------------------- dispatch

export function onRaftMessage(c: Core, out: Outputs, n: NodeState, m: Message): void {
  switch (m.type) {
    case 'preVote':
      return onPreVote(c, n, m);
    case 'preVoteReply':
      return onPreVoteReply(c, out, n, m);
    case 'requestVote':
      return onRequestVote(c, out, n, m);
    case 'vote':
      return onVote(c, out, n, m);
    case 'heartbeat':
      return onHeartbeat(c, out, n, m);
    case 'ack':
      return onAck(c, out, n, m);
    default:
      return;
  }
}

function onTimer(c: Core, out: Outputs, n: NodeState, slot: number): void {
  switch (slot) {
    case RT.election:
      return onElectionTimer(c, out, n);
    case RT.heartbeat:
      return onHeartbeatTimer(c, out, n);
    case RT.renew:
      return onRenewCheck(c, out, n);
    case RT.window:
      return onVoteWindow(c, out, n);
  }
}

// ---------------------------------------------------------------- faults

function onRestart(c: Core, _out: Outputs, n: NodeState): void {
  // Term and vote were persisted; everything else starts fresh. A restarted node waits a full
  // lease before campaigning or voting, as it cannot know whether a leader still holds one.
  const p = st(n);
  p.lastHeardLocalMs = localNow(c, n);
  p.lastHeardRealMs = c.nowMs;
  armElection(c, n, localNow(c, n) + lease(c).durationMs + jitter(c));
}

function onKill(_c: Core, n: NodeState): void {
  const p = st(n);
  p.rounds = [];
  p.preVoting = false;
  p.votes = [];
  p.electionTimerAtMs = -1;
}

function onClockRate(c: Core, n: NodeState): void {
  // Timers measured by the node's own clock move with it.
  rearmElection(c, n);
  if (n.role === 'leader') {
    cancelTimer(n, RT.heartbeat);
    const p = st(n);
    scheduleHeartbeat(c, n, p.rounds.length ? p.rounds[p.rounds.length - 1].sentLocalMs : p.lastRenewLocalMs);
    scheduleRenewCheck(c, n);
  }
}

function onPartition(c: Core, out: Outputs): void {
  // A leader cut off from a majority has lost the cluster, whether it knows it yet or not.
  const leader = currentLeader(c);
  if (leader && c.groupOf) {
    const g = c.groupOf;
    const side = c.nodes.filter((q) => g[q.idx] === g[leader.idx]).length;
    if (side < c.majority) markLoss(c, out, leader, 'partitioned');
  }
}

function renewalLatencyMs(c: Core, leader: NodeState, at: number): number {
  // The last round's latency, or how long the oldest unanswered round has waited, or, when no
  // round could even be sent (a paused leader), how overdue the next renewal is.
  const p = st(leader);
  const pending = p.rounds[0];
  const overdue = p.lastRenewRealMs >= 0 ? at - p.lastRenewRealMs - lease(c).retryPeriodMs : 0;
  return Math.max(p.renewLatencyMs, pending ? at - pending.sentRealMs : 0, overdue);
}

export const raft: ElectionAlgorithm = {
  kind: 'raft',
  title: 'Raft (with a lease)',
  summary:
    "Raft's election (a majority of votes, terms, pre-vote) with a lease in Kubernetes' timing, renewed by a majority's acknowledgements.",
  words: { epoch: 'term', leader: 'leader', election: 'election' },
  messages: [
    { type: 'preVote', label: 'pre-vote request', family: 'request', election: true },
    { type: 'preVoteReply', label: 'pre-vote', family: 'grant', election: true },
    { type: 'requestVote', label: 'vote request', family: 'request', election: true },
    { type: 'vote', label: 'vote', family: 'grant', election: true },
    { type: 'heartbeat', label: 'heartbeat', family: 'heartbeat', election: false },
    { type: 'ack', label: 'acknowledgement', family: 'ack', election: false },
  ],
  hasQuorum: true,
  settings: ['witness', 'lease', 'safety.quorum', 'safety.preVote'],
  timerSlots: 4,
  initNode: (): RaftNode => ({
    votedFor: null,
    lastHeardLocalMs: -1,
    lastHeardRealMs: -1,
    electionDeadlineLocalMs: 0,
    electionTimerAtMs: -1,
    backingIdx: -1,
    backingUntilLocalMs: 0,
    votes: [],
    preVoting: false,
    campaignLocalMs: 0,
    round: 0,
    rounds: [],
    lastRenewLocalMs: 0,
    lastRenewRealMs: -1,
    renewLatencyMs: 0,
  }),
  initShared: (e: Experiment, count: number): RaftShared => ({
    lease: leaseOf(e),
    voteLedger: Array.from({ length: count }, () => ({ term: -1, for: '' })),
    termLedger: new Array(count).fill(0),
  }),
  boot: (c, _out, n) => {
    // Nobody has heard of a leader, so the first timeouts are short and randomized.
    armElection(c, n, nextInt(c.rngTimer, 0, lease(c).jitterMs) + 150);
  },
  onTimer,
  onMessage: onRaftMessage,
  onFenced,
  onKill,
  onRestart,
  onClockRate,
  onPartition,
  campaign: startElection,
  renewalLatencyMs,
  nodeView: (c, n) => {
    const p = st(n);
    let deadlineAtMs = -1;
    let lastRenewAtMs = p.lastHeardRealMs;
    if (n.alive && n.role === 'leader') {
      deadlineAtMs = realAtLocal(c, n, n.actUntilLocalMs);
      lastRenewAtMs = p.lastRenewRealMs;
    } else if (n.alive && !n.witness) {
      deadlineAtMs = realAtLocal(c, n, p.electionDeadlineLocalMs);
    }
    return {
      votedFor: p.votedFor,
      deadlineAtMs,
      lastRenewAtMs,
      votes: p.votes.map((i) => c.nodes[i].id),
      preVoting: p.preVoting,
    };
  },
};
