// etcd's log lines to raft events. Members run with --logger=zap (JSON lines); a role change is logged by the
// member that changes, with etcd's timestamp (ms), so a line belongs to the member whose stderr it is.
import type { MemberLeaderEvent, MemberRole, MemberRoleEvent } from '../model/events';

// etcd's raft writes member IDs with %x: no leading zeros, so an ID may have fewer than 16 digits.
const BECAME = /^([0-9a-f]{1,16}) became (follower|pre-candidate|candidate|leader) at term (\d+)$/;
// "elected leader" or "lost leader"; and a follower that hears a new leader without having lost
// the old one first (a deposed leader that hears its successor, for one) logs "changed leader".
const LEADER =
  /^raft\.node: ([0-9a-f]{1,16}) (?:(elected|lost) leader|changed leader from [0-9a-f]{1,16} to) ([0-9a-f]{1,16}) at term (\d+)$/;

const ROLES: Record<string, MemberRole> = {
  follower: 'follower',
  'pre-candidate': 'preCandidate',
  candidate: 'candidate',
  leader: 'leader',
};

export interface LogContext {
  /** The member whose log this is (m1 runs on host n1, beside candidate c1). */
  member: string;
  /** Member name by hex member ID (with or without leading zeros). */
  nameOf: (hexId: string) => string | undefined;
  /** Wall-clock ms (epoch) at which the run started. */
  runStartEpochMs: number;
}

export function parseEtcdLogLine(line: string, ctx: LogContext): MemberRoleEvent | MemberLeaderEvent | null {
  if (!line.startsWith('{')) return null;
  let entry: { ts?: unknown; msg?: unknown };
  try {
    entry = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof entry.msg !== 'string' || typeof entry.ts !== 'string') return null;
  const atMs = Date.parse(entry.ts) - ctx.runStartEpochMs;
  if (!Number.isFinite(atMs)) return null;
  const became = BECAME.exec(entry.msg);
  if (became) {
    if (ctx.nameOf(became[1]) !== ctx.member) return null;
    return { atMs, type: 'member', member: ctx.member, role: ROLES[became[2]], term: Number(became[3]) };
  }
  const leader = LEADER.exec(entry.msg);
  if (leader) {
    if (ctx.nameOf(leader[1]) !== ctx.member) return null;
    const name = leader[2] === 'lost' ? null : (ctx.nameOf(leader[3]) ?? `?${leader[3]}`);
    return { atMs, type: 'memberLeader', member: ctx.member, leader: name, term: Number(leader[4]) };
  }
  return null;
}
