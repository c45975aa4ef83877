// One line per event for the headless CLI: time since the start, then what happened in the lesson's words.
import type { RealEvent } from '../model/events';

function describeEvent(e: RealEvent): string {
  switch (e.type) {
    case 'fault': {
      const { atMs: _at, do: verb, ...rest } = e.fault;
      const args = Object.entries(rest)
        .map(([k, v]) => `${k}=${Array.isArray(v) ? JSON.stringify(v) : v}`)
        .join(' ');
      const on = e.target && 'node' in e.fault && e.fault.node !== e.target ? ` -> ${e.target}` : '';
      return `command ${verb}${args ? ' ' + args : ''}${on}${e.skipped ? ' (nothing to do)' : ''}`;
    }
    case 'campaign':
      return `${e.node} campaigns: its key has create revision ${e.term}`;
    case 'elected':
      return `${e.node} elected: leads with token ${e.term}`;
    case 'ready':
      return `${e.node} ready after warm-up (token ${e.term})`;
    case 'steppedDown':
      return `${e.node} stepped down (token ${e.term}): ${e.reason}`;
    case 'write':
      return `storage ${e.result} ${e.node}'s write with token ${e.token} (max seen ${e.maxTokenSeen})${e.stale ? ' STALE' : ''}`;
    case 'violation':
      return `VIOLATION ${e.invariant}: ${e.detail}`;
    case 'session':
      if (e.state === 'renewed') return `${e.node}'s lease survived a ${e.gapMs} ms gap in keep-alives`;
      return `${e.node} session ${e.state}: lease ${e.leaseId}, TTL ${e.ttlMs / 1000} s`;
    case 'member':
      return `etcd ${e.member} became ${e.role} at term ${e.term}`;
    case 'memberLeader':
      return e.leader === null
        ? `etcd ${e.member} lost its raft leader (term ${e.term})`
        : `etcd ${e.member} follows raft leader ${e.leader} (term ${e.term})`;
    case 'process': {
      const name = `${e.part === 'member' ? 'm' : 'c'}${e.node.slice(1)}`;
      const how = e.state === 'exited' ? ` (${e.signal ?? `code ${e.code}`})` : '';
      return `process ${name} ${e.state}${how}`;
    }
  }
}

export function formatEvent(e: RealEvent): string {
  return `${(e.atMs / 1000).toFixed(3).padStart(8)} s  ${describeEvent(e)}`;
}
