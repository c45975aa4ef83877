// A scenario (a game day) is data: an experiment plus narration steps, each saying what to watch and when it
// ends, so one file runs headless and in the page. Types: the schema's (schema.ts documents each field).
import type * as zm from 'zod/mini';
import type { ExperimentInput, Role } from '../engine';
import type { claimsSchema, scenarioSchema } from './schema';

/** The views a step can point the reader at (shared/scenes.ts says which scene shows each). */
export const VIEWS = [
  'cluster',
  'chain',
  'metric',
  'storage',
  'log',
  'failover',
  'queue',
  'leaderless',
  'banner',
] as const;
export type View = (typeof VIEWS)[number];

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

export type Claims = zm.output<typeof claimsSchema>;
export type Scenario = Omit<zm.output<typeof scenarioSchema>, 'experiment'> & { experiment: ExperimentInput };
export type Step = Scenario['steps'][number];
export type Condition = NonNullable<Step['until']>;
export type SpacetimeFilter = NonNullable<Step['spacetime']>;
