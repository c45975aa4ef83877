// The failure explorer's public API: what the page's panel, the command line, the benchmark and
// the tests use. The page runs it through the worker (worker.ts) and the protocol's messages.
export {
  explore,
  exploration,
  checkExploration,
  describeSchedule,
  DEFAULT_BUDGET_MS,
  DEFAULT_BUDGET_SCHEDULES,
  type ExploreControl,
  type ExploreHooks,
  type ExploreOptions,
  type ExploreResult,
  type ExploreStep,
  type Finding,
} from './explore';
export {
  createExplorerHost,
  type FromExplorer,
  type HostDeps,
  type StartMessage,
  type ToExplorer,
} from './protocol';
export { EXPLORER_FAULT_KINDS, type ExplorerFault, type ExplorerFaultKind, type Schedule } from './schedule';
export { DEFAULT_CLOCK_RATES, DEFAULT_HORIZON_MS, DEFAULT_MAX_FAULTS } from './space';
