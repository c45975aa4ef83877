// Plain-data shapes shared by the engine, the page and the CLI (events, samples, summary, trace,
// snapshot): no classes, Infinity or functions, so all of it survives JSON, structured clone and a URL.
import type { Experiment, Fault } from './experiment';
import type { Message } from './core';
import type { FencedRegister, INVARIANT_TITLES } from './invariants';
import type { Counters } from './ledger';
import type { AlgorithmMessageType } from './algorithms/info';

export type Role = 'follower' | 'candidate' | 'leader';
export type NodeId = string;

export type SimEvent =
  | { atMs: number; type: 'fault'; fault: Fault; target?: NodeId; skipped?: boolean; live?: boolean }
  | { atMs: number; type: 'campaign'; node: NodeId; term: number; preVote: boolean; transfer: boolean }
  | {
      atMs: number;
      type: 'elected';
      node: NodeId;
      term: number;
      votes: NodeId[];
      /** The holder if not the node's name (a Kubernetes process, `n2_3`): a transition changes it. */
      holder?: string;
    }
  | { atMs: number; type: 'steppedDown'; node: NodeId; term: number; reason: StepDownReason }
  /** A write reached storage (its fields are StorageWrite's). */
  | ({ type: 'write' } & StorageWrite)
  | {
      atMs: number;
      type: 'clientWrite';
      client: number;
      to: NodeId;
      result: 'redirected' | 'accepted' | 'divergent' | 'unavailable';
      /** On a write served: how long its client had waited since it first sent it (retries included). */
      waitedMs?: number;
    }
  | { atMs: number; type: 'ready'; node: NodeId; term: number }
  /** The leader of the moment was lost (killed, paused, cut off from a majority, stepped down): a failover begins. */
  | { atMs: number; type: 'lost'; node: NodeId; term: number; cause: string }
  /** A leader that was lost renewed again: the fault cost it nothing, and no failover is recorded. */
  | { atMs: number; type: 'survived'; node: NodeId; term: number }
  /** A timed pause ended: the node runs again, and what reached it meanwhile runs now. */
  | { atMs: number; type: 'resumed'; node: NodeId; pausedMs: number }
  /** A full resync (Redis Sentinel's old primary): `lost` accepted writes the primary never had. */
  | { atMs: number; type: 'resynced'; node: NodeId; from: NodeId; lost: number }
  | { atMs: number; type: 'violation'; invariant: InvariantName; detail: string };

export type StepDownReason =
  | 'renew deadline passed'
  | 'saw higher term'
  | 'fenced by storage'
  | 'deposed by a higher node'
  | 'lost contact with a quorum'
  | 'lease expired'
  | 'session expired'
  | 'reconfigured as a replica'
  | 'powered off by STONITH'
  | 'stopped'
  | 'killed';

/** The invariants, by the names INVARIANT_TITLES gives titles to. */
export type InvariantName = keyof typeof INVARIANT_TITLES;

export interface Violation {
  atMs: number;
  invariant: InvariantName;
  detail: string;
  /** What allowed this hazard: a switch that was off, or the algorithm itself; null is a bug in safe mode. */
  allowedBy: 'quorum' | 'fencing' | 'algorithm' | null;
}

/** The run's counters as of atMs (its peak leader_count aside), and what the chart draws besides. */
export interface Sample extends Omit<Counters, 'maxLeaderCount'> {
  atMs: number;
  /** leader_count believed: alive nodes that think they lead, paused ones included (the hazard). */
  leaderCount: number;
  /** leader_count observed: what scraping every node's is-leader gauge sees (a paused node fails it). */
  leaderCountObserved: number;
  maxTerm: number;
  maxTokenSeen: number;
  /** The acting leader's renewal latency: age of its oldest unacknowledged round, else the last round's. */
  renewalLatencyMs: number;
  /** Watch notifications so far and the reads they triggered: only under AlgorithmInfo.watchCounts. */
  watchNotifications?: number;
  watchReads?: number;
  /** ClientView's totals so far, from the first client write on (the chart's client panel). */
  clientErrors?: number;
  clientServed?: number;
  clientWaitedMs?: number;
}

export interface Failover {
  lostAtMs: number;
  detectedAtMs: number;
  electedAtMs: number;
  /** -1 until the new leader has warmed up. */
  readyAtMs: number;
  node: NodeId;
  term: number;
  from: NodeId | null;
  cause: string;
}

/** The run's counters (ledger.ts COUNTER_NAMES) and its ledgers. */
export interface Summary extends Counters {
  failovers: Failover[];
  violations: Violation[];
  eventsDropped: number;
  /** Leaderships taken (the first election included). */
  elections: number;
  /** Watch notifications a coordination store sent (etcd, ZooKeeper), and the reads they triggered. */
  watchNotifications: number;
  watchReads: number;
  /** Messages of the algorithm's election kinds sent (votes, pre-votes, ELECTION, OK, COORDINATOR...). */
  electionMessages: number;
  /** Accepted writes lost in resynchronisations (the `resynced` events): only where servers hold the data. */
  writesLost?: number;
}

export interface NodeView {
  id: NodeId;
  witness: boolean;
  role: Role;
  term: number;
  votedFor: NodeId | null;
  alive: boolean;
  paused: boolean;
  /** When the current pause began (-1 when not paused). */
  pausedAtMs: number;
  clockRate: number;
  localNowMs: number;
  knownLeader: NodeId | null;
  ready: boolean;
  /** Leader: when, by real time, its renew deadline falls. Others: when their next timeout fires. -1 if none. */
  deadlineAtMs: number;
  /** Leader: when it last renewed (real time). Others: when they last heard from a leader. -1 if never. */
  lastRenewAtMs: number;
  /** Candidate: votes so far in this term (or pre-votes). */
  votes: NodeId[];
  preVoting: boolean;
}

