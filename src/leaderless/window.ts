// The window design (a) pays per leader death, from an engine run: the last failover to a work-ready leader.
import type { Failover } from '../engine';
import { DEFAULT_WINDOW, MAX_WINDOW_MS, type FailoverWindow } from './model';

export function windowFromRun(failovers: readonly Failover[], algorithmTitle: string): FailoverWindow {
  // A failover longer than the model takes (an hour: a run left without a leader) is not a window.
  const done = failovers.filter(
    (f) => f.readyAtMs >= 0 && f.detectedAtMs >= f.lostAtMs && f.readyAtMs - f.lostAtMs <= MAX_WINDOW_MS,
  );
  const f = done[done.length - 1];
  if (!f) return DEFAULT_WINDOW;
  return {
    detectMs: f.detectedAtMs - f.lostAtMs,
    totalMs: f.readyAtMs - f.lostAtMs,
    source: `this run's failover (${algorithmTitle}, ${f.from ?? 'the leader'} lost at ${(f.lostAtMs / 1000).toFixed(1)} s)`,
  };
}
