// The node rules: Raft-style election with pre-vote, Kubernetes-style lease timing, the leader's
// privileged write loop, storage-side fencing and the client population. Every function takes
// the engine state and mutates it; none reads a wall clock or an unseeded random source.
import {
  K,
  MAX_FAILOVERS,
  MAX_RECENT_WRITES,
  MAX_ROUNDS,
  MAX_VIOLATIONS,
  STORAGE,
  T,
  cancelTimer,
  due,
  emit,
  jitter,
  localNow,
  realAtLocal,
  scheduleTimer,
  send,
  sendClientWrite,
  sendWrite,
  type Core,
  type Message,
  type NodeState,
  type Outputs,
  type WriteEvent,
} from './core';
import { allowedBy, checkElection, checkTerm, checkVote, writeFindings } from './invariants';
import type { InvariantName, StepDownReason } from './types';

export function recordViolation(c: Core, out: Outputs, invariant: InvariantName, detail: string): void {
  const v = { atMs: c.nowMs, invariant, detail, allowedBy: allowedBy(invariant, c.safety) };
  if (c.violations.length < MAX_VIOLATIONS) c.violations.push(v);
  emit(c, out, { atMs: c.nowMs, type: 'violation', invariant, detail });
}

// ---------------------------------------------------------------- terms, leader count

export function setTerm(c: Core, out: Outputs, n: NodeState, term: number): void {
  const bad = checkTerm(n.id, c.termLedger[n.idx], term);
  if (bad) recordViolation(c, out, bad.invariant, bad.detail);
  if (term > n.term) {
    n.term = term;
    n.votedFor = null;
  }
  if (term > c.termLedger[n.idx]) c.termLedger[n.idx] = term;
}

/** leader_count: alive nodes that believe they lead (paused ones included). */
export function updateLeaderCount(c: Core): void {
  let count = 0;
  for (const n of c.nodes) if (n.alive && n.role === 'leader') count++;
  if (count === c.leaderCount) return;
  if (c.leaderCount === 0) c.counters.msWithoutLeader += c.nowMs - c.leaderCountSinceMs;
  c.leaderCount = count;
  c.leaderCountSinceMs = c.nowMs;
  if (count > c.counters.maxLeaderCount) c.counters.maxLeaderCount = count;
}

export function msWithoutLeaderNow(c: Core): number {
  return c.counters.msWithoutLeader + (c.leaderCount === 0 ? c.nowMs - c.leaderCountSinceMs : 0);
}

// ---------------------------------------------------------------- election timer

function inLease(c: Core, n: NodeState): boolean {
  if (n.role === 'leader') return true;
  return n.lastHeardLocalMs >= 0 && !due(c, n, n.lastHeardLocalMs + c.e.lease.durationMs);
}

/** Arm the election timer for node n at its own-clock deadline. */
export function armElection(c: Core, n: NodeState, deadlineLocalMs: number): void {
  if (n.witness) return;
  n.electionDeadlineLocalMs = deadlineLocalMs;
  const at = realAtLocal(c, n, deadlineLocalMs);
  // A pending timer that fires earlier simply re-arms itself: cheaper than cancelling.
  if (n.electionTimerAtMs >= 0 && n.electionTimerAtMs <= at && n.electionTimerAtMs >= c.nowMs) return;
  n.electionTimerAtMs = at;
  scheduleTimer(c, n, T.election, K.election, at);
}

export function rearmElection(c: Core, n: NodeState): void {
  n.electionTimerAtMs = -1;
  cancelTimer(n, T.election);
  armElection(c, n, n.electionDeadlineLocalMs);
}

/** A follower waits a full lease (plus jitter) after hearing from a leader before it campaigns. */
function leaseWaitDeadline(c: Core, n: NodeState): number {
  return localNow(c, n) + c.e.lease.durationMs + jitter(c);
}

