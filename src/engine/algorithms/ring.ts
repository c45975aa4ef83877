// The Ring algorithm (Chang and Roberts, CACM 1979; LeLann 1977), as the lesson describes it: on a
// logical ring n1 -> ... -> nN -> n1, a node that stops hearing the coordinator starts an ELECTION
// that travels the ring collecting ids; each hop is acknowledged, and a silent successor skipped.
// Back at a node already on its list, the highest id is announced COORDINATOR around the ring. A
// node that dies holding the message (each holds one for hopMs, to handle it) stalls the election
// until the starter's round times out and it starts again round the dead node. As in Chang-Roberts,
// a lower starter's election dies where a higher one's passed. No quorum: each side elects its own.
import type { ElectionAlgorithm } from '../algorithm';
import { ALGORITHM_INFO } from './info';
import { ringPage } from './pages/coordinator';
import { CT, coordinatorRules, coordinatorWatch } from './coordinator';
import { armAtLocal, armIn, settingsFor, stateViews } from './kit';
import { bodyOf, cancelTimer, due, localNow } from '../core';
import type { Core, Message, NodeState, Outputs } from '../core';
import type { RingSettings } from '../experiment';
import { acquire, beginWarmUp, campaigned } from '../leadership';
import { send } from '../network';

const RT = { ...CT, ack: CT.watch + 1, round: CT.watch + 2, hold: CT.watch + 3 } as const;

type RingMessage = 'ringElection' | 'ringCoordinator';

declare module '../core' {
  interface MessageBodies {
    /** The ids an election has collected; a coordinator's: who closed the ring, and the winner. */
    ringElection: number[];
    ringCoordinator: number[];
  }
}

interface Pass {
  type: RingMessage;
  ids: number[];
  term: number;
}

/** A message this node holds, to pass on once it has handled it (own clock). */
interface Held extends Pass {
  readyAtLocalMs: number;
}

/** Handed to the successor and not yet acknowledged. */
interface Hop extends Pass {
  to: number;
  msgId: number;
  ackDeadlineLocalMs: number;
}

const initRingNode = () => ({
  lastHeardLocalMs: 0,
  lastHeardRealMs: -1,
  /** The starter of the election this node takes part in, or -1, and since when (own clock). */
  participantOf: -1,
  participantSinceLocalMs: 0,
  /** The election this node started must come round by then (own clock), or -1. */
  roundDeadlineLocalMs: -1,
  /** Messages to pass on, in order; one at a time is out with the successor (hop). */
  held: [] as Held[],
  hop: null as Hop | null,
  /** The ids on the last election message it passed on. */
  seen: [] as number[],
});

export type RingNode = ReturnType<typeof initRingNode>;

const { st, cfg } = stateViews<RingNode, { settings: RingSettings }>();
const watch = coordinatorWatch(st, cfg);

// ---------------------------------------------------------------- passing messages round the ring

/** Take a message to pass on: it leaves once handled (hopMs), after those held before it. */
function hold(c: Core, out: Outputs, n: NodeState, type: RingMessage, ids: number[], term: number): void {
  st(n).held.push({ type, ids, term, readyAtLocalMs: localNow(c, n) + cfg(c).hopMs });
  pump(c, out, n);
}

function pump(c: Core, out: Outputs, n: NodeState): void {
  const p = st(n);
  if (p.hop || p.held.length === 0) return;
  const next = p.held[0];
  if (!due(c, n, next.readyAtLocalMs)) return armAtLocal(c, n, RT.hold, next.readyAtLocalMs);
  p.held.shift();
  forward(c, out, n, next, n.idx);
}

/** The next node after `after` in ring order, or -1 when the ring has gone round to n itself. */
function successorAfter(c: Core, n: NodeState, after: number): number {
  const next = (after + 1) % c.nodes.length;
  return next === n.idx ? -1 : next;
}

