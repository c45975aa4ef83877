// The words between the page and a real run. A lab node nK of a real run is a host: candidate cK
// (the node on the stage) beside etcd member mK (the service box mK). The page's commands name
// either, in the engine's verbs; the bridge's name the host and the part (src/real/commands.ts).
// The run's events come back in the engine's shapes where the engine has the event; those only a
// real cluster has (raft roles, sessions, processes) are folded into the state, not the log.
import type { Command, Fault, SimEvent, StepDownReason } from '../../engine';
import { NOT_FOR_REAL, type Part, type RealCommand, type RealFault } from '../../real/model/commands';
import type { RealEvent } from '../../real/model/events';

/** The engine's verbs a real run performs; the rest are hidden (NOT_FOR_REAL says why). */
export const LIVE_COMMANDS = [
  'kill',
  'restart',
  'pause',
  'resume',
  'isolate',
  'partition',
  'heal',
  'safety',
] as const satisfies readonly Command['do'][];

export type LiveCommandResult = { ok: true; command: RealCommand } | { ok: false; error: string };

/** "m2" is etcd member 2 (the host n2's member part); "n2", "leader" are candidates. */
function targetOf(node: string): { node: string; part: Part } {
  const m = /^m([1-9])$/.exec(node);
  return m ? { node: `n${m[1]}`, part: 'member' } : { node, part: 'candidate' };
}

/** The page's command (engine verbs, node or service ids) as the bridge's. */
export function toRealCommand(cmd: Command): LiveCommandResult {
  switch (cmd.do) {
    case 'kill':
    case 'restart':
    case 'resume':
      return { ok: true, command: { do: cmd.do, ...targetOf(cmd.node) } };
    case 'pause': {
      const t = targetOf(cmd.node);
      return { ok: true, command: { do: 'pause', ...t, ...(cmd.forMs ? { forMs: cmd.forMs } : {}) } };
    }
    case 'isolate': {
      // A candidate is cut from its own member (all it talks to besides the storage); a member
      // from the other members: its host is off the network.
      const t = targetOf(cmd.node);
      return {
        ok: true,
        command: { do: 'isolate', node: t.node, part: t.part === 'member' ? 'host' : 'candidate' },
      };
    }
    case 'partition': {
      const groups = cmd.groups.map((g) => [
        ...new Set(g.map((id) => (id === 'storage' ? id : targetOf(id).node))),
      ]);
      return { ok: true, command: { do: 'partition', groups } };
    }
    case 'heal':
      return { ok: true, command: { do: 'heal' } };
    case 'safety': {
      const other = (['quorum', 'preVote', 'followersReject', 'checkQuorum'] as const).find(
        (k) => cmd[k] !== undefined,
      );
      if (other) return { ok: false, error: `not possible for real: ${NOT_FOR_REAL[other] ?? other}` };
      if (cmd.fencing === undefined) return { ok: false, error: 'a safety command must set fencing' };
      return { ok: true, command: { do: 'safety', fencing: cmd.fencing } };
    }
    default:
      return {
        ok: false,
        error: `not possible for real: ${NOT_FOR_REAL[cmd.do] ?? `${cmd.do} has no real counterpart`}`,
      };
  }
}

/** The engine's command a real fault was, with the node or service it hit: for the log, the chart's marks and replay. */
export function faultOf(f: RealFault, target: string | undefined): Fault {
  const atMs = f.atMs;
  const id = (part: Part | undefined) => {
    const host = target ?? ('node' in f ? f.node : '');
    return part === 'member' ? `m${host.slice(1)}` : host;
  };
  switch (f.do) {
    case 'kill':
    case 'restart':
    case 'resume':
      return { atMs, do: f.do, node: id(f.part) };
    case 'pause':
      return { atMs, do: 'pause', node: id(f.part), ...(f.forMs ? { forMs: f.forMs } : {}) };
    case 'isolate':
      return { atMs, do: 'isolate', node: id(f.part === 'host' ? 'member' : 'candidate') };
    case 'partition':
      return { atMs, do: 'partition', groups: f.groups };
    case 'heal':
      return { atMs, do: 'heal' };
    case 'safety':
      return { atMs, do: 'safety', fencing: f.fencing };
  }
}

const REASONS: Record<string, StepDownReason> = {
  // A resignation is the engine's graceful stop.
  resigned: 'stopped',
};

/**
 * A real event as the engine's, for the log, the chain and the chart; null for what only a real
 * cluster has. `pausedAtMs` says when a candidate was stopped, for its resume line.
 */
export function toSimEvent(e: RealEvent, pausedAtMs: (node: string) => number): SimEvent | null {
  switch (e.type) {
    case 'fault': {
      const fault = faultOf(e.fault, e.target);
      const target = e.target && 'node' in fault ? fault.node : undefined;
      return {
        atMs: e.atMs,
        type: 'fault',
        fault,
        ...(target ? { target } : {}),
        ...(e.skipped ? { skipped: true } : {}),
        live: true,
      };
    }
    case 'steppedDown':
      return { ...e, reason: REASONS[e.reason] ?? (e.reason as StepDownReason) };
    case 'campaign':
    case 'elected':
    case 'ready':
    case 'write':
    case 'violation':
      return e;
    case 'process': {
      if (e.part !== 'candidate' || e.state !== 'continued') return null;
      const since = pausedAtMs(e.node);
      return { atMs: e.atMs, type: 'resumed', node: e.node, pausedMs: since < 0 ? 0 : e.atMs - since };
    }
    default:
      return null;
  }
}
