// Human-readable text for engine events, used by the event log, the live region and tests.
import type { SimEvent } from '../engine';

export function formatSeconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

export function describeEvent(ev: SimEvent): string {
  switch (ev.type) {
    case 'fault': {
      const f = ev.fault;
      const who = ev.target ?? ('node' in f ? f.node : '');
      const what = describeFault(f, who);
      return ev.skipped ? `${what} (skipped: nothing to act on)` : what;
    }
    case 'campaign':
      return ev.preVote
        ? `${ev.node} asks for pre-votes for term ${ev.term}`
        : `${ev.node} campaigns for term ${ev.term}${ev.transfer ? ' (forced)' : ''}`;
    case 'elected':
      return `${ev.node} won term ${ev.term} with votes from ${ev.votes.join(', ')}`;
    case 'steppedDown':
      return `${ev.node} stopped leading term ${ev.term}: ${ev.reason}`;
    case 'ready':
      return `${ev.node} warmed up and serves term ${ev.term}`;
    case 'lost':
      return `${ev.node}, the leader of term ${ev.term}, is lost (${ev.cause}): a failover begins`;
    case 'survived':
      return `${ev.node} renewed again: it kept leading term ${ev.term}, no failover`;
    case 'resumed':
      return `${ev.node} resumed after ${formatSeconds(ev.pausedMs)} paused`;
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
