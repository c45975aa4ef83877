// The failure explorer's public API: the page's panel (through worker.ts), the CLI, the benchmark and tests.
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