/** A candidate whose round did not finish retries after a retry period plus jitter. */
function retryDeadline(c: Core, n: NodeState): number {
  return localNow(c, n) + c.e.lease.retryPeriodMs + jitter(c);
}

export function onElectionTimer(c: Core, out: Outputs, n: NodeState): void {
  n.electionTimerAtMs = -1;
  if (n.role === 'leader' || n.witness) return;
  if (!due(c, n, n.electionDeadlineLocalMs)) {
    armElection(c, n, n.electionDeadlineLocalMs);
    return;
  }
  if (backsOther(c, n, n.idx)) {
    armElection(c, n, n.backingUntilLocalMs + jitter(c));
    return;
  }
  startElection(c, out, n, false);
}

// ---------------------------------------------------------------- campaigning

export function startElection(c: Core, out: Outputs, n: NodeState, transfer: boolean): void {
  if (n.witness || !n.alive || n.paused) return;
  if (n.role === 'leader') stepDown(c, out, n, 'saw higher term');
  if (c.pendingLoss && c.detectedAtMs < 0) c.detectedAtMs = c.nowMs;
  if (c.firstCampaignMs < 0) c.firstCampaignMs = c.nowMs;
  if (c.safety.preVote && c.safety.quorum && !transfer) {
    n.role = 'follower';
    n.preVoting = true;
    n.votes = [n.idx];
    n.campaignLocalMs = localNow(c, n);
    emit(c, out, { atMs: c.nowMs, type: 'campaign', node: n.id, term: n.term + 1, preVote: true, transfer });
    n.electionTimerAtMs = -1;
    armElection(c, n, retryDeadline(c, n));
    for (const p of c.nodes) {
      if (p !== n) send(c, n.idx, p.idx, 'preVote', n.term + 1);
    }
    if (n.votes.length >= c.majority) becomeCandidate(c, out, n, false);
    return;
  }
  becomeCandidate(c, out, n, transfer);
}

function becomeCandidate(c: Core, out: Outputs, n: NodeState, transfer: boolean): void {
  setTerm(c, out, n, n.term + 1);
  n.role = 'candidate';
  n.preVoting = false;
  grantVote(c, out, n, n.id);
  n.votes = [n.idx];
  n.campaignLocalMs = localNow(c, n);
  emit(c, out, { atMs: c.nowMs, type: 'campaign', node: n.id, term: n.term, preVote: false, transfer });
  n.electionTimerAtMs = -1;
  armElection(c, n, retryDeadline(c, n));
  for (const p of c.nodes) {
    if (p !== n) send(c, n.idx, p.idx, 'requestVote', n.term).transfer = transfer;
  }
  if (!c.safety.quorum) {
    // Without quorum a candidate wins with whatever votes arrive within a round trip.
    scheduleTimer(c, n, T.window, K.voteWindow, c.nowMs + 2 * c.e.network.delayMsMax + 1);
  }
  if (n.votes.length >= c.majority) becomeLeader(c, out, n);
}

export function onVoteWindow(c: Core, out: Outputs, n: NodeState): void {
  if (n.role === 'candidate' && n.alive && !c.safety.quorum) becomeLeader(c, out, n);
}

function grantVote(c: Core, out: Outputs, n: NodeState, candidate: string): void {
  const bad = checkVote(n.id, n.term, candidate, c.voteLedger[n.idx]);
  if (bad) recordViolation(c, out, bad.invariant, bad.detail);
  n.votedFor = candidate;
  c.voteLedger[n.idx] = { term: n.term, for: candidate };
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
  return n.backingIdx >= 0 && n.backingIdx !== idx && !due(c, n, n.backingUntilLocalMs);
}

function backCandidate(c: Core, n: NodeState, idx: number): void {
  n.backingIdx = idx;
  n.backingUntilLocalMs = localNow(c, n) + 2 * c.e.lease.retryPeriodMs + c.e.lease.jitterMs;
}

