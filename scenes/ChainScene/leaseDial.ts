// The lease ring's figures for a frame (since the last renewal, against deadline and lease): pure, so
// the per-frame writer stays a thin DOM shim.
import { formatSpan, type NodeView, type Snapshot } from '../../src/engine';
import { formatSeconds } from '../../src/store/format';
import type { LeaseTiming } from './chainModel';

export type DialState = 'none' | 'ok' | 'late' | 'expired';

export interface LeaseDial {
  state: DialState;
  /** Elapsed time as a share of the lease duration, 0..1: the arc. */
  fraction: number;
  /** Where the renew deadline falls on the ring, 0..1: the tick. */
  deadlineFraction: number;
  /** "0.8 s" in the ring's centre. */
  short: string;
  /** "renewed 3.1 s ago; round fails at 12.4 s: began 2.4 s after, + RenewDeadline 10 s" (client-go's
   * deadline bounds a renewal round, not the time since the last renewal). */
  text: string;
  /** `text`'s start, "renewed 3.1 s ago; " (empty without a holder): the compact strip's ring shows it. */
  lead: string;
}

export function leaseDial(s: Snapshot, leader: NodeView | null, lease: LeaseTiming): LeaseDial {
  const durationMs = Math.max(1, lease.durationMs);
  const configured = lease.renewDeadlineMs / durationMs;
  if (!leader || leader.lastRenewAtMs < 0) {
    return {
      state: 'none',
      fraction: 0,
      deadlineFraction: configured,
      short: '–',
      text: 'no lease holder',
      lead: '',
    };
  }
  const elapsedMs = Math.max(0, s.nowMs - leader.lastRenewAtMs);
  // client-go's renew loop (leaderelection.go `renew`): a round starts RetryPeriod after the last success
  // (lastRenewAtMs: when that round began) and fails RenewDeadline after its start, by the leader's clock.
  const roundOn = leader.deadlineAtMs > s.nowMs;
  const deadlineRealMs = lease.renewDeadlineMs / leader.clockRate;
  // Between rounds (or once the engine clamped a passed deadline to now), the earliest a silent holder
  // can stop: RetryPeriod and RenewDeadline after its last renewal.
  const deadlineMs = roundOn
    ? leader.deadlineAtMs - leader.lastRenewAtMs
    : (lease.retryPeriodMs + lease.renewDeadlineMs) / leader.clockRate;
  const ago = `renewed ${formatSeconds(elapsedMs)} ago`;
  const paused = leader.paused ? ` (${leader.id} paused)` : '';
  const at = formatSpan(Math.round(deadlineMs));
  const began = Math.round(deadlineMs - deadlineRealMs);
  const renewDeadline = `RenewDeadline ${formatSpan(lease.renewDeadlineMs)}`;
  let state: DialState = 'ok';
  let text = roundOn
    ? `${ago}; round fails at ${at}: began ${formatSpan(began)} after, + ${renewDeadline}${paused}`
    : `${ago}; stops at ${at} unless renewed: RetryPeriod ${formatSpan(lease.retryPeriodMs)} + ${renewDeadline}${paused}`;
  if (elapsedMs >= durationMs) {
    state = 'expired';
    text = `${ago}: the ${formatSpan(durationMs)} lease ran out, others may claim it${paused}`;
  } else if (elapsedMs >= deadlineMs) {
    state = 'late';
    text = `${ago}: past its renewal round's deadline (${at})${paused}`;
  }
  return {
    state,
    fraction: Math.min(1, elapsedMs / durationMs),
    deadlineFraction: Math.min(1, Math.max(0, deadlineMs / durationMs)),
    short: formatSeconds(elapsedMs),
    text,
    // Every text with a holder begins with `ago` and a two-character separator ("; " or ": ").
    lead: text.slice(0, ago.length + 2),
  };
}
