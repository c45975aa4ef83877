// The election-algorithm seam: a table of plain functions over the engine state (no classes, no
// per-call allocation). An algorithm decides who leads and tells the kernel (leadership.ts); the rest
// is shared. Its plain data lives in NodeState.p and Core.a, so a checkpoint stays one clone.
import type { AlgorithmPage } from './algorithms/describe';
import type { Core, CoreShape, Message, NodeState, Outputs, ServiceSpec } from './core';
import type { SettingPath } from './experiment';
import type { InvariantName, MessageType, NodeView, QueueView } from './types';

/** The parts of a node's snapshot view that its algorithm fills in. */
export type AlgorithmNodeView = Pick<NodeView, 'deadlineAtMs' | 'lastRenewAtMs'> &
  Partial<Pick<NodeView, 'votedFor' | 'votes' | 'preVoting'>>;

/** Messages' colour families, in the order keys and filters list them. */
export const MESSAGE_FAMILIES = [
  'request',
  'grant',
  'heartbeat',
  'ack',
  'announce',
  'write',
  'reject',
] as const;

/** How the views draw and name a kind of message: `family` is its colour on the stage and legend. */
export interface MessageKindInfo {
  type: MessageType;
  label: string;
  family: (typeof MESSAGE_FAMILIES)[number];
  /** Counted as election traffic ("Bully is chatty" is this count per election). */
  election: boolean;
}

/** What views call a leadership's number (term, epoch), the leader (coordinator) and taking office. */
export interface AlgorithmWords {
  epoch: string;
  leader: string;
  election: string;
}

/** What the lab knows of an algorithm without its rules (algorithms/info.ts): the page's first load. */
export interface AlgorithmInfo {
  /** Its name in experiments and URLs. */
  readonly kind: string;
  readonly title: string;
  /** How one leader is chosen, in a line: the chain's first step's title, and the picker's. */
  readonly elects: string;
  readonly words: AlgorithmWords;
  readonly messages: readonly MessageKindInfo[];
  /** Whether only a majority can elect (the guarantee that makes split brain impossible). */
  readonly hasQuorum: boolean;
  /** Its own settings ("lease", "safety.preVote"...): parsing fills them in, and errs on any other's. */
  readonly settings: readonly SettingPath[];
  readonly services?: readonly ServiceSpec[];
  /** Invariants it does not promise (Bully and the Ring: one leader per epoch), reported as allowed. */
  readonly unsafeBy?: readonly InvariantName[];
  /** Samples count watch notifications and their reads, comparing ZooKeeper's watch settings (the chart). */
  readonly watchCounts?: boolean;
  /** An old primary's writes can be lost on a resync (Redis, Pacemaker): Summary.writesLost counts them. */
  readonly losesWrites?: boolean;
}

/** An algorithm's rules, with its info and its description: what a simulation runs. */
export interface ElectionAlgorithm
  extends AlgorithmInfo, Omit<CoreShape, 'services' | 'unsafeBy' | 'losesWrites' | 'words'> {
  /** What the page says of it (describe.ts), loaded with its rules: a run's page reads only its own. */
  page: AlgorithmPage;
  boot(c: Core, out: Outputs, n: NodeState): void;
  /** One of the algorithm's timers fired (slot >= ALG_SLOT; stale generations are already filtered). */
  onTimer(c: Core, out: Outputs, n: NodeState, slot: number): void;
  onMessage(c: Core, out: Outputs, n: NodeState, m: Message): void;
  /** Storage refused this node's write. Absent where the election never hears of it (see page `fenced`). */
  onFenced?(c: Core, out: Outputs, n: NodeState, newerToken: number): void;
  /** The leader accepted a write, for an algorithm whose servers hold the data (Redis streams it on). */
  onWrite?(c: Core, n: NodeState): void;
  /** The node was killed (the kernel has already released its leadership and cancelled its timers). */
  onKill(c: Core, n: NodeState): void;
  onRestart(c: Core, out: Outputs, n: NodeState): void;
  /** A graceful stop: give up what it holds as its source does, then bringDown. Absent: a stop is a kill. */
  onStop?(c: Core, out: Outputs, n: NodeState): void;
  /** Re-arm what it measures on its own clock, whose rate changed. */
  onClockRate(c: Core, n: NodeState): void;
  /** Reachability changed (a partition, heal, isolation, a service killed or restarted): once per fault. */
  onNetworkChange(c: Core, out: Outputs): void;
  /** Start a campaign now (the `campaign` command); `transfer` skips Raft's stickiness. */
  campaign(c: Core, out: Outputs, n: NodeState, transfer: boolean): void;
  /** A message reached one of its services (its endpoint: -2, -3...). */
  onServiceMessage?(c: Core, out: Outputs, endpoint: number, m: Message): void;
  onServiceTimer?(c: Core, out: Outputs, endpoint: number, slot: number): void;
  /** The leader's renewal latency at atMs, for the signals the pattern card asks to watch. */
  renewalLatencyMs(c: Core, leader: NodeState, atMs: number): number;
  nodeView(c: Core, n: NodeState): AlgorithmNodeView;
  /** The election queue on its coordination service, if it keeps one (the znode queue scene). */
  queueView?(c: Core): QueueView;
}