function becomeLeader(c: Core, out: Outputs, n: NodeState): void {
  const votes = n.votes.map((i) => c.nodes[i].id);
  for (const v of checkElection({
    term: n.term,
    node: n.id,
    votes,
    majority: c.majority,
    voterCount: c.voterCount,
    previousLeaderOfTerm: c.leaderOfTerm.get(n.term),
    lastElectedTerm: c.lastElectedTerm,
  })) {
    recordViolation(c, out, v.invariant, v.detail);
  }
  c.leaderOfTerm.set(n.term, n.id);
  if (c.leaderOfTerm.size > 256) c.leaderOfTerm.delete(c.leaderOfTerm.keys().next().value as number);
  if (n.term > c.lastElectedTerm) c.lastElectedTerm = n.term;
  if (n.term > c.highestTokenIssued) c.highestTokenIssued = n.term;

  n.role = 'leader';
  n.preVoting = false;
  n.ready = false;
  n.knownLeader = n.idx;
  n.rounds = [];
  n.lastRenewLocalMs = localNow(c, n);
  n.lastRenewRealMs = c.nowMs;
  n.renewLatencyMs = 0;
  n.electionTimerAtMs = -1;
  cancelTimer(n, T.election);
  if (c.elections > 0) c.counters.leaderTransitions++;
  c.elections++;
  c.dnsLeader = n.idx;
  emit(c, out, { atMs: c.nowMs, type: 'elected', node: n.id, term: n.term, votes });
  noteElected(c, n);
  updateLeaderCount(c);

  // The new leader's first act is to claim the storage with its token, so a zombie's write
  // that arrives afterwards is fenced even before the new leader's first regular write.
  sendWrite(c, n.idx, n.term, 'claim');
  onHeartbeatTimer(c, out, n);
  scheduleRenewCheck(c, n);
  scheduleTimer(c, n, T.ready, K.ready, c.nowMs + c.e.warmUpMs);
}

function noteElected(c: Core, n: NodeState): void {
  if (c.elections > 1) {
    const loss = c.pendingLoss;
    const lostAtMs = loss ? loss.atMs : c.firstCampaignMs >= 0 ? c.firstCampaignMs : c.nowMs;
    const detectedAtMs = loss ? (c.detectedAtMs >= 0 ? c.detectedAtMs : c.nowMs) : lostAtMs;
    if (c.failovers.length >= MAX_FAILOVERS) c.failovers.shift();
    c.failovers.push({
      lostAtMs,
      detectedAtMs,
      electedAtMs: c.nowMs,
      readyAtMs: -1,
      node: n.id,
      term: n.term,
      from: loss ? loss.from : null,
      cause: loss ? loss.cause : 'a candidate won while the old leader still believed it led',
    });
  }
  c.pendingLoss = null;
  c.detectedAtMs = -1;
  c.firstCampaignMs = -1;
}

/** Mark the current leader as lost (killed, paused, cut off); a later election closes the failover. */
export function markLoss(c: Core, n: NodeState, cause: string): void {
  if (n.role !== 'leader' || c.pendingLoss) return;
  let top: NodeState | null = null;
  for (const p of c.nodes) if (p.alive && p.role === 'leader' && (!top || p.term > top.term)) top = p;
  if (top !== n) return;
  c.pendingLoss = { atMs: c.nowMs, from: n.id, cause };
  c.detectedAtMs = -1;
}

export function onReady(c: Core, out: Outputs, n: NodeState): void {
  if (n.role !== 'leader') return;
  n.ready = true;
  emit(c, out, { atMs: c.nowMs, type: 'ready', node: n.id, term: n.term });
  const f = c.failovers[c.failovers.length - 1];
  if (f && f.node === n.id && f.term === n.term && f.readyAtMs < 0) f.readyAtMs = c.nowMs;
  onWriteTick(c, n);
}

// ---------------------------------------------------------------- votes

