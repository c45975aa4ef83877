// The engine's public API. Everything the page, the CLI, the scenarios and the tests use.
export { Simulation, runExperiment, type Checkpoint } from './sim';
export {
  experimentSchemas,
  ALGORITHM_SETTINGS,
  SETTINGS_SECTIONS,
  RAFT_PRESETS,
  WARM_UP_PRESETS,
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
} from './experiment';
export {
  ALGORITHMS,
  ALGORITHM_KINDS,
  algorithmFor,
  algorithmLoaded,
  loadAlgorithm,
  type AlgorithmKind,
} from './algorithms';
export { watchCountsOf } from './algorithms/info';
export { majorityOf } from './algorithms/kit';
export { leaderOf } from './leadership';
export { CLIENT_NOW_MS, clientsNow, snapshotOf } from './readModel';
export {
  formatSeconds,
  formatSpan,
  missingSwitch,
  pageOf,
  sentenceOf,
  renewLimitOf,
  SPLIT_WITHOUT_QUORUM,
  type SafetySwitch,
  type RenewLimit,
} from './algorithms/describe';
export type { AlgorithmWords, ElectionAlgorithm, MessageKindInfo } from './algorithm';
export { MESSAGE_FAMILIES } from './algorithm';
export { boundList, MAX_RECENT_WRITES } from './core';
export { INVARIANT_TITLES } from './invariants';
export type * from './types';