/** Every kind of message: the algorithms' own (their tables in algorithms/info.ts) and the storage's. */
export type MessageType = AlgorithmMessageType | 'write' | 'writeRejected';

/** A Kubernetes Lease object (coordination.k8s.io/v1), as the API server stores it. */
export interface LeaseRecord {
  holder: string;
  leaseDurationMs: number;
  /** The times are written on the writer's own clock; other replicas never compare them. */
  acquireTimeMs: number;
  renewTimeMs: number;
  leaderTransitions: number;
  resourceVersion: number;
}

/** What the views know of any message: who sent what to whom, when, and its verdict fields. */
interface MessageFacts {
  id: number;
  type: MessageType;
  from: NodeId;
  to: NodeId;
  term: number;
  sentAtMs: number;
  granted?: boolean;
  token?: number;
  status?: 'ok' | 'conflict' | 'notFound';
}

/** A message in flight, as the snapshot shows it. */
export interface MessageView extends MessageFacts {
  deliverAtMs: number;
  droppedAtMs?: number;
}

/** A message in the engine's log, as it was sent: endpoints by number (nodes 0, 1...; storage -1, services -2...). */
export type LoggedMessage = Readonly<
  Omit<Message, 'deliverAtMs' | 'round' | 'client' | 'maxTokenSeen' | 'body'>
>;

/** The bounded log of delivered and dropped messages, in that order: `list[i]` has absolute index `base + i`. */
export interface MessageLog {
  readonly list: readonly LoggedMessage[];
  readonly base: number;
  /** Changes whenever the run was restored from a checkpoint (indices may then name other messages). */
  readonly generation: number;
}

/** A message that was delivered or dropped (the space-time diagram's arrows). */
export interface MessageRecord extends MessageFacts {
  /** When it was delivered (late, if its receiver was paused) or dropped. */
  doneAtMs: number;
  dropped: boolean;
  /** A write's kind (a claim, a leader's own, a client's). */
  kind?: StorageWrite['kind'];
}

export interface StorageWrite {
  atMs: number;
  node: NodeId;
  token: number;
  result: 'accepted' | 'rejected';
  maxTokenSeen: number;
  stale: boolean;
  kind: 'claim' | 'leader' | 'client' | 'manual';
}

/** One candidate in an election queue: ZooKeeper's EPHEMERAL_SEQUENTIAL znode, or etcd's key. */
export interface QueueEntryView {
  /** Its place number: the znode's sequence number, or the key's create revision. */
  number: number;
  /** Its name as the service shows it: `/election/n_0000000003`, `election/7`. */
  name: string;
  owner: NodeId;
  /** The fencing token it would lead with: the znode's czxid, or the create revision. */
  token: number;
  /** When the service expires its session (or lease) if it hears nothing more (real ms). */
  expiresAtMs: number;
  /** Who has a watch set on it (told when it is deleted). */
  watchers: NodeId[];
}

/** The election queue a coordination-service recipe keeps (zookeeper, etcd-election). */
export interface QueueView {
  /** Where the queue lives: `/election`, `election/`. */
  path: string;
  /** What an entry's number is called: "sequence number", "create revision". */
  numberName: string;
  /** Who a waiting candidate watches: its predecessor (the recipe) or the leader (the herd effect). */
  watch: 'predecessor' | 'leader';
  /** Lowest number first: the first one leads. */
  entries: QueueEntryView[];
  watchNotifications: number;
  /** The reads those notifications triggered, where the recipe counts them (null: not counted). */
  watchReads: number | null;
}

/** The client view: writes failed, and writes served with the time each waited since its first try. */
export interface ClientView {
  errors: number;
  served: number;
  waitedMs: number;
  /** When the last write failed and the last was served (-1: none yet). */
  lastErrorAtMs: number;
  lastServedAtMs: number;
}

export interface Snapshot {
  nowMs: number;
  seed: number;
  nodes: NodeView[];
  messages: MessageView[];
  storage: FencedRegister & { recent: StorageWrite[] };
  partition: NodeId[][] | null;
  safety: Experiment['safety'];
  clients: {
    count: number;
    byTarget: Record<NodeId, number>;
    unresolved: number;
    /** What the clients saw so far: only in a run with clients. */
    view?: ClientView;
  };
  leaderCount: number;
  leaderCountObserved: number;
  /** The leader the lab follows, by leaderAmong (leadership.ts); null when no node believes it leads. */
  leader: { id: NodeId; epoch: number } | null;
  /** When the first leader was elected (-1: not yet): start-up, before it, is no outage. */
  startedAtMs: number;
  /** Services besides storage the algorithm runs against (an API server, store members). */
  services: { id: string; kind: string; label: string; alive: boolean }[];
  highestTokenIssued: number;
  counters: Counters;
  violations: Violation[];
  failovers: Failover[];
  eventCount: number;
  /** Summary.writesLost so far, from the `resynced` events: only under an algorithm that can lose them. */
  writesLost?: number;
  /** The election queue, for the algorithms that keep one on a coordination service. */
  queue?: QueueView;
}

export interface Trace {
  experiment: Experiment;
  events: SimEvent[];
  samples: Sample[];
  summary: Summary;
  final: {
    nodes: Pick<NodeView, 'id' | 'role' | 'term' | 'votedFor' | 'alive' | 'paused' | 'clockRate'>[];
    storage: FencedRegister;
  };
}
