// The engine's checks in the shapes the tests call them with: a write's checks as one object,
// and the monitor's fold over a whole event list.
import type { Experiment, Failover, InvariantName, SimEvent, Violation } from '../src/engine';
import { failoversOf, violationsOf } from '../src/engine/ledger';
import {
  createMonitor,
  monitorCounts,
  observe,
  type MonitorCounts,
  type MonitorState,
} from '../src/engine/monitor';
import { writeFindings } from '../src/engine/invariants';

export interface WriteCheck {
  node: string;
  token: number;
  accepted: boolean;
  fencing: boolean | undefined;
  maxTokenBefore: number;
  maxTokenAfter: number;
  highestTokenIssued: number;
}

export function checkWrite(x: WriteCheck) {
  return (
    writeFindings(
      x.node,
      x.token,
      x.accepted,
      x.fencing,
      x.maxTokenBefore,
      x.maxTokenAfter,
      x.highestTokenIssued,
    ) ?? []
  );
}

/** The invariants every algorithm is held to; the monitor checks these. */
export const GENERIC_INVARIANTS: readonly InvariantName[] = [
  'oneLeaderPerTerm',
  'maxTokenNeverDecreases',
  'fencedWriteAccepted',
  'staleWriteAccepted',
];

export interface MonitorSummary extends MonitorCounts {
  failovers: Failover[];
  violations: Violation[];
  /** Acknowledged writes lost on a resync, where the algorithm can lose them. */
  writesLost?: number;
}

/** What the monitor has seen, as of nowMs. */
export function monitorSummary(s: MonitorState, nowMs: number): MonitorSummary {
  return {
    ...monitorCounts(s, nowMs),
    failovers: failoversOf(s.books),
    violations: violationsOf(s.books),
    ...(s.books.writesLost !== null ? { writesLost: s.books.writesLost } : {}),
  };
}

/** Fold a whole event list (a trace's events, from the start of the run). */
export function monitorEvents(
  experiment: Pick<Experiment, 'safety' | 'algorithm'>,
  events: readonly SimEvent[],
  nowMs: number,
): MonitorSummary {
  const s = createMonitor(experiment);
  for (const ev of events) observe(s, ev);
  return monitorSummary(s, nowMs);
}