function forward(c: Core, out: Outputs, n: NodeState, { type, ids, term }: Pass, after: number): void {
  const to = successorAfter(c, n, after);
  const p = st(n);
  if (to < 0) {
    // Nobody else answers: on its side of the ring this node is alone.
    p.hop = null;
    cancelTimer(n, RT.ack);
    if (type === 'ringElection') closeElection(c, out, n, [n.idx], term);
    return pump(c, out, n);
  }
  const m = send(c, n.idx, to, type, term);
  m.body = ids;
  p.hop = { type, ids, term, to, msgId: m.id, ackDeadlineLocalMs: armIn(c, n, RT.ack, cfg(c).ackTimeoutMs) };
}

function onAckTimeout(c: Core, out: Outputs, n: NodeState): void {
  const hop = st(n).hop;
  if (!hop) return;
  // The successor did not acknowledge in time: skip it and try the one after.
  forward(c, out, n, hop, hop.to);
}

// ---------------------------------------------------------------- the election

export function startElection(c: Core, out: Outputs, n: NodeState): void {
  if (!n.alive || n.paused) return;
  const p = st(n);
  if (n.role !== 'leader') n.role = 'candidate';
  n.knownLeader = n.role === 'leader' ? n.idx : -1;
  p.participantOf = n.idx;
  p.participantSinceLocalMs = localNow(c, n);
  p.roundDeadlineLocalMs = armIn(c, n, RT.round, cfg(c).roundTimeoutMs);
  campaigned(c, out, n, n.term + 1);
  p.seen = [n.idx];
  hold(c, out, n, 'ringElection', [n.idx], n.term);
}

function onElection(c: Core, out: Outputs, n: NodeState, m: Message): void {
  const p = st(n);
  const ids = bodyOf(m, 'ringElection') ?? [];
  const starter = ids[0];
  const term = Math.max(m.term, n.term);
  if (n.role !== 'leader') n.term = term;
  // Back at a node already on the list: the list holds every node the message reached.
  if (ids.includes(n.idx)) return closeElection(c, out, n, ids, term);
  // Chang-Roberts: a lower starter's election ends where a higher one's already passed.
  if (p.participantOf >= 0 && starter < p.participantOf) return;
  if (p.participantOf !== starter) p.participantSinceLocalMs = localNow(c, n);
  p.participantOf = starter;
  if (n.role === 'follower') n.role = 'candidate';
  const more = [...ids, n.idx];
  p.seen = more;
  hold(c, out, n, 'ringElection', more, term);
}

function closeElection(c: Core, out: Outputs, n: NodeState, ids: number[], term: number): void {
  const winner = Math.max(...ids);
  const epoch = term + 1;
  applyCoordinator(c, out, n, winner, epoch);
  hold(c, out, n, 'ringCoordinator', [n.idx, winner], epoch);
}

function onCoordinator(c: Core, out: Outputs, n: NodeState, m: Message): void {
  const [closer, winner] = bodyOf(m, 'ringCoordinator') ?? [];
  if (closer === n.idx) return; // round the ring and home: the announcement is done
  applyCoordinator(c, out, n, winner, m.term);
  hold(c, out, n, 'ringCoordinator', [closer, winner], m.term);
}

function applyCoordinator(c: Core, out: Outputs, n: NodeState, winner: number, epoch: number): void {
  const p = st(n);
  p.participantOf = -1;
  p.roundDeadlineLocalMs = -1;
  cancelTimer(n, RT.round);
  if (winner === n.idx) {
    if (n.role !== 'leader') becomeCoordinator(c, out, n, epoch);
    return;
  }
  watch.follow(c, out, n, winner, epoch);
}

function becomeCoordinator(c: Core, out: Outputs, n: NodeState, epoch: number): void {
  n.term = Math.max(n.term, epoch);
  cancelTimer(n, RT.watch);
  acquire(c, out, n, n.term, null);
  watch.heartbeat(c, n);
  beginWarmUp(c, n);
}

