// What Bully and the Ring share, as the textbooks give both: a coordinator's heartbeat, the others
// watching for its silence, and a fenced coordinator stepping down to call an election. Neither has
// a quorum: both elect the highest id they can reach.
import type { AlgorithmNodeView, ElectionAlgorithm } from '../algorithm';
import { ALG_SLOT, localNow, realAtLocal } from '../core';
import type { Core, NodeState, Outputs } from '../core';
import { armAtLocal, armIn } from './kit';
import { release } from '../leadership';
import { send } from '../network';
import { nextInt } from '../rng';

export const CT = { heartbeat: ALG_SLOT, watch: ALG_SLOT + 1 } as const;

export interface Watcher {
  /** Own-clock time it last heard the coordinator (or, at boot, when it started waiting). */
  lastHeardLocalMs: number;
  lastHeardRealMs: number;
}

interface Timing {
  /** Silence for this long (own clock) and a node calls an election. */
  timeoutMs: number;
  heartbeatMs: number;
}

/** The coordinator watch, bound to an algorithm's own state and settings. */
export function coordinatorWatch(st: (n: NodeState) => Watcher, cfg: (c: Core) => Timing) {
  const arm = (c: Core, n: NodeState): void =>
    armAtLocal(c, n, CT.watch, st(n).lastHeardLocalMs + cfg(c).timeoutMs);
  const nextHeartbeat = (c: Core, n: NodeState): void => void armIn(c, n, CT.heartbeat, cfg(c).heartbeatMs);
  /** The coordinator `from` was heard: the watch starts over. */
  const heard = (c: Core, n: NodeState, from: number): void => {
    const p = st(n);
    n.knownLeader = from;
    p.lastHeardLocalMs = localNow(c, n);
    p.lastHeardRealMs = c.nowMs;
    arm(c, n);
  };
  return {
    arm,
    /** The clock rate changed: the coordinator's next heartbeat, or the others' watch, anew. */
    rearm: (c: Core, n: NodeState): void => (n.role === 'leader' ? nextHeartbeat(c, n) : arm(c, n)),
    heard,
    /** Follow the coordinator `from`, of `epoch`: a coordinator it deposes steps down. */
    follow(c: Core, out: Outputs, n: NodeState, from: number, epoch: number): void {
      if (n.role === 'leader') release(c, out, n, 'deposed by a higher node');
      n.role = 'follower';
      if (epoch > n.term) n.term = epoch;
      heard(c, n, from);
    },
    /** The coordinator's heartbeat: `alive` to every other node, then again a heartbeat later. */
    heartbeat(c: Core, n: NodeState): void {
      if (n.role !== 'leader') return;
      for (const q of c.nodes) if (q !== n) send(c, n.idx, q.idx, 'alive', n.term);
      nextHeartbeat(c, n);
    },
    /** Nobody has heard of a coordinator: the first watches fire soon, up to spreadMs apart. */
    boot(c: Core, n: NodeState, spreadMs: number): void {
      st(n).lastHeardLocalMs = 150 + nextInt(c.rngTimer, 0, spreadMs) - cfg(c).timeoutMs;
      arm(c, n);
    },
    /** A follower's deadline: its pending election step (-1: none) or the watch; `votes`: ids gathered. */
    view(c: Core, n: NodeState, stepLocalMs: number, votes: string[]): AlgorithmNodeView {
      const p = st(n);
      const atLocalMs = stepLocalMs >= 0 ? stepLocalMs : p.lastHeardLocalMs + cfg(c).timeoutMs;
      const deadlineAtMs = n.alive && n.role !== 'leader' ? realAtLocal(c, n, atLocalMs) : -1;
      return { deadlineAtMs, lastRenewAtMs: p.lastHeardRealMs, votes };
    },
  };
}

type Start = (c: Core, out: Outputs, n: NodeState) => void;

/**
 * The rules Bully and the Ring share around their own `startElection`: a restarted node, or one asked
 * to campaign, calls an election; a fenced coordinator steps down and calls one (epochs come only from
 * the nodes' messages, so on its side of a partition it may win again with the other side's epoch);
 * the network changing tells them nothing (no quorum to lose); there is no lease to renew.
 */
export function coordinatorRules(startElection: Start) {
  return {
    onRestart: startElection,
    campaign: (c: Core, out: Outputs, n: NodeState) => {
      if (n.role !== 'leader') startElection(c, out, n);
    },
    onFenced: ((c, out, n) => {
      if (n.role !== 'leader') return;
      release(c, out, n, 'fenced by storage');
      startElection(c, out, n);
    }) satisfies ElectionAlgorithm['onFenced'],
    onNetworkChange: () => {},
    renewalLatencyMs: () => 0,
  };
}
