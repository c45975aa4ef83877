// The Bully algorithm (Garcia-Molina, "Elections in a Distributed Computing System", IEEE
// Transactions on Computers, 1982), as textbooks teach it: a node that stops hearing the
// coordinator sends ELECTION to every higher id; a live higher node answers OK and holds its own;
// one with no OK in time announces COORDINATOR to all; a higher node coming back takes over. No
// quorum: each side of a partition elects its own. A coordinator's epoch (its token) is one more than
// the highest it has seen, so two sides can issue the same one, and storage's `>=` accepts both.
import type { ElectionAlgorithm } from '../algorithm';
import { ALGORITHM_INFO } from './info';
import { bullyPage } from './pages/coordinator';
import { CT, coordinatorRules, coordinatorWatch } from './coordinator';
import { armAtLocal, armIn, cancelTimers, settingsFor, stateViews } from './kit';
import { cancelTimer, due } from '../core';
import type { Core, Message, NodeState, Outputs } from '../core';
import type { BullySettings } from '../experiment';
import { acquire, beginWarmUp, campaigned } from '../leadership';
import { send } from '../network';

const BT = { ...CT, election: CT.watch + 1 } as const;

const initBullyNode = () => ({
  /** Waiting for an OK after sending ELECTION to the higher ids. */
  electing: false,
  /** A higher node answered OK: waiting for its COORDINATOR. */
  gotOk: false,
  /** Who answered OK in the current election. */
  answers: [] as number[],
  lastHeardLocalMs: 0,
  lastHeardRealMs: -1,
  /** Own-clock deadline of the pending election step (OK or COORDINATOR wait), or -1. */
  electionDeadlineLocalMs: -1,
});

export type BullyNode = ReturnType<typeof initBullyNode>;

const { st, cfg } = stateViews<BullyNode, { settings: BullySettings }>();
const watch = coordinatorWatch(st, cfg);

// ---------------------------------------------------------------- watching the coordinator

function onWatch(c: Core, out: Outputs, n: NodeState): void {
  const p = st(n);
  if (n.role === 'leader' || p.electing || p.gotOk) return;
  if (!due(c, n, p.lastHeardLocalMs + cfg(c).timeoutMs)) return watch.arm(c, n);
  startElection(c, out, n);
}

// ---------------------------------------------------------------- the election

export function startElection(c: Core, out: Outputs, n: NodeState): void {
  if (!n.alive || n.paused) return;
  const p = st(n);
  n.role = 'candidate';
  n.knownLeader = -1;
  p.electing = true;
  p.gotOk = false;
  p.answers = [];
  campaigned(c, out, n, n.term + 1);
  const higher = c.nodes.filter((q) => q.idx > n.idx);
  for (const q of higher) send(c, n.idx, q.idx, 'election', n.term);
  if (higher.length === 0) return becomeCoordinator(c, out, n);
  p.electionDeadlineLocalMs = armIn(c, n, BT.election, cfg(c).answerTimeoutMs);
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
  // Its election found no higher node: no OK came, so none is on its list of answers.
  endElection(st(n));
  cancelTimers(n, BT.election, BT.watch);
  n.term = n.term + 1;
  for (const q of c.nodes) if (q !== n) send(c, n.idx, q.idx, 'coordinator', n.term);
  acquire(c, out, n, n.term, null);
  watch.heartbeat(c, n);
  beginWarmUp(c, n);
}

function endElection(p: BullyNode): void {
  p.electing = false;
  p.gotOk = false;
  p.answers = [];
  p.electionDeadlineLocalMs = -1;
}

function onMessage(c: Core, out: Outputs, n: NodeState, m: Message): void {
  const p = st(n);
  switch (m.type) {
    case 'election':
      // Only lower nodes send this one ELECTION. Answer OK, and take over: hold an election of
      // its own, unless it is holding one, or is the coordinator (then it tells the asker so).
      adoptEpoch(n, m.term);
      send(c, n.idx, m.from, 'ok', n.term);
      if (n.role === 'leader') send(c, n.idx, m.from, 'coordinator', n.term);
      else if (!p.electing && !p.gotOk) startElection(c, out, n);
      return;
    case 'ok':
      adoptEpoch(n, m.term);
      if (!p.electing) return;
      p.electing = false;
      p.gotOk = true;
      p.answers.push(m.from);
      p.electionDeadlineLocalMs = armIn(c, n, BT.election, cfg(c).timeoutMs);
      return;
    case 'coordinator':
    case 'alive':
      if (m.from > n.idx) {
        endElection(p);
        cancelTimer(n, BT.election);
        return watch.follow(c, out, n, m.from, m.term);
      }
      // A lower node leads. A coordinator reminds it who is higher; anyone else higher, alive
      // and reachable bullies its way in with an election of its own.
      if (n.role === 'leader') return void send(c, n.idx, m.from, 'coordinator', n.term);
      adoptEpoch(n, m.term);
      if (!p.electing && !p.gotOk) startElection(c, out, n);
      return;
    default:
      return;
  }
}

/** Remember the highest epoch seen, but a coordinator keeps its own: the token its writes carry. */
function adoptEpoch(n: NodeState, epoch: number): void {
  if (n.role !== 'leader' && epoch > n.term) n.term = epoch;
}

export const bully: ElectionAlgorithm = {
  ...ALGORITHM_INFO['bully'],
  page: bullyPage,
  timerSlots: 3,
  initNode: initBullyNode,
  initShared: (e) => ({ settings: settingsFor(e, 'bully') }),
  boot: (c, _out, n) => watch.boot(c, n, cfg(c).answerTimeoutMs),
  onTimer: (c, out, n, slot) => {
    if (slot === BT.heartbeat) return watch.heartbeat(c, n);
    if (slot === BT.watch) return onWatch(c, out, n);
    if (slot === BT.election) return onElectionStep(c, out, n);
  },
  onMessage,
  ...coordinatorRules(startElection),
  onKill: (_c, n) => endElection(st(n)),
  onClockRate: (c, n) => {
    const p = st(n);
    watch.rearm(c, n);
    if (p.electionDeadlineLocalMs >= 0) armAtLocal(c, n, BT.election, p.electionDeadlineLocalMs);
  },
  nodeView: (c, n) => {
    const p = st(n);
    const votes = p.answers.map((i) => c.nodes[i].id);
    return watch.view(c, n, p.electionDeadlineLocalMs, votes);
  },
};
