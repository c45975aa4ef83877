// A candidate of etcd's election, as etcd's Go client runs it (client/v3/concurrency: session.go,
// election.go), written once as a state machine with no I/O: the simulator runs it through the
// engine's core, the real candidate process through etcd's JSON gateway and real timers. Its inputs
// are a reply, a keep-alive's answer, a watch event and a timer; its outputs go through CandidateIO.
//  - session: a lease with a TTL, kept alive every TTL/3; it ends when a keep-alive finds the lease
//    gone, or when none was answered for a whole TTL (or the application's renew deadline);
//  - campaign: create `prefix/<lease>` bound to the lease, wait until every lower create revision is
//    gone, watching the predecessor (waitDeletes); the lowest leads, its revision the fencing token;
//  - resign: revoke the lease (its key goes with it), then exit.
import type { StepDownReason } from '../types';

/** A lease id: a number in the simulator, etcd's decimal string for real (ids exceed 2^53). 0: none. */
export type LeaseId = number | string;
/** A key as the recipe names it: the simulator names it by its lease, etcd by its full name. 0: none. */
export type KeyId = number | string;

export type EtcdOp =
  | { op: 'grant' }
  | { op: 'keepAlive'; lease: LeaseId }
  | { op: 'create'; lease: LeaseId }
  | { op: 'range'; below: number }
  | { op: 'watch'; key: KeyId }
  | { op: 'delete'; key: KeyId }
  | { op: 'revoke'; lease: LeaseId };

export interface EtcdReply {
  op: EtcdOp['op'];
  /** grant: the new lease; keepAlive: the lease's TTL left (<= 0: it is gone). */
  lease: LeaseId;
  ttlMs: number;
  /** create: the key's create revision; range: the predecessor's key and revision (0: none). */
  key: KeyId;
  rev: number;
  /** The store's revision when it answered (a watch that missed an event catches up from it). */
  storeRev: number;
}

export interface EtcdCandidateSettings {
  ttlMs: number;
  /** 0: none. Otherwise the leader stops acting when no keep-alive has succeeded for this long. */
  renewDeadlineMs: number;
}

/** The candidate's timers (one per slot: arming a slot again replaces it). */
export type CandidateTimer = 'keepAlive' | 'sessionDeadline' | 'request' | 'retry';

export type Phase = 'granting' | 'creating' | 'ranging' | 'watching' | 'leading' | 'stopping' | 'idle';

/** The candidate's whole state, as it starts: plain data (the simulator checkpoints it with its node). */
export const initCandidate = () => ({
  phase: 'idle' as Phase,
  /** The session's lease (0: none) and the create revision of the key it campaigns with. */
  lease: 0 as LeaseId,
  myRev: 0,
  /** The key it watches (its predecessor), or 0. */
  watching: 0 as KeyId,
  /** The store revision it last ranged at: a newer one means a deletion it may have missed. */
  rangedAtRev: 0,
  requestId: -1,
  /** Own-clock time the last keep-alive was answered with the lease alive, and the real time. */
  lastKeepAliveLocalMs: 0,
  lastKeepAliveRealMs: -1,
  keepAliveSentRealMs: 0,
  renewLatencyMs: 0,
});

export type EtcdCandidate = ReturnType<typeof initCandidate>;

/** What a runtime does for the candidate: I/O, clock, timers and the kernel's part. */
export interface CandidateIO {
  /** The real time, and the node's own clock (the same for a real process). */
  nowMs(): number;
  localNowMs(): number;
  /** Whether the node's own clock has reached atLocalMs (a timer may fire a little early or late). */
  reached(atLocalMs: number): boolean;
  /** Send a request to the candidate's etcd member; its id (a later reply names it). */
  request(op: EtcdOp): number;
  /** Send a keep-alive for the lease (its answer comes back through onKeepAliveReply). */
  keepAlive(lease: LeaseId): void;
  setTimer(slot: CandidateTimer, atLocalMs: number): void;
  cancelTimer(slot: CandidateTimer): void;
  /** Its key is about to be created. */
  campaigned(): void;
  /** It leads, with its key's create revision as the token. */
  acquired(token: number): void;
  released(reason: StepDownReason): void;
  /** A keep-alive was answered while it leads. */
  renewed(): void;
  /** The resignation is over (done or failed): the process exits. */
  exited(): void;
}

