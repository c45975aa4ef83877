// A scenario (a game day) is data: an experiment plus narration steps. Each step says what to
// watch and when it ends; conditions are data too, so the same file runs headless and in the page.
import type { ExperimentInput, SimEvent } from '../engine';

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

export type MetricName =
  | 'leaderCount'
  | 'fencingRejections'
  | 'staleWritesAccepted'
  | 'divergentWrites'
  | 'clientRedirects'
  | 'leaderTransitions'
  | 'maxTokenSeen'
  | 'violations'
  | 'failovers';

export interface Step {
  caption: string;
  watch?: { view: View; element?: string };
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
  /** What it teaches, in a sentence or two (docs, summary). */
  teaches: string;
  /** Another game day that tells the same story another way: the panel links to it. */
  compare?: { scenario: string; why: string };
  experiment: ExperimentInput;
  steps: Step[];
}
