// A finding's caption: one sentence naming what allowed it, the faults that matter (all, once minimal) and
// what broke, read off the run's trace, e.g. "fencing off: a 24.1 s pause of the leader n2 at 12.0 s lets
// n2's write with token 1 land after token 2 was issued (breaks "No stale write accepted" at 36.5 s)".
import { formatSeconds, INVARIANT_TITLES } from '../engine';
import type { Fault, SimEvent, Trace, Violation } from '../engine';
import type { ExplorerFault } from './schedule';

export interface CaptionContext {
  trace: Trace;
  /** The explorer's faults in the run (the setup's own are part of the setup, not the story). */
  faults: readonly ExplorerFault[];
  /** The algorithm's name, and what it calls an epoch (term, epoch). */
  algorithmTitle: string;
  epochWord: string;
  /** The algorithm's services (an API server, store members), named in faults by their labels. */
  services?: readonly { id: string; label: string }[];
}

/** "an 8.0 s pause", "an 11.0 s pause", "an 18.5 s pause"; "a" before every other number. */
const article = (spoken: string) => (/^(8|1[18](?!\d))/.test(spoken) ? 'an' : 'a');

type FaultEvent = Extract<SimEvent, { type: 'fault' }>;

export function caption(ctx: CaptionContext): string {
  const violation = ctx.trace.summary.violations[0];
  if (!violation) return 'no invariant broke';
  const faults = describeFaults(ctx);
  const cause =
    faults.length === 0
      ? 'with no fault added, the run'
      : faults.slice(0, -1).join(', ') + (faults.length > 1 ? ' and ' : '') + faults[faults.length - 1];
  const verb = faults.length > 1 ? 'let' : 'lets';
  return (
    `${allowedWords(violation, ctx.algorithmTitle)}: ${cause} ${verb} ${consequence(ctx, violation)} ` +
    `(breaks "${INVARIANT_TITLES[violation.invariant]}" at ${formatSeconds(violation.atMs)})`
  );
}

function allowedWords(v: Violation, algorithmTitle: string): string {
  if (v.allowedBy === 'algorithm') return `${algorithmTitle} has no quorum`;
  return v.allowedBy ? `${v.allowedBy} off` : 'every safety mechanism on (a bug)';
}

/** The faults told as "<verb> <who> at <time>". */
const VERBS: Partial<Record<Fault['do'], string>> = {
  kill: 'killing',
  stop: 'stopping',
  restart: 'restarting',
  resume: 'resuming',
  isolate: 'isolating',
};

/** Each explorer fault in words, its "leader" or node resolved from the run as it happened. */
function describeFaults(ctx: CaptionContext): string[] {
  const pending = ctx.faults.map((f) => JSON.stringify(f));
  const leaders = new Set<string>();
  const words: string[] = [];
  for (const ev of ctx.trace.events) {
    if (ev.type === 'elected') leaders.add(ev.node);
    else if (ev.type === 'steppedDown') leaders.delete(ev.node);
    else if (ev.type === 'fault' && !ev.live) {
      const i = pending.indexOf(JSON.stringify(ev.fault));
      if (i < 0) continue;
      pending[i] = '';
      words.push(describeFault(ev, leaders, ctx));
    }
  }
  return words;
}

/** A service by its label ("the API server", "etcd m1"), a node by its id. */
function endpointWords(id: string, ctx: CaptionContext): string {
  const service = ctx.services?.find((s) => s.id === id);
  if (!service) return id;
  return service.label.includes(id) ? service.label : `the ${service.label}`;
}

function describeFault(ev: FaultEvent, leaders: Set<string>, ctx: CaptionContext): string {
  const f: Fault = ev.fault;
  const at = formatSeconds(f.atMs);
  const target = ev.target ?? ('node' in f ? f.node : '');
  const who =
    ('node' in f && f.node === 'leader') || leaders.has(target)
      ? `the leader ${target}`
      : endpointWords(target, ctx);
  return faultWords(f, who, at, ctx.trace) + (ev.skipped ? ' (which did nothing)' : '');
}

function faultWords(f: Fault, who: string, at: string, trace: Trace): string {
  const verb = VERBS[f.do];
  if (verb) return `${verb} ${who} at ${at}`;
  switch (f.do) {
    case 'pause':
      return f.forMs === undefined
        ? `pausing ${who} at ${at}`
        : `${article(formatSeconds(f.forMs))} ${formatSeconds(f.forMs)} pause of ${who} at ${at}`;
    case 'campaign':
      return f.transfer ? `a leadership transfer to ${who} at ${at}` : `${who} campaigning at ${at}`;
    case 'clockRate':
      return `${who}'s clock running at ${f.rate}x from ${at}`;
    case 'heal':
      return `healing the partition at ${at}`;
    case 'partition':
      return `a partition ${groupsInWords(f.groups, trace)} at ${at}`;
    default:
      return `${f.do} at ${at}`;
  }
}

/** "{n1, n2} | {n3, n4, n5}": the named groups, then the nodes left out (one more group). */
function groupsInWords(groups: string[][], trace: Trace): string {
  const named = new Set(groups.flat());
  const rest = trace.final.nodes.map((n) => n.id).filter((id) => !named.has(id));
  const all = rest.length ? [...groups, rest] : groups;
  return all.map((g) => `{${g.join(', ')}}`).join(' | ');
}

/**
 * What broke, from the events around the violation (storage logs a write before the violation it causes; the
 * kernel checks an election before logging it); else the engine's own detail.
 */
function consequence(ctx: CaptionContext, v: Violation): string {
  const events = ctx.trace.events;
  const at = events.findIndex(
    (e) => e.type === 'violation' && e.atMs === v.atMs && e.invariant === v.invariant,
  );
  if (at >= 0) {
    const isElected = (e: SimEvent): e is Extract<SimEvent, { type: 'elected' }> => e.type === 'elected';
    const earlier = events.slice(0, at).filter(isElected);
    const won = events.slice(at + 1).find((e) => isElected(e) && e.atMs === v.atMs);
    const highest = Math.max(0, ...earlier.map((e) => e.term));
    switch (v.invariant) {
      case 'staleWriteAccepted': {
        const write = events[at - 1];
        if (write?.type === 'write' && write.stale)
          return `${write.node}'s write with token ${write.token} land after token ${highest} was issued`;
        break;
      }
      case 'oneLeaderPerTerm': {
        const other =
          won?.type === 'elected' && earlier.find((e) => e.term === won.term && e.node !== won.node);
        if (won?.type === 'elected' && other)
          return `${other.node} and ${won.node} both win ${ctx.epochWord} ${won.term}`;
        break;
      }
      case 'leaderHasMajority': {
        if (won?.type === 'elected')
          return `${won.node} win ${ctx.epochWord} ${won.term} with ${won.votes.length} of ${ctx.trace.final.nodes.length} votes`;
        break;
      }
    }
  }
  return `this happen: ${v.detail}`;
}
