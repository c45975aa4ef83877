// The Bully algorithm (Garcia-Molina, "Elections in a Distributed Computing System", IEEE
// Transactions on Computers, 1982), as textbooks teach it: a node that stops hearing the
// coordinator sends ELECTION to every higher id; a live higher node answers OK and holds its own
// election; a node that gets no OK within a timeout announces COORDINATOR to all; a higher node
// that comes back takes over. There is no quorum: under a partition each side elects its own
// highest reachable node. A coordinator's epoch (its fencing token) is one more than the highest
// epoch it has seen, so two sides can issue the same epoch, and storage's `>=` accepts both.
import type { ElectionAlgorithm } from '../algorithm';
import { ALGORITHM_INFO } from './info';
import {
  ALG_SLOT,
  cancelTimer,
  due,
  localNow,
  realAtLocal,
  scheduleTimer,
  type Core,
  type Message,
  type NodeState,
  type Outputs,
} from '../core';
// Types only from experiment.ts: it imports the algorithm registry, which imports this file.
import type { BullySettings, Experiment } from '../experiment';
import { acquire, beginWarmUp, campaigned, release } from '../leadership';
import { send } from '../network';
import { nextInt } from '../rng';

/** Bully's timer slots. */
const BT = { heartbeat: ALG_SLOT, watch: ALG_SLOT + 1, election: ALG_SLOT + 2 } as const;

export interface BullyNode {
  /** Waiting for an OK after sending ELECTION to the higher ids. */
  electing: boolean;
  /** A higher node answered OK: waiting for its COORDINATOR. */
  gotOk: boolean;
  /** Who answered OK in the current election. */
  answers: number[];
  /** Own-clock time it last heard the coordinator (or, at boot, when it started waiting). */
  lastHeardLocalMs: number;
  lastHeardRealMs: number;
  /** Own-clock deadline of the pending election step (OK or COORDINATOR wait), or -1. */
  electionDeadlineLocalMs: number;
}

export interface BullyShared {
  settings: BullySettings;
}

const st = (n: NodeState) => n.p as BullyNode;
const cfg = (c: Core) => (c as Core<BullyShared>).a.settings;

function settingsOf(e: Experiment): BullySettings {
  // parseExperiment fills in every setting an algorithm lists; a missing one is a bug upstream.
  if (!e.bully) throw new Error('a Bully experiment without its settings');
  return e.bully;
}

// ---------------------------------------------------------------- watching the coordinator

function armWatch(c: Core, n: NodeState): void {
  scheduleTimer(c, n, BT.watch, realAtLocal(c, n, st(n).lastHeardLocalMs + cfg(c).timeoutMs));
}

function heard(c: Core, n: NodeState, from: number): void {
  const p = st(n);
  n.knownLeader = from;
  p.lastHeardLocalMs = localNow(c, n);
  p.lastHeardRealMs = c.nowMs;
  armWatch(c, n);
}

function onWatch(c: Core, out: Outputs, n: NodeState): void {
  const p = st(n);
  if (n.role === 'leader' || p.electing || p.gotOk) return;
  if (!due(c, n, p.lastHeardLocalMs + cfg(c).timeoutMs)) return armWatch(c, n);
  startElection(c, out, n);
}

// ---------------------------------------------------------------- the election

function armElectionStep(c: Core, n: NodeState, waitMs: number): void {
  const p = st(n);
  p.electionDeadlineLocalMs = localNow(c, n) + waitMs;
  scheduleTimer(c, n, BT.election, realAtLocal(c, n, p.electionDeadlineLocalMs));
}

export function startElection(c: Core, out: Outputs, n: NodeState): void {
  if (!n.alive || n.paused) return;
  const p = st(n);
  n.role = 'candidate';
  n.knownLeader = -1;
  p.electing = true;
  p.gotOk = false;
  p.answers = [];
  campaigned(c, out, n, n.term + 1, false, false);
  let higher = 0;
  for (const q of c.nodes) {
    if (q.idx > n.idx) {
      send(c, n.idx, q.idx, 'election', n.term);
      higher++;
    }
  }
  if (higher === 0) return becomeCoordinator(c, out, n);
  armElectionStep(c, n, cfg(c).answerTimeoutMs);
}

function onElectionStep(c: Core, out: Outputs, n: NodeState): void {
  const p = st(n);
  if (p.electing) {
    // No higher node answered in time: this node is the highest alive it can reach.
    becomeCoordinator(c, out, n);
  } else if (p.gotOk) {
    // A higher node answered but never announced itself: it died meanwhile. Start over.
    startElection(c, out, n);
  }
}

function becomeCoordinator(c: Core, out: Outputs, n: NodeState): void {
  const p = st(n);
  p.electing = false;
  p.gotOk = false;
  p.electionDeadlineLocalMs = -1;
  cancelTimer(n, BT.election);
  cancelTimer(n, BT.watch);
  n.term = n.term + 1;
  for (const q of c.nodes) if (q !== n) send(c, n.idx, q.idx, 'coordinator', n.term);
  acquire(c, out, n, n.term, null);
  onHeartbeat(c, n);
  beginWarmUp(c, n);
}

