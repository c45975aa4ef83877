// Human-readable text for engine events (the event log, the live region, tests) in the run's algorithm's
// words: Raft's term and leader, Bully's epoch and coordinator, its services' names ("etcd m1", not "m1").
import { algorithmFor, formatSeconds, type ElectionAlgorithm, type SimEvent } from '../engine';

export { formatSeconds };

/** What an event's text needs of its algorithm. */
export type Speech = Pick<ElectionAlgorithm, 'words' | 'services'>;

const RAFT: Speech = algorithmFor('raft');

/** A node's id, or a service's label. */
function nameOf(id: string, speech: Speech): string {
  return speech.services?.find((s) => s.id === id)?.label ?? id;
}

/** The announcement for the live region when a leader takes office or steps down. */
export function announceEvent(ev: SimEvent, speech: Speech = RAFT): string | null {
  const { epoch, leader } = speech.words;
  if (ev.type === 'elected') return `${ev.node} is the ${leader} of ${epoch} ${ev.term}`;
  if (ev.type === 'steppedDown') return `${ev.node} is no longer the ${leader} (${ev.reason})`;
  return null;
}

export function describeEvent(ev: SimEvent, speech: Speech = RAFT): string {
  return (EVENT_TEXT[ev.type] as (ev: SimEvent, speech: Speech) => string)(ev, speech);
}

const EVENT_TEXT: {
  [K in SimEvent['type']]: (ev: Extract<SimEvent, { type: K }>, speech: Speech) => string;
} = {
  fault: (ev, speech) => {
    const f = ev.fault;
    const who = nameOf(ev.target ?? ('node' in f ? f.node : ''), speech);
    // A command aimed at "the leader" when there was none acted on nobody: say so.
    if (ev.skipped && !ev.target && who === 'leader')
      return `${f.do} the leader: skipped, there was no leader`;
    const what = (FAULT_TEXT[f.do] as (f: Fault, who: string) => string)(f, who);
    return ev.skipped ? `${what} (skipped: nothing to act on)` : what;
  },
  campaign: (ev, { words: { epoch } }) =>
    ev.preVote
      ? `${ev.node} asks for pre-votes for ${epoch} ${ev.term}`
      : `${ev.node} campaigns for ${epoch} ${ev.term}${ev.transfer ? ' (forced)' : ''}`,
  // A voting algorithm names the votes it won with; Bully, Ring or a Lease simply took office.
  elected: (ev, { words: { epoch, leader } }) =>
    ev.votes.length > 0
      ? `${ev.node} won ${epoch} ${ev.term} with votes from ${ev.votes.join(', ')}`
      : `${ev.node} became ${leader} (${epoch} ${ev.term})`,
  steppedDown: (ev, { words: { epoch } }) => `${ev.node} stopped leading ${epoch} ${ev.term}: ${ev.reason}`,
  ready: (ev, { words: { epoch } }) => `${ev.node} warmed up and serves ${epoch} ${ev.term}`,
  lost: (ev, { words: { epoch, leader } }) =>
    `${ev.node}, the ${leader} of ${epoch} ${ev.term}, is lost (${ev.cause}): a failover begins`,
  survived: (ev, { words: { epoch } }) =>
    `${ev.node} renewed again: it kept leading ${epoch} ${ev.term}, no failover`,
  resumed: (ev) => `${ev.node} resumed after ${formatSeconds(ev.pausedMs)} paused`,
  resynced: (ev) =>
    ev.lost > 0
      ? `${ev.node} resynchronised from ${ev.from}: ${ev.lost} write${ev.lost === 1 ? '' : 's'} it had accepted ${ev.lost === 1 ? 'is' : 'are'} lost (${ev.from} never had ${ev.lost === 1 ? 'it' : 'them'})`
      : `${ev.node} resynchronised from ${ev.from}: nothing lost`,
  write: (ev) =>
    ev.result === 'accepted'
      ? `storage accepted ${ev.node}'s ${ev.kind} write with token ${ev.token}${ev.stale ? ' (STALE: a newer leader exists)' : ''}`
      : `storage rejected ${ev.node}'s write with token ${ev.token}: max seen is ${ev.maxTokenSeen} (zombie write fenced)`,
  clientWrite: (ev) => `client ${ev.client} → ${ev.to}: ${ev.result}`,
  violation: (ev) => `invariant broken: ${ev.detail}`,
};

type Fault = Extract<SimEvent, { type: 'fault' }>['fault'];

const FAULT_TEXT: { [K in Fault['do']]: (f: Extract<Fault, { do: K }>, who: string) => string } = {
  kill: (_, who) => `killed ${who}`,
  stop: (_, who) => `stopped ${who} (graceful shutdown)`,
  restart: (_, who) => `restarted ${who}`,
  pause: (f, who) => (f.forMs ? `paused ${who} for ${formatSeconds(f.forMs)} (GC)` : `paused ${who} (GC)`),
  resume: (_, who) => `resumed ${who}`,
  partition: (f) => `partitioned the network: ${f.groups.map((g) => g.join(', ')).join(' | ')}`,
  heal: () => 'healed the network',
  isolate: (_, who) => `isolated ${who}`,
  clockRate: (f, who) => `${who}'s clock now runs at ${f.rate}x`,
  campaign: (f, who) => `forced ${who} to campaign${f.transfer ? ' (leadership transfer)' : ''}`,
  write: (_, who) => `${who} sends a write now`,
  safety: (f) => {
    const parts = Object.entries(f)
      .filter(([k]) => k !== 'do' && k !== 'atMs')
      .map(([k, v]) => `${k} ${v ? 'on' : 'off'}`);
    return `safety: ${parts.join(', ')}`;
  },
};
