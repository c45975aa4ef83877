// The events of a real run, in the engine's shapes where the engine has the event (campaign, elected,
// steppedDown, ready, write, violation, fault), plus what only a real cluster has, defined here: the etcd
// members' raft roles (from their logs), the candidates' sessions, the processes' lives. Times: ms.
import type * as zm from 'zod/mini';
import type { NodeId, SimEvent, StepDownReason } from '../../engine';
import { z } from '../../engine/schemaKit';
import type { RealFault } from './commands';

const num = z.number();
const member = z.string().check(z.regex(/^m[1-9]$/));
const memberRole = z.enum(['follower', 'preCandidate', 'candidate', 'leader']);

/** The fields of the events only a real run has: their types derive from them; files are checked by them. */
export const REAL_FIELDS = {
  member: { member, role: memberRole, term: num },
  memberLeader: { member, leader: z.nullable(member), term: num },
  session: {
    node: z.string(),
    /** Lease IDs exceed 2^53: a string. */
    leaseId: z.string(),
    state: z.enum(['granted', 'renewed', 'lost']),
    ttlMs: num,
    /** For 'renewed': ms since the previous answered keep-alive. */
    gapMs: z.optional(num),
  },
  process: {
    node: z.string(),
    part: z.enum(['member', 'candidate']),
    /** stopped/continued: SIGSTOP and SIGCONT sent by a pause and its end. */
    state: z.enum(['started', 'stopped', 'continued', 'exited']),
    code: z.optional(z.nullable(num)),
    signal: z.optional(z.nullable(z.string())),
  },
};

type RealOnly<T extends keyof typeof REAL_FIELDS> = { atMs: number; type: T } & zm.output<
  zm.ZodMiniObject<(typeof REAL_FIELDS)[T]>
>;

export type MemberRole = zm.output<typeof memberRole>;

/** A member's raft role changed: etcd's "<id> became <role> at term <N>". */
export type MemberRoleEvent = RealOnly<'member'>;

/** A member learned who leads raft, or lost its leader: "elected leader <id> at term <N>" / "lost leader". */
export type MemberLeaderEvent = RealOnly<'memberLeader'>;

/** A candidate's etcd session began, ended, or was renewed after a gap over 1.5 keep-alive periods. */
export type SessionEvent = RealOnly<'session'>;

/** Not in the record (too many): each answered keep-alive, folded into the leader's renewal latency. */
export interface KeepAliveReport {
  atMs: number;
  type: 'keepAlive';
  node: NodeId;
  rttMs: number;
}

/** A process of the run started or ended: member mK or candidate cK of host nK. */
export type ProcessEvent = RealOnly<'process'>;

/** A process event, the exit's code and signal with it when it exited. */
export function processEvent(
  atMs: number,
  node: NodeId,
  part: ProcessEvent['part'],
  state: ProcessEvent['state'],
  exit: Pick<ProcessEvent, 'code' | 'signal'> = {},
): ProcessEvent {
  return { atMs, type: 'process', node, part, state, ...exit };
}

/** Beyond the engine's reasons: its etcd session ended (by etcd's or its own deadline), or SIGTERM. */
export type RealStepDownReason = StepDownReason | 'lease expired' | 'resigned';

export type SteppedDownEvent = Omit<Extract<SimEvent, { type: 'steppedDown' }>, 'reason'> & {
  reason: RealStepDownReason;
};

/** A command applied to the real cluster; the fault is the command with its time. */
export interface RealFaultEvent {
  atMs: number;
  type: 'fault';
  fault: RealFault;
  target?: NodeId;
  skipped?: boolean;
  live: true;
}

export type WriteEvent = Extract<SimEvent, { type: 'write' }>;
export type ViolationEvent = Extract<SimEvent, { type: 'violation' }>;

/** What a candidate reports of its run: its campaigns, leaderships and sessions. */
export type CandidateEvent =
  Extract<SimEvent, { type: 'campaign' | 'elected' | 'ready' }> | SteppedDownEvent | SessionEvent;

/** What a candidate process prints on its stdout, one JSON object a line. */
export type CandidateOutput = CandidateEvent | KeepAliveReport;

export type RealEvent =
  | CandidateEvent
  | WriteEvent
  | ViolationEvent
  | RealFaultEvent
  | MemberRoleEvent
  | MemberLeaderEvent
  | ProcessEvent;
