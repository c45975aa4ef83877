// The engine's public API. Everything the page, the CLI, the scenarios and the tests use.
export { Simulation, runExperiment, type Checkpoint } from './sim';
export {
  experimentSchema,
  faultSchema,
  ALGORITHM_SETTINGS,
  SETTINGS_SECTIONS,
  RAFT_PRESETS,
  parseExperiment,
  normalizeExperiment,
  parseCommand,
  commandProblems,
  validateLeaseTiming,
  formatErrors,
  type Experiment,
  type ExperimentInput,
  type Fault,
  type SettingsSection,
  type Command,
  type FieldError,
  type ParseResult,
} from './experiment';
export {
  ALGORITHMS,
  ALGORITHM_KINDS,
  DEFAULT_ALGORITHM,
  algorithmFor,
  algorithmLoaded,
  loadAlgorithm,
  type AlgorithmKind,
} from './algorithms';
export { watchCountsOf } from './algorithms/info';
export { majorityOf } from './algorithms/kit';
export { leaderAmong, leaderOf } from './leadership';
export { sampleOf, snapshotOf, summaryOf } from './readModel';
export {
  ALGORITHM_PAGES,
  formatSpan,
  pageOf,
  pauseLengths,
  pickerLine,
  renewLimitOf,
  type AlgorithmPage,
  type ElectStep,
  type Expiry,
  type HoldStep,
  type PauseLengths,
  type RenewLimit,
} from './algorithms/describe';
export type { AlgorithmInfo, AlgorithmWords, ElectionAlgorithm, MessageKindInfo } from './algorithm';
export type { ServiceSpec } from './core';
export { boundList, MAX_RECENT_WRITES } from './core';
export { INVARIANT_TITLES, ALLOWED_WHEN_OFF, isStaleWrite } from './invariants';
export type * from './types';
