// Step conditions, evaluated over the simulation the same way headless and in the page.
import type { SimEvent, Snapshot } from '../engine';
import type { Condition, MetricName } from './types';

/** The metrics that are not counters, and how a snapshot gives each. */
const METRICS: Partial<Record<MetricName, (s: Snapshot) => number>> = {
  leaderCount: (s) => s.leaderCount,
  leaderCountObserved: (s) => s.leaderCountObserved,
  maxTokenSeen: (s) => s.storage.maxTokenSeen,
  violations: (s) => s.violations.length,
  failovers: (s) => s.failovers.length,
};

export function metricValue(s: Snapshot, name: MetricName): number {
  return METRICS[name]?.(s) ?? s.counters[name as keyof Snapshot['counters']];
}

type Op = Extract<Condition, { op: unknown }>['op'];
const COMPARE: Record<Op, (a: number, b: number) => boolean> = {
  '>=': (a, b) => a >= b,
  '<=': (a, b) => a <= b,
  '==': (a, b) => a === b,
  '>': (a, b) => a > b,
  '<': (a, b) => a < b,
};

export function eventMatches(ev: SimEvent, type: SimEvent['type'], where?: Record<string, unknown>): boolean {
  if (ev.type !== type) return false;
  if (!where) return true;
  const rec = ev as unknown as Record<string, unknown>;
  return Object.entries(where).every(([k, v]) => {
    if (k === 'do' && ev.type === 'fault') return ev.fault.do === v;
    return rec[k] === v;
  });
}

/** What a condition reads of a run: the headless Simulation and the page's backend both have it. */
export interface ConditionRun {
  readonly nowMs: number;
  readonly eventsTotal: number;
  eventsSince(from: number): readonly SimEvent[];
  snapshot(): Snapshot;
}

/**
 * A step's condition, checked again and again as the run advances (every 50 simulated ms for an event): each
 * event is read once, a snapshot taken only for a metric. The headless runner and guided mode both use it.
 */
export function watchCondition(
  c: Condition,
  stepStartMs: number,
  fromEvent: number,
): (run: ConditionRun) => boolean {
  let cursor = fromEvent;
  /** The index of the first matching event; -1: none yet. */
  let seenAt = -1;
  return (run) => {
    if ('atMs' in c) return run.nowMs >= c.atMs;
    if ('afterMs' in c) return run.nowMs >= stepStartMs + c.afterMs;
    if ('event' in c) {
      const total = run.eventsTotal;
      // Moved back (a seek in the page): forget what is no longer in the run.
      if (total < cursor) {
        cursor = Math.max(fromEvent, total);
        if (seenAt >= total) seenAt = -1;
      }
      if (seenAt < 0 && total > cursor) {
        const fresh = run.eventsSince(cursor);
        const i = fresh.findIndex((ev) => eventMatches(ev, c.event, c.where));
        if (i >= 0) seenAt = total - fresh.length + i;
        cursor = total;
      }
      return seenAt >= 0;
    }
    return COMPARE[c.op](metricValue(run.snapshot(), c.metric), c.value);
  };
}

/** How often an event or metric condition is checked, in simulated ms from the step's start. */
export const CHECK_EVERY_MS = 50;

/**
 * The next simulated time worth checking, on a grid from the step's start rather than 50 ms after wherever
 * the run is: a page whose frames end off the grid still pauses where the headless runner does.
 */
export function nextCheckMs(c: Condition, nowMs: number, stepStartMs: number): number {
  if ('atMs' in c) return Math.max(nowMs, c.atMs);
  if ('afterMs' in c) return Math.max(nowMs, stepStartMs + c.afterMs);
  const since = Math.max(0, nowMs - stepStartMs);
  return stepStartMs + CHECK_EVERY_MS * (Math.floor(since / CHECK_EVERY_MS) + 1);
}