function onPreVote(c: Core, n: NodeState, m: Message): void {
  const granted = m.term > n.term && !inLease(c, n) && !backsOther(c, n, m.from);
  send(c, n.idx, m.from, 'preVoteReply', m.term).granted = granted;
}

function onPreVoteReply(c: Core, out: Outputs, n: NodeState, m: Message): void {
  if (!n.preVoting || m.term !== n.term + 1 || !m.granted || n.votes.includes(m.from)) return;
  if (roundOver(c, n)) return;
  n.votes.push(m.from);
  if (n.votes.length >= c.majority) becomeCandidate(c, out, n, false);
}

/**
 * A candidate counts votes for one retry period of its own clock after it asked for them (its
 * round runs on, with jitter, until its timer starts the next one). Voters back it for longer
 * (backCandidate), which is what keeps a late-counted vote from electing it below a newer term.
 */
function roundOver(c: Core, n: NodeState): boolean {
  return due(c, n, n.campaignLocalMs + c.e.lease.retryPeriodMs);
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
  let granted = false;
  if (m.term === n.term && (n.votedFor === null || n.votedFor === candidate) && n.role !== 'leader') {
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
  if (n.role !== 'candidate' || m.term !== n.term || !m.granted || n.votes.includes(m.from)) return;
  // A vote that reaches a candidate after its round ran out (by its own clock) is too late: the
  // voters may since have elected someone in a later term. Without this check a candidate that
  // was paused while its votes arrived would resume and take office below a newer leader's term.
  if (roundOver(c, n)) return;
  n.votes.push(m.from);
  if (c.safety.quorum && n.votes.length >= c.majority) becomeLeader(c, out, n);
}

function becomeFollower(c: Core, n: NodeState): void {
  if (n.role === 'leader') return;
  n.role = 'follower';
  n.preVoting = false;
  n.votes = [];
  cancelTimer(n, T.window);
  if (n.electionTimerAtMs < 0) armElection(c, n, retryDeadline(c, n));
}

// ---------------------------------------------------------------- lease: heartbeats and renewals

export function onHeartbeatTimer(c: Core, out: Outputs, n: NodeState): void {
  if (n.role !== 'leader') return;
  // A leader past its renew deadline by its own clock stops acting before it sends anything
  // (e.g. when it wakes from a GC pause): its heartbeat would otherwise reset the followers'
  // lease wait and delay the failover it can no longer prevent.
  if (due(c, n, n.lastRenewLocalMs + c.e.lease.renewDeadlineMs)) {
    stepDown(c, out, n, 'renew deadline passed');
    return;
  }
  const round = { round: ++n.round, sentLocalMs: localNow(c, n), sentRealMs: c.nowMs, acks: [n.idx] };
  n.rounds.push(round);
  if (n.rounds.length > MAX_ROUNDS) n.rounds.shift();
  for (const p of c.nodes) {
    if (p !== n) send(c, n.idx, p.idx, 'heartbeat', n.term).round = round.round;
  }
  // Without quorum a leader renews on its own say-so, which is how each side of a split keeps one.
  if (round.acks.length >= c.majority || !c.safety.quorum) renewed(c, out, n, round.round);
  scheduleTimer(
    c,
    n,
    T.heartbeat,
    K.heartbeat,
    realAtLocal(c, n, round.sentLocalMs + c.e.lease.retryPeriodMs),
  );
}

function onHeartbeat(c: Core, out: Outputs, n: NodeState, m: Message): void {
  if (m.term < n.term) {
    sendAck(c, n, m, false);
    return;
  }
  if (n.role === 'leader') stepDown(c, out, n, 'saw higher term');
  if (m.term > n.term) setTerm(c, out, n, m.term);
  n.role = 'follower';
  n.preVoting = false;
  n.votes = [];
  n.knownLeader = m.from;
  // A leader at this term or later exists: the race that backing guards is decided.
  n.backingIdx = -1;
  n.lastHeardLocalMs = localNow(c, n);
  n.lastHeardRealMs = c.nowMs;
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
  const r = n.rounds.find((x) => x.round === m.round);
  if (!r || r.acks.includes(m.from)) return;
  r.acks.push(m.from);
  if (r.acks.length >= c.majority) renewed(c, out, n, r.round);
}

function renewed(c: Core, _out: Outputs, n: NodeState, roundNo: number): void {
  const i = n.rounds.findIndex((x) => x.round === roundNo);
  const r = n.rounds[i];
  if (r.sentLocalMs > n.lastRenewLocalMs) {
    n.lastRenewLocalMs = r.sentLocalMs;
    n.lastRenewRealMs = r.sentRealMs;
  }
  n.renewLatencyMs = c.nowMs - r.sentRealMs;
  n.rounds.splice(0, i + 1);
  scheduleRenewCheck(c, n);
  // A leader that renews after a fault (a short pause, a healed partition) survived it.
  if (c.pendingLoss && c.pendingLoss.from === n.id) {
    c.pendingLoss = null;
    c.detectedAtMs = -1;
  }
}

function scheduleRenewCheck(c: Core, n: NodeState): void {
  scheduleTimer(
    c,
    n,
    T.renew,
    K.renewCheck,
    realAtLocal(c, n, n.lastRenewLocalMs + c.e.lease.renewDeadlineMs),
  );
}

export function onRenewCheck(c: Core, out: Outputs, n: NodeState): void {
  if (n.role !== 'leader') return;
  if (due(c, n, n.lastRenewLocalMs + c.e.lease.renewDeadlineMs)) {
    stepDown(c, out, n, 'renew deadline passed');
  } else {
    scheduleRenewCheck(c, n);
  }
}

export function stepDown(c: Core, out: Outputs, n: NodeState, reason: StepDownReason): void {
  if (n.role !== 'leader') return;
  markLoss(c, n, reason);
  n.role = 'follower';
  n.ready = false;
  n.rounds = [];
  for (const t of [T.heartbeat, T.renew, T.write, T.ready]) cancelTimer(n, t);
  emit(c, out, { atMs: c.nowMs, type: 'steppedDown', node: n.id, term: n.term, reason });
  if (reason !== 'killed') {
    // It knew of a leader (itself) until now, so it waits a full lease like any follower.
    n.lastHeardLocalMs = localNow(c, n);
    n.lastHeardRealMs = c.nowMs;
    n.knownLeader = -1;
    n.electionTimerAtMs = -1;
    armElection(c, n, leaseWaitDeadline(c, n));
  }
  updateLeaderCount(c);
}

// ---------------------------------------------------------------- privileged writes and storage

/** Step one of a write: check the lease by the node's own clock and capture the token. */
export function onWriteTick(c: Core, n: NodeState): void {
  if (n.role !== 'leader' || !n.ready) return;
  if (due(c, n, n.lastRenewLocalMs + c.e.lease.renewDeadlineMs)) return;
  n.pendingToken = n.term;
  // Step two comes after the work; a pause that lands in between freezes the node mid-write.
  scheduleTimer(c, n, T.write, K.writeSend, c.nowMs + c.e.workload.leaderWriteEveryMs);
}

/** Step two: send the write with the token captured at the check, whatever has happened since. */
export function onWriteSend(c: Core, n: NodeState): void {
  sendWrite(c, n.idx, n.pendingToken, 'leader');
  onWriteTick(c, n);
}

export function sendManualWrite(c: Core, n: NodeState): void {
  sendWrite(c, n.idx, n.term, 'manual');
}

function onStorageWrite(c: Core, out: Outputs, m: Message): void {
  const s = c.storage;
  const token = m.token as number;
  const before = s.maxTokenSeen;
  const fencing = c.safety.fencing;
  const accepted = !fencing || token >= before;
  if (accepted) {
    s.accepted++;
    if (token > s.maxTokenSeen) s.maxTokenSeen = token;
  } else {
    s.rejected++;
    c.counters.fencingRejections++;
  }
  const node = c.nodes[m.from].id;
  const found = writeFindings(node, token, accepted, fencing, before, s.maxTokenSeen, c.highestTokenIssued);
  const stale = found !== null && found.some((f) => f.invariant === 'staleWriteAccepted');
  if (stale) c.counters.staleWritesAccepted++;
  // One object serves as both the trace's event and the storage's recent-writes entry (the
  // snapshot copies it without its type): one allocation per write instead of two.
  const w: WriteEvent = {
    type: 'write',
    atMs: c.nowMs,
    node,
    token,
    result: accepted ? 'accepted' : 'rejected',
    maxTokenSeen: s.maxTokenSeen,
    stale,
    kind: m.kind ?? 'leader',
  };
  s.recent.push(w);
  if (s.recent.length > MAX_RECENT_WRITES) s.recent.shift();
  emit(c, out, w);
  if (found !== null) for (const f of found) recordViolation(c, out, f.invariant, f.detail);
  if (!accepted) {
    const r = send(c, STORAGE, m.from, 'writeRejected', s.maxTokenSeen);
    r.token = token;
    r.maxTokenSeen = s.maxTokenSeen;
  }
}

function onWriteRejected(c: Core, out: Outputs, n: NodeState, m: Message): void {
  // The retryable error names a newer token: this node has been deposed.
  if (n.role === 'leader' && (m.maxTokenSeen as number) > n.term) stepDown(c, out, n, 'fenced by storage');
  if ((m.maxTokenSeen as number) > n.term) setTerm(c, out, n, m.maxTokenSeen as number);
}

// ---------------------------------------------------------------- clients

export function onClientTick(c: Core, client: number): number {
  if (c.clientLeader[client] < 0 || c.clientCacheUntil[client] <= c.nowMs) {
    // Resolve like DNS: the record names the most recently elected leader and is cached.
    c.clientLeader[client] = c.dnsLeader;
    c.clientCacheUntil[client] = c.nowMs + c.e.workload.clientLeaderCacheMs;
  }
  const to = c.clientLeader[client];
  if (to >= 0) sendClientWrite(c, to, client);
  return c.nowMs + c.e.workload.clientWriteEveryMs;
}

export function onClientWrite(c: Core, out: Outputs, n: NodeState, client: number): void {
  let result: 'redirected' | 'accepted' | 'divergent' | 'unavailable';
  if (n.role === 'leader') {
    if (n.ready) {
      result = 'accepted';
      sendWrite(c, n.idx, n.term, 'client', client);
    } else {
      result = 'unavailable';
    }
  } else if (c.safety.followersReject) {
    // Reject, not route: an explicit error with a redirect hint, so the client re-resolves.
    result = 'redirected';
    c.counters.clientRedirects++;
    c.clientLeader[client] = -1;
  } else {
    result = 'divergent';
    c.counters.divergentWrites++;
  }
  emit(c, out, { atMs: c.nowMs, type: 'clientWrite', client, to: n.id, result });
}

export function onClientWriteToDeadNode(c: Core, out: Outputs, n: NodeState, client: number): void {
  c.clientLeader[client] = -1;
  emit(c, out, { atMs: c.nowMs, type: 'clientWrite', client, to: n.id, result: 'unavailable' });
}

// ---------------------------------------------------------------- dispatch

export function deliverToStorage(c: Core, out: Outputs, m: Message): void {
  onStorageWrite(c, out, m);
}

export function deliverToNode(c: Core, out: Outputs, n: NodeState, m: Message): void {
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
    case 'writeRejected':
      return onWriteRejected(c, out, n, m);
    case 'clientWrite':
      // The engine queues clients' requests as events of their own (sendClientWrite); this
      // entry lets a test hand one to a node as a message.
      return onClientWrite(c, out, n, m.client as number);
    default:
      return;
  }
}
