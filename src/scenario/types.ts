// A scenario (a game day) is data: an experiment plus narration steps. Each step says what to
// watch and when it ends; conditions are data too, so the same file runs headless and in the page.
import type { ClientsNow, ExperimentInput, MessageKindInfo, Role, SimEvent } from '../engine';
import type { GameDayGroup } from './groups';

export type View =
  'cluster' | 'chain' | 'metric' | 'storage' | 'log' | 'failover' | 'queue' | 'leaderless' | 'banner';

export type Condition =
  /** The simulated clock reached atMs. */
  | { atMs: number }
  /** afterMs of simulated time passed since the step began. */
  | { afterMs: number }
  /** An event of this type (with these field values) happened since the step began. */
  | { event: SimEvent['type']; where?: Record<string, string | number | boolean> }
  /** A snapshot metric compares to a value. */
  | { metric: MetricName; op: '>=' | '<=' | '==' | '>' | '<'; value: number };

/** What a condition or a claim can read of a snapshot (conditions.ts metricValue reads them). */
export const METRIC_NAMES = [
  'leaderCount',
  'leaderCountObserved',
  'fencingRejections',
  'staleWritesAccepted',
  'divergentWrites',
  'clientRedirects',
  'leaderTransitions',
  'maxLeaderCount',
  'maxTokenSeen',
  'violations',
  'failovers',
] as const;

export type MetricName = (typeof METRIC_NAMES)[number];

/** A node as a caption names it (claims.ts nodeState). */
export type NodeState = 'dead' | Role | `paused ${Role}`;

/**
 * The facts a caption asserts about the moment the step pauses, each checked against the
 * snapshot there (claims.ts). Only what the words say: a caption that names no leader claims none.
 */
export interface Claims {
  /** The leader the lab follows (the banner's and the chain's), or null for none. */
  leader?: string | null;
  /** Every alive node that believes it leads, paused ones included. */
  believedLeaders?: string[];
  /** Nodes by state: "dead", "paused leader", "candidate", ... */
  nodes?: Record<string, NodeState>;
  /** leaderCount (believed), leaderCountObserved, counters, maxTokenSeen, violations, failovers. */
  metrics?: Partial<Record<MetricName, number>>;
  /**
   * What the clients see in the last second (the chart's client view): writes served, only
   * failures ("unavailable"), or nothing sent. A run without clients has none to claim.
   */
  clients?: ClientsNow;
}

/**
 * What the space-time diagram shows while a step is on: the message families and the lanes the
 * step is about (each list, when given, is all it shows). The reader's own ticks win until the
 * next step.
 */
export interface SpacetimeFilter {
  families?: MessageKindInfo['family'][];
  lanes?: string[];
}

export interface Step {
  /**
   * Words true at the step's pause; `{name}` placeholders are filled from the run (claims.ts), and
   * `{setting:path}` ones from the experiment as the scenario loads (settings.ts).
   */
  caption: string;
  /**
   * The numbers the caption quotes from outside the run (a paper's tokens, a year, a library's
   * constant), each with where it comes from. Any other digit in a caption is a placeholder's.
   */
  quoted?: Record<string, string>;
  /** What the caption asserts, checked against the snapshot at the pause. */
  claims?: Claims;
  watch?: { view: View; element?: string };
  /** The space-time diagram, filtered to what this step is about. */
  spacetime?: SpacetimeFilter;
  /** When the step ends. Without it the step ends at once (a caption to read). */
  until?: Condition;
  /** Give up waiting after this long (simulated), so a step can never hang. Default 120 s. */
  timeoutMs?: number;
}

export interface Scenario {
  id: string;
  title: string;
  /** One line for the picker. */
  description: string;
  /** The picker's group it is listed under (groups.ts). */
  group: GameDayGroup;
  /** What it teaches, in a sentence or two (docs, summary). */
  teaches: string;
  /** Another game day that tells the same story another way: the panel links to it. */
  compare?: { scenario: string; why: string };
  experiment: ExperimentInput;
  steps: Step[];
}
