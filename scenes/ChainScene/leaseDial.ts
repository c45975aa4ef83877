// The lease ring's numbers for one frame: how long since the leader last renewed, against its
// renew deadline and the lease duration. Pure, so the per-frame writer stays a thin DOM shim.
import type { NodeView, Snapshot } from '../../src/engine';
import { formatSeconds } from '../../src/store/format';
import { formatSpan } from '../../src/engine';
import type { LeaseTiming } from './chainModel';

export type DialState = 'none' | 'ok' | 'late' | 'expired';

export interface LeaseDial {
  state: DialState;
  elapsedMs: number;
  /** Elapsed time as a share of the lease duration, 0..1: the arc. */
  fraction: number;
  /** Where the renew deadline falls on the ring, 0..1: the tick. */
  deadlineFraction: number;
  /** "0.8 s" in the ring's centre. */
  short: string;
  /** "renewed 0.8 s ago, deadline 10 s" */
  text: string;
}

export function leaseDial(s: Snapshot, leader: NodeView | null, lease: LeaseTiming): LeaseDial {
  const durationMs = Math.max(1, lease.durationMs);
  const configured = lease.renewDeadlineMs / durationMs;
  if (!leader || leader.lastRenewAtMs < 0) {
    return {
      state: 'none',
      elapsedMs: 0,
      fraction: 0,
      deadlineFraction: configured,
      short: '–',
      text: 'no lease holder',
    };
  }
  const elapsedMs = Math.max(0, s.nowMs - leader.lastRenewAtMs);
  // The deadline is kept by the leader's own clock, so a skewed clock moves it in real time.
  // The engine clamps a deadline already passed to "now", so past it the clock rate says where it fell.
  const deadlineMs =
    leader.deadlineAtMs > s.nowMs
      ? leader.deadlineAtMs - leader.lastRenewAtMs
      : lease.renewDeadlineMs / leader.clockRate;
  const ago = `renewed ${formatSeconds(elapsedMs)} ago`;
  const paused = leader.paused ? ` (${leader.id} paused)` : '';
  let state: DialState = 'ok';
  let text = `${ago}, deadline ${formatSpan(Math.round(deadlineMs))}${paused}`;
  if (elapsedMs >= durationMs) {
    state = 'expired';
    text = `${ago}: the ${formatSpan(durationMs)} lease ran out, others may claim it${paused}`;
  } else if (elapsedMs >= deadlineMs) {
    state = 'late';
    text = `${ago}: past its ${formatSpan(Math.round(deadlineMs))} renew deadline${paused}`;
  }
  return {
    state,
    elapsedMs,
    fraction: Math.min(1, elapsedMs / durationMs),
    deadlineFraction: Math.min(1, Math.max(0, deadlineMs / durationMs)),
    short: formatSeconds(elapsedMs),
    text,
  };
}
