// Human-readable text for engine events, used by the event log, the live region and tests, in the
// words of the run's algorithm: Raft's term and leader, Bully's epoch and coordinator, and the
// names its services go by ("etcd m1" rather than "m1").
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
  const { epoch, leader } = speech.words;
  switch (ev.type) {
    case 'fault': {
      const f = ev.fault;
      const who = nameOf(ev.target ?? ('node' in f ? f.node : ''), speech);
      // A command aimed at "the leader" when there was none acted on nobody: say so.
      if (ev.skipped && !ev.target && who === 'leader')
        return `${f.do} the leader: skipped, there was no leader`;
      const what = describeFault(f, who);
      return ev.skipped ? `${what} (skipped: nothing to act on)` : what;
    }
    case 'campaign':
      return ev.preVote
        ? `${ev.node} asks for pre-votes for ${epoch} ${ev.term}`
        : `${ev.node} campaigns for ${epoch} ${ev.term}${ev.transfer ? ' (forced)' : ''}`;
    case 'elected':
      // An algorithm that votes names the votes it won with; one that does not (Bully, Ring, a
      // Lease) simply took office.
      return ev.votes.length > 0
        ? `${ev.node} won ${epoch} ${ev.term} with votes from ${ev.votes.join(', ')}`
        : `${ev.node} became ${leader} (${epoch} ${ev.term})`;
    case 'steppedDown':
      return `${ev.node} stopped leading ${epoch} ${ev.term}: ${ev.reason}`;
    case 'ready':
      return `${ev.node} warmed up and serves ${epoch} ${ev.term}`;
    case 'lost':
      return `${ev.node}, the ${leader} of ${epoch} ${ev.term}, is lost (${ev.cause}): a failover begins`;
    case 'survived':
      return `${ev.node} renewed again: it kept leading ${epoch} ${ev.term}, no failover`;
    case 'resumed':
      return `${ev.node} resumed after ${formatSeconds(ev.pausedMs)} paused`;
    case 'resynced':
      return ev.lost > 0
        ? `${ev.node} resynchronised from ${ev.from}: ${ev.lost} write${ev.lost === 1 ? '' : 's'} it had accepted ${ev.lost === 1 ? 'is' : 'are'} lost (${ev.from} never had ${ev.lost === 1 ? 'it' : 'them'})`
        : `${ev.node} resynchronised from ${ev.from}: nothing lost`;
    case 'write':
      return ev.result === 'accepted'
        ? `storage accepted ${ev.node}'s ${ev.kind} write with token ${ev.token}${ev.stale ? ' (STALE: a newer leader exists)' : ''}`
        : `storage rejected ${ev.node}'s write with token ${ev.token}: max seen is ${ev.maxTokenSeen} (zombie write fenced)`;
    case 'clientWrite':
      return `client ${ev.client} → ${ev.to}: ${ev.result}`;
    case 'violation':
      return `invariant broken: ${ev.detail}`;
  }
}

function describeFault(f: Extract<SimEvent, { type: 'fault' }>['fault'], who: string): string {
  switch (f.do) {
    case 'kill':
      return `killed ${who}`;
    case 'stop':
      return `stopped ${who} (graceful shutdown)`;
    case 'restart':
      return `restarted ${who}`;
    case 'pause':
      return f.forMs ? `paused ${who} for ${formatSeconds(f.forMs)} (GC)` : `paused ${who} (GC)`;
    case 'resume':
      return `resumed ${who}`;
    case 'partition':
      return `partitioned the network: ${f.groups.map((g) => g.join(', ')).join(' | ')}`;
    case 'heal':
      return 'healed the network';
    case 'isolate':
      return `isolated ${who}`;
    case 'clockRate':
      return `${who}'s clock now runs at ${f.rate}x`;
    case 'campaign':
      return `forced ${who} to campaign${f.transfer ? ' (leadership transfer)' : ''}`;
    case 'write':
      return `${who} sends a write now`;
    case 'safety': {
      const parts = Object.entries(f)
        .filter(([k]) => k !== 'do' && k !== 'atMs')
        .map(([k, v]) => `${k} ${v ? 'on' : 'off'}`);
      return `safety: ${parts.join(', ')}`;
    }
  }
}
