// What every algorithm module starts from: typed views of its plain-data state, its settings, the
// majority arithmetic and the renewal latency the chart draws. Algorithm modules take only types
// from experiment.ts: it imports the algorithm registry, which imports the modules.
import {
  ALG_SLOT,
  cancelTimer,
  localNow,
  realAtLocal,
  scheduleTimer,
  type Core,
  type NodeState,
} from '../core';
import type { Experiment, SettingsSection } from '../experiment';

/** Typed views of an algorithm's own state: per node (NodeState.p), shared (Core.a) and its settings. */
export function stateViews<P, A extends { settings: unknown }>() {
  const shared = (c: Core) => c.a as A;
  return { st: (n: NodeState) => n.p as P, shared, cfg: (c: Core): A['settings'] => shared(c).settings };
}

/** An algorithm's settings: parseExperiment fills in all it lists, so a missing one is a bug upstream. */
export function settingsFor<K extends SettingsSection>(e: Experiment, key: K): NonNullable<Experiment[K]> {
  const settings = e[key];
  if (!settings) throw new Error(`a ${e.algorithm ?? 'raft'} experiment without its ${key} settings`);
  return settings as NonNullable<Experiment[K]>;
}

/** A strict majority of n: 2 of 3, 3 of 5, 2 of 2. */
export function majorityOf(n: number): number {
  return Math.floor(n / 2) + 1;
}

export function isMajority(count: number, n: number): boolean {
  return count >= majorityOf(n);
}

/**
 * The leader's renewal latency at atMs: the largest of the last renewal's latency, how long one under
 * way has waited (pendingSinceMs, -1: none), and how overdue the next is (lastRenewAtMs + everyMs).
 */
export function renewalLatency(
  lastLatencyMs: number,
  lastRenewAtMs: number,
  everyMs: number,
  atMs: number,
  pendingSinceMs = -1,
): number {
  const pending = pendingSinceMs >= 0 ? atMs - pendingSinceMs : 0;
  const overdue = lastRenewAtMs >= 0 ? atMs - lastRenewAtMs - everyMs : 0;
  return Math.max(lastLatencyMs, pending, overdue > 0 ? overdue : 0);
}

/** An algorithm's node timers by name: slots from ALG_SLOT on, in the order named. */
export function timerSlots<N extends string>(...names: N[]): Record<N, number> {
  return Object.fromEntries(names.map((name, i) => [name, ALG_SLOT + i])) as Record<N, number>;
}

export function cancelTimers(n: NodeState, ...slots: number[]): void {
  for (const slot of slots) cancelTimer(n, slot);
}

/** Arm node n's timer `slot` for when its own clock reads localMs. */
export function armAtLocal(c: Core, n: NodeState, slot: number, localMs: number): void {
  scheduleTimer(c, n, slot, realAtLocal(c, n, localMs));
}

/** Arm node n's timer `slot` for `ms` from now by its own clock; the own-clock time it fires at. */
export function armIn(c: Core, n: NodeState, slot: number, ms: number): number {
  const atLocalMs = localNow(c, n) + ms;
  armAtLocal(c, n, slot, atLocalMs);
  return atLocalMs;
}
