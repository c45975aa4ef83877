// The bridge's fixed command set, shared by the page (JSON) and the headless CLI (text lines). Each verb is
// the engine's plus `part`: lab node nK is a host running etcd member mK and candidate cK, and a real fault
// hits one process or both. Anything else is refused by name, including engine-only acts (a clock's rate,
// campaigning on demand, start-only switches). toRealCommand maps page commands here; faultOf maps back.
import type { Command } from '../../engine';

export type Part = 'candidate' | 'member' | 'host';

/** node: n1..n9, the application leader's host ("leader"), or the host of etcd's raft leader ("raftLeader"). */
export type RealCommand =
  | { do: 'kill'; node: string; part?: Part }
  | { do: 'restart'; node: string; part?: Part }
  | { do: 'pause'; node: string; forMs?: number; part?: Part }
  | { do: 'resume'; node: string; part?: Part }
  | { do: 'isolate'; node: string; part?: 'host' | 'candidate' }
  | { do: 'partition'; groups: string[][] }
  | { do: 'heal' }
  | { do: 'safety'; fencing: boolean };

export type RealFault = RealCommand & { atMs: number };

/** Engine verbs and switches a real cluster cannot perform, with the reason the page shows. */
export const NOT_FOR_REAL: Record<string, string> = {
  clockRate: "an etcd member's clock rate cannot be changed from outside the process",
  campaign: "etcd's election has no call to make a chosen candidate win; kill or resign the leader instead",
  write: 'the candidates write on their own schedule; a write on demand would bypass their check',
  quorum: 'quorum is part of etcd itself and cannot be switched off',
  preVote: "pre-vote is a member's start-up flag (--pre-vote): start the run with or without it",
  followersReject: 'etcd members always answer for the leader they know',
};

/** The engine's verbs a real run performs, with the fields each takes besides "do". */
const FIELDS = {
  kill: ['node', 'part'],
  restart: ['node', 'part'],
  pause: ['node', 'forMs', 'part'],
  resume: ['node', 'part'],
  isolate: ['node', 'part'],
  partition: ['groups'],
  heal: [],
  safety: ['fencing', ...Object.keys(NOT_FOR_REAL)],
} satisfies Partial<Record<Command['do'], string[]>>;

/** The verbs of FIELDS; the page hides the rest (NOT_FOR_REAL says why). */
export const VERBS = Object.keys(FIELDS) as (keyof typeof FIELDS)[];

export interface CommandError {
  /** A stable name the page can switch on. */
  error: 'not an object' | 'unknown command' | 'not possible for real' | 'bad field';
  message: string;
  field?: string;
}

export interface ApplyResult {
  ok: boolean;
  /** The host the command hit (resolved from "leader" or "raftLeader"). */
  target?: string;
  /** Nothing to do (nothing of that part was running, paused, cut...), as the engine's skipped. */
  skipped?: boolean;
  error?: { error: string; message: string; field?: string };
}

export type CommandResult = { ok: true; command: RealCommand } | { ok: false; error: CommandError };

export type PageCommandResult = { ok: true; command: RealCommand } | { ok: false; error: string };

/** "m2" is etcd member 2 (the host n2's member part); "n2", "leader" are candidates. */
function targetOf(node: string): { node: string; part: Part } {
  const m = /^m([1-9])$/.exec(node);
  return m ? { node: `n${m[1]}`, part: 'member' } : { node, part: 'candidate' };
}

/** The page's command (engine verbs, node or service ids) as the bridge's. */
export function toRealCommand(cmd: Command): PageCommandResult {
  const ok = (command: RealCommand): PageCommandResult => ({ ok: true, command });
  switch (cmd.do) {
    case 'kill':
    case 'restart':
    case 'resume':
      return ok({ do: cmd.do, ...targetOf(cmd.node) });
    case 'pause':
      return ok({ do: 'pause', ...targetOf(cmd.node), ...(cmd.forMs ? { forMs: cmd.forMs } : {}) });
    case 'isolate': {
      // Cut a candidate from its member (its only peer but storage); a member from the rest (host offline).
      const t = targetOf(cmd.node);
      return ok({ do: 'isolate', node: t.node, part: t.part === 'member' ? 'host' : 'candidate' });
    }
    case 'partition':
      return ok({
        do: 'partition',
        groups: cmd.groups.map((g) => [
          ...new Set(g.map((id) => (id === 'storage' ? id : targetOf(id).node))),
        ]),
      });
    case 'heal':
      return ok({ do: 'heal' });
    case 'safety': {
      const other = (['quorum', 'preVote', 'followersReject', 'checkQuorum'] as const).find(
        (k) => cmd[k] !== undefined,
      );
      if (other) return { ok: false, error: `not possible for real: ${NOT_FOR_REAL[other] ?? other}` };
      if (cmd.fencing === undefined) return { ok: false, error: 'a safety command must set fencing' };
      return ok({ do: 'safety', fencing: cmd.fencing });
    }
    default:
      return {
        ok: false,
        error: `not possible for real: ${NOT_FOR_REAL[cmd.do] ?? `${cmd.do} has no real counterpart`}`,
      };
  }
}

const PARTS: Part[] = ['candidate', 'member', 'host'];

function bad(field: string, message: string): CommandResult {
  return { ok: false, error: { error: 'bad field', field, message } };
}