function follow(c: Core, out: Outputs, n: NodeState, coordinator: number, epoch: number): void {
  const p = st(n);
  if (n.role === 'leader') release(c, out, n, 'deposed by a higher node');
  if (epoch > n.term) n.term = epoch;
  n.role = 'follower';
  p.electing = false;
  p.gotOk = false;
  p.answers = [];
  p.electionDeadlineLocalMs = -1;
  cancelTimer(n, BT.election);
  heard(c, n, coordinator);
}

function onMessage(c: Core, out: Outputs, n: NodeState, m: Message): void {
  const p = st(n);
  switch (m.type) {
    case 'election': {
      // Only lower nodes send this one ELECTION. Answer OK, and take over: hold an election of
      // its own, unless it is holding one, or is the coordinator (then it tells the asker so).
      adoptEpoch(n, m.term);
      send(c, n.idx, m.from, 'ok', n.term);
      if (n.role === 'leader') send(c, n.idx, m.from, 'coordinator', n.term);
      else if (!p.electing && !p.gotOk) startElection(c, out, n);
      return;
    }
    case 'ok':
      adoptEpoch(n, m.term);
      if (!p.electing) return;
      p.electing = false;
      p.gotOk = true;
      p.answers.push(m.from);
      armElectionStep(c, n, cfg(c).timeoutMs);
      return;
    case 'coordinator':
    case 'alive':
      if (m.from > n.idx) return follow(c, out, n, m.from, m.term);
      // A lower node leads. A coordinator reminds it who is higher; anyone else higher, alive
      // and reachable bullies its way in with an election of its own.
      if (n.role === 'leader') {
        send(c, n.idx, m.from, 'coordinator', n.term);
        return;
      }
      adoptEpoch(n, m.term);
      if (!p.electing && !p.gotOk) startElection(c, out, n);
      return;
    default:
      return;
  }
}

/**
 * Remember the highest epoch seen. A coordinator keeps its own: its epoch is the token its
 * writes carry for as long as it leads.
 */
function adoptEpoch(n: NodeState, epoch: number): void {
  if (n.role !== 'leader' && epoch > n.term) n.term = epoch;
}

// ---------------------------------------------------------------- the coordinator

function onHeartbeat(c: Core, n: NodeState): void {
  if (n.role !== 'leader') return;
  for (const q of c.nodes) if (q !== n) send(c, n.idx, q.idx, 'alive', n.term);
  scheduleTimer(c, n, BT.heartbeat, realAtLocal(c, n, localNow(c, n) + cfg(c).heartbeatMs));
}

function onTimer(c: Core, out: Outputs, n: NodeState, slot: number): void {
  if (slot === BT.heartbeat) return onHeartbeat(c, n);
  if (slot === BT.watch) return onWatch(c, out, n);
  if (slot === BT.election) return onElectionStep(c, out, n);
}

export const bully: ElectionAlgorithm = {
  ...ALGORITHM_INFO['bully'],
  timerSlots: 3,
  initNode: (): BullyNode => ({
    electing: false,
    gotOk: false,
    answers: [],
    lastHeardLocalMs: 0,
    lastHeardRealMs: -1,
    electionDeadlineLocalMs: -1,
  }),
  initShared: (e): BullyShared => ({ settings: settingsOf(e) }),
  boot: (c, _out, n) => {
    // Nobody has heard of a coordinator: the first watches fire soon, a little apart.
    const p = st(n);
    p.lastHeardLocalMs = 150 + nextInt(c.rngTimer, 0, cfg(c).answerTimeoutMs) - cfg(c).timeoutMs;
    armWatch(c, n);
  },
  onTimer,
  onMessage,
  onFenced: (c, out, n) => {
    // Storage has seen a newer token: this coordinator was replaced behind its back. It stops
    // and calls an election. Epochs come only from the nodes' own messages, so on its side of a
    // partition it may well win again with the very epoch the other side already uses.
    if (n.role !== 'leader') return;
    release(c, out, n, 'fenced by storage');
    startElection(c, out, n);
  },
  onKill: (_c, n) => {
    const p = st(n);
    p.electing = false;
    p.gotOk = false;
    p.answers = [];
    p.electionDeadlineLocalMs = -1;
  },
  onRestart: (c, out, n) => startElection(c, out, n),
  onClockRate: (c, n) => {
    const p = st(n);
    if (n.role === 'leader') {
      scheduleTimer(c, n, BT.heartbeat, realAtLocal(c, n, localNow(c, n) + cfg(c).heartbeatMs));
    } else {
      armWatch(c, n);
    }
    if (p.electionDeadlineLocalMs >= 0) {
      scheduleTimer(c, n, BT.election, realAtLocal(c, n, p.electionDeadlineLocalMs));
    }
  },
  onNetworkChange: () => {},
  // A coordinator already leads; anyone else calls an election now.
  campaign: (c, out, n) => {
    if (n.role !== 'leader') startElection(c, out, n);
  },
  renewalLatencyMs: () => 0,
  nodeView: (c, n) => {
    const p = st(n);
    let deadlineAtMs = -1;
    if (n.alive && n.role !== 'leader') {
      deadlineAtMs =
        p.electionDeadlineLocalMs >= 0
          ? realAtLocal(c, n, p.electionDeadlineLocalMs)
          : realAtLocal(c, n, p.lastHeardLocalMs + cfg(c).timeoutMs);
    }
    return {
      votedFor: null,
      deadlineAtMs,
      lastRenewAtMs: p.lastHeardRealMs,
      votes: p.answers.map((i) => c.nodes[i].id),
      preVoting: false,
    };
  },
};