/** Keep-alives go every TTL/3, as the Go client sends them. */
export function keepAliveEveryMs(s: EtcdCandidateSettings): number {
  return Math.max(1, Math.floor(s.ttlMs / 3));
}

/** A request with no answer is retried after this long (the client's own timeout). */
export function requestTimeoutMs(s: EtcdCandidateSettings): number {
  return Math.max(500, Math.floor(s.ttlMs / 3));
}

/** How long after its last answered keep-alive the session ends by the client's own clock. */
export function sessionDeadlineMs(s: EtcdCandidateSettings): number {
  return s.renewDeadlineMs > 0 ? Math.min(s.renewDeadlineMs, s.ttlMs) : s.ttlMs;
}

function request(p: EtcdCandidate, s: EtcdCandidateSettings, io: CandidateIO, op: EtcdOp): void {
  p.requestId = io.request(op);
  io.setTimer('request', io.localNowMs() + requestTimeoutMs(s));
}

export function newSession(p: EtcdCandidate, s: EtcdCandidateSettings, io: CandidateIO): void {
  p.phase = 'granting';
  p.lease = 0;
  p.myRev = 0;
  p.watching = 0;
  request(p, s, io, { op: 'grant' });
}

function rangeNow(p: EtcdCandidate, s: EtcdCandidateSettings, io: CandidateIO): void {
  p.phase = 'ranging';
  p.watching = 0;
  request(p, s, io, { op: 'range', below: p.myRev });
}

export function onReply(
  p: EtcdCandidate,
  s: EtcdCandidateSettings,
  io: CandidateIO,
  requestId: number,
  r: EtcdReply,
): void {
  if (requestId !== p.requestId) return;
  io.cancelTimer('request');
  switch (r.op) {
    case 'grant':
      if (p.phase !== 'granting') return;
      p.lease = r.lease;
      p.lastKeepAliveLocalMs = io.localNowMs();
      p.lastKeepAliveRealMs = io.nowMs();
      armSessionDeadline(p, s, io);
      io.setTimer('keepAlive', io.localNowMs() + keepAliveEveryMs(s));
      p.phase = 'creating';
      io.campaigned();
      return request(p, s, io, { op: 'create', lease: p.lease });
    case 'create':
      if (p.phase !== 'creating') return;
      if (r.rev === 0) return newSession(p, s, io); // the lease was gone already
      p.myRev = r.rev;
      return rangeNow(p, s, io);
    case 'range':
      if (p.phase !== 'ranging') return;
      p.rangedAtRev = r.storeRev;
      if (r.key === 0) {
        p.phase = 'leading';
        return io.acquired(p.myRev);
      }
      p.watching = r.key;
      p.phase = 'watching';
      return request(p, s, io, { op: 'watch', key: r.key });
    case 'watch':
      // The predecessor was already gone by the time the watch was set: look again.
      if (p.phase === 'watching' && r.rev === 0) rangeNow(p, s, io);
      return;
    case 'delete':
    case 'revoke':
      if (p.phase === 'stopping') finishStop(p, io);
      return;
    case 'keepAlive':
      return;
  }
}

/** The watched key was deleted: look again (waitDeletes). */
export function onWatchEvent(p: EtcdCandidate, s: EtcdCandidateSettings, io: CandidateIO, key: KeyId): void {
  if (p.phase === 'watching' && key === p.watching) rangeNow(p, s, io);
}

export function onKeepAliveTimer(p: EtcdCandidate, s: EtcdCandidateSettings, io: CandidateIO): void {
  if (p.lease === 0) return;
  io.keepAlive(p.lease);
  p.keepAliveSentRealMs = io.nowMs();
  io.setTimer('keepAlive', io.localNowMs() + keepAliveEveryMs(s));
}