/** Validate one command for a cluster of `nodes` hosts. Never throws. */
export function parseRealCommand(input: unknown, nodes: number): CommandResult {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    return { ok: false, error: { error: 'not an object', message: 'a command is a JSON object with "do"' } };
  const x = input as Record<string, unknown>;
  const verb = x.do;
  if (typeof verb === 'string' && verb in NOT_FOR_REAL)
    return { ok: false, error: { error: 'not possible for real', message: NOT_FOR_REAL[verb] } };
  if (typeof verb !== 'string' || !(VERBS as readonly string[]).includes(verb)) {
    return {
      ok: false,
      error: { error: 'unknown command', field: 'do', message: `"do" must be one of ${VERBS.join(', ')}` },
    };
  }
  const allowed: string[] = FIELDS[verb as keyof typeof FIELDS];
  for (const key of Object.keys(x))
    if (key !== 'do' && !allowed.includes(key)) return bad(key, 'unknown field');
  const isNode = (v: unknown) =>
    typeof v === 'string' && (v === 'leader' || v === 'raftLeader' || isHost(v, nodes));
  if (allowed.includes('node') && !isNode(x.node))
    return bad('node', `must be n1..n${nodes}, "leader" or "raftLeader"`);
  if (x.part !== undefined) {
    const parts: string[] = verb === 'isolate' ? ['host', 'candidate'] : PARTS;
    if (typeof x.part !== 'string' || !parts.includes(x.part))
      return bad('part', `must be one of ${parts.join(', ')}`);
  }
  if (verb === 'pause' && x.forMs !== undefined) {
    if (!Number.isInteger(x.forMs) || (x.forMs as number) < 1 || (x.forMs as number) > 3_600_000)
      return bad('forMs', 'must be a whole number of ms from 1 to 3600000');
  }
  if (verb === 'partition') {
    const groups = x.groups;
    if (!Array.isArray(groups) || groups.length === 0) return bad('groups', 'must be a list of groups');
    const seen = new Set<string>();
    for (const [gi, g] of groups.entries()) {
      if (!Array.isArray(g) || g.length === 0) return bad(`groups.${gi}`, 'must be a non-empty list');
      for (const [mi, m] of g.entries()) {
        if (typeof m !== 'string' || !(m === 'storage' || isHost(m, nodes)))
          return bad(`groups.${gi}.${mi}`, `must be n1..n${nodes} or "storage"`);
        if (seen.has(m)) return bad(`groups.${gi}.${mi}`, `"${m}" is in more than one group`);
        seen.add(m);
      }
    }
  }
  if (verb === 'safety') {
    const other = Object.keys(x).find((k) => k in NOT_FOR_REAL);
    if (other) return { ok: false, error: { error: 'not possible for real', message: NOT_FOR_REAL[other] } };
    if (typeof x.fencing !== 'boolean') return bad('fencing', 'must be true or false');
  }
  return { ok: true, command: x as RealCommand };
}

function isHost(v: string, nodes: number): boolean {
  const m = /^n([1-9])$/.exec(v);
  return m !== null && Number(m[1]) <= nodes;
}

export const COMMAND_LINE_HELP = `commands (node: n1..n3, leader, raftLeader; part: candidate, member, host):
  kill <node> [part]            SIGKILL (default part: candidate)
  restart <node> [part]         start what is dead on that host again
  pause <node> [ms] [part]      SIGSTOP, then SIGCONT after ms (default: until resume)
  resume <node> [part]          SIGCONT
  isolate <node> [candidate]    cut the host's member from the other members (candidate: cut the
                                candidate from its member)
  partition n1 | n2,n3,storage  groups of hosts (and the storage) that reach only each other
  heal                          end every cut
  fencing on|off                the storage's token check
  status | help | quit`;

/** A text line (the CLI's stdin) to a command object for parseRealCommand; null for an empty line. */
export function commandFromLine(line: string): Record<string, unknown> | null {
  const words = line.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return null;
  const [verb, ...rest] = words;
  const part = (w: string | undefined) => (w === undefined ? {} : { part: w });
  // Words beyond a verb's arguments become a field no verb has, so the line is refused by name.
  const extra = (used: number) => (rest.length > used ? { unexpected: rest.slice(used).join(' ') } : {});
  switch (verb) {
    case 'kill':
    case 'restart':
    case 'resume':
    case 'isolate':
      return { do: verb, node: rest[0], ...part(rest[1]), ...extra(2) };
    case 'pause': {
      const ms = rest[1] !== undefined && /^\d+$/.test(rest[1]) ? Number(rest[1]) : undefined;
      const used = ms === undefined ? 1 : 2;
      return {
        do: 'pause',
        node: rest[0],
        ...(ms === undefined ? {} : { forMs: ms }),
        ...part(rest[used]),
        ...extra(used + 1),
      };
    }
    case 'partition':
      return {
        do: 'partition',
        groups: rest
          .join(' ')
          .split('|')
          .map((g) => g.split(/[\s,]+/).filter(Boolean)),
      };
    case 'heal':
      return { do: 'heal', ...extra(0) };
    case 'fencing':
      return {
        do: 'safety',
        fencing: rest[0] === 'on' ? true : rest[0] === 'off' ? false : rest[0],
        ...extra(1),
      };
    default:
      return { do: verb };
  }
}