function onRound(c: Core, out: Outputs, n: NodeState): void {
  if (st(n).roundDeadlineLocalMs < 0) return;
  // The election never came round: a node holding it died. Start again, round the dead one.
  startElection(c, out, n);
}

// ---------------------------------------------------------------- watching the coordinator

function onWatch(c: Core, out: Outputs, n: NodeState): void {
  const p = st(n);
  if (n.role === 'leader') return;
  if (!due(c, n, p.lastHeardLocalMs + cfg(c).timeoutMs)) return watch.arm(c, n);
  // An election under way gets a round to finish before this node starts its own.
  const busyUntil = p.participantSinceLocalMs + cfg(c).roundTimeoutMs;
  if (p.participantOf >= 0 && !due(c, n, busyUntil)) return armAtLocal(c, n, RT.watch, busyUntil);
  startElection(c, out, n);
}

function onAlive(c: Core, out: Outputs, n: NodeState, m: Message): void {
  if (n.role === 'leader') {
    // Two coordinators (a partition healed): a fresh election settles on the highest id.
    if (st(n).participantOf < 0) startElection(c, out, n);
    return;
  }
  if (m.from !== n.knownLeader && m.term < n.term) return; // a deposed coordinator's heartbeat
  if (m.term > n.term) n.term = m.term;
  watch.heard(c, n, m.from);
}

// ---------------------------------------------------------------- dispatch

function onMessage(c: Core, out: Outputs, n: NodeState, m: Message): void {
  switch (m.type) {
    case 'ringElection':
    case 'ringCoordinator':
      send(c, n.idx, m.from, 'ringAck', n.term).round = m.id;
      return m.type === 'ringElection' ? onElection(c, out, n, m) : onCoordinator(c, out, n, m);
    case 'ringAck':
      // The successor has the message: the next held one may go.
      if (st(n).hop?.msgId !== m.round) return;
      st(n).hop = null;
      cancelTimer(n, RT.ack);
      return pump(c, out, n);
    case 'alive':
      return onAlive(c, out, n, m);
    default:
      return;
  }
}

export const ring: ElectionAlgorithm = {
  ...ALGORITHM_INFO['ring'],
  page: ringPage,
  timerSlots: 5,
  initNode: initRingNode,
  initShared: (e) => ({ settings: settingsFor(e, 'ring') }),
  boot: (c, _out, n) => watch.boot(c, n, cfg(c).ackTimeoutMs),
  onTimer: (c, out, n, slot) => {
    if (slot === RT.heartbeat) return watch.heartbeat(c, n);
    if (slot === RT.watch) return onWatch(c, out, n);
    if (slot === RT.ack) return onAckTimeout(c, out, n);
    if (slot === RT.round) return onRound(c, out, n);
    if (slot === RT.hold) return pump(c, out, n);
  },
  onMessage,
  ...coordinatorRules(startElection),
  onKill: (_c, n) => {
    const p = st(n);
    p.participantOf = -1;
    p.roundDeadlineLocalMs = -1;
    // What it held dies with it: that is how an election stalls.
    p.held = [];
    p.hop = null;
    p.seen = [];
  },
  onClockRate: (c, n) => {
    const p = st(n);
    watch.rearm(c, n);
    if (p.hop) armAtLocal(c, n, RT.ack, p.hop.ackDeadlineLocalMs);
    if (p.held.length) armAtLocal(c, n, RT.hold, p.held[0].readyAtLocalMs);
    if (p.roundDeadlineLocalMs >= 0) armAtLocal(c, n, RT.round, p.roundDeadlineLocalMs);
  },
  nodeView: (c, n) => {
    const p = st(n);
    const votes = p.participantOf >= 0 ? p.seen.map((i) => c.nodes[i].id) : [];
    return watch.view(c, n, p.roundDeadlineLocalMs, votes);
  },
};