export function onKeepAliveReply(
  p: EtcdCandidate,
  s: EtcdCandidateSettings,
  io: CandidateIO,
  r: EtcdReply,
): void {
  if (r.lease !== p.lease || p.lease === 0) return;
  if (r.ttlMs <= 0) return sessionLost(p, s, io, 'lease expired');
  p.lastKeepAliveLocalMs = io.localNowMs();
  p.lastKeepAliveRealMs = io.nowMs();
  p.renewLatencyMs = io.nowMs() - p.keepAliveSentRealMs;
  armSessionDeadline(p, s, io);
  if (p.phase === 'leading') io.renewed();
  // A watch that missed its event (its member was cut off) catches up from the store's revision.
  if (p.phase === 'watching' && r.storeRev > p.rangedAtRev) rangeNow(p, s, io);
}

export function armSessionDeadline(p: EtcdCandidate, s: EtcdCandidateSettings, io: CandidateIO): void {
  io.setTimer('sessionDeadline', p.lastKeepAliveLocalMs + sessionDeadlineMs(s));
}

export function onSessionDeadline(p: EtcdCandidate, s: EtcdCandidateSettings, io: CandidateIO): void {
  if (p.lease === 0 || !io.reached(p.lastKeepAliveLocalMs + sessionDeadlineMs(s))) return;
  sessionLost(p, s, io, s.renewDeadlineMs > 0 ? 'renew deadline passed' : 'lease expired');
}

/** session.Done(): a leader stops, and the candidate starts a new session and campaigns again. */
function sessionLost(
  p: EtcdCandidate,
  s: EtcdCandidateSettings,
  io: CandidateIO,
  reason: 'lease expired' | 'renew deadline passed',
): void {
  if (p.phase === 'leading') io.released(reason);
  for (const t of ['keepAlive', 'sessionDeadline', 'request'] as const) io.cancelTimer(t);
  p.lease = 0;
  // A fresh session after a retry interval (the application's loop).
  p.phase = 'idle';
  io.setTimer('retry', io.localNowMs() + keepAliveEveryMs(s));
}

/** A request went unanswered for the client's timeout: ask again. */
export function onRequestTimeout(p: EtcdCandidate, s: EtcdCandidateSettings, io: CandidateIO): void {
  switch (p.phase) {
    case 'granting':
      return newSession(p, s, io);
    case 'creating':
      return request(p, s, io, { op: 'create', lease: p.lease });
    case 'ranging':
      return rangeNow(p, s, io);
    case 'watching':
      return request(p, s, io, { op: 'watch', key: p.watching });
    case 'stopping':
      return finishStop(p, io);
    default:
      return;
  }
}

/** The retry timer: an idle candidate starts a session. */
export function onRetry(p: EtcdCandidate, s: EtcdCandidateSettings, io: CandidateIO): void {
  if (p.phase === 'idle') newSession(p, s, io);
}

/** Resign: a leader stops; the lease is revoked (its key goes with it); then the process exits. */
export function resign(p: EtcdCandidate, s: EtcdCandidateSettings, io: CandidateIO): void {
  if (p.phase === 'leading') io.released('stopped');
  for (const t of ['keepAlive', 'sessionDeadline'] as const) io.cancelTimer(t);
  if (p.lease === 0) return finishStop(p, io);
  p.phase = 'stopping';
  request(p, s, io, { op: 'revoke', lease: p.lease });
}

function finishStop(p: EtcdCandidate, io: CandidateIO): void {
  p.phase = 'idle';
  p.lease = 0;
  io.exited();
}

/** The process died: it remembers nothing (the runtime has dropped its timers). */
export function onKilled(p: EtcdCandidate): void {
  p.phase = 'idle';
  p.lease = 0;
  p.watching = 0;
}

export function onClockChanged(p: EtcdCandidate, s: EtcdCandidateSettings, io: CandidateIO): void {
  if (p.lease === 0) return;
  armSessionDeadline(p, s, io);
  io.setTimer('keepAlive', io.localNowMs() + keepAliveEveryMs(s));
}
