// The client view under leader_count: what the clients saw, from the samples' cumulative client
// counts (Sample.clientErrors, clientServed, clientWaitedMs). Per interval: the errors per second
// (writes that failed: a dead node, a leader still warming up, a redirect) and the mean latency of
// the writes served in it (each from its first try, retries included). After a promotion it draws
// the recovery curve: errors while no leader serves, leader_count already 1 during warm-up, then
// the writes that waited out the failover served at once, with its length as their latency.
// Pure, like the rest of the chart's model.
import { CLIENT_NOW_MS } from '../../src/engine';
import { lowerBound, sampleRange, type TimeWindow } from './metricModel';
import type { Columns } from './sampleColumns';

export interface ClientBin {
  startMs: number;
  /** Failed client writes per second in this interval. */
  errorsPerS: number;
  /** Writes served in it, and their mean latency (null: none served). */
  served: number;
  latencyMs: number | null;
}

/** Per-interval client figures, bins aligned as deriveRate's are. */
export function clientBins(c: Columns, win: TimeWindow, binMs: number): ClientBin[] {
  const first = Math.floor(win.x0 / binMs) * binMs;
  const n = Math.max(1, Math.ceil((win.x1 - first) / binMs));
  const errors = new Array<number>(n).fill(0);
  const served = new Array<number>(n).fill(0);
  const waited = new Array<number>(n).fill(0);
  const { lo, hi } = sampleRange(c, win);
  const v = c.values;
  for (let i = Math.max(lo, 1); i <= hi; i++) {
    const b = Math.floor((c.atMs[i] - first) / binMs);
    if (b < 0 || b >= n) continue;
    // A count that went down (a replayed run) adds nothing, as in deriveRate.
    errors[b] += Math.max(0, v.clientErrors[i] - v.clientErrors[i - 1]);
    const s = v.clientServed[i] - v.clientServed[i - 1];
    if (s > 0) {
      served[b] += s;
      waited[b] += v.clientWaitedMs[i] - v.clientWaitedMs[i - 1];
    }
  }
  return errors.map((e, b) => ({
    startMs: first + b * binMs,
    errorsPerS: (e * 1000) / binMs,
    served: served[b],
    latencyMs: served[b] > 0 ? waited[b] / served[b] : null,
  }));
}

/** The clients' figures over the last second of samples: what the header says "now". */
export interface ClientNow {
  errorsPerS: number;
  /** Mean latency of the writes served in that second; null when none was. */
  latencyMs: number | null;
  errors: number;
  served: number;
}

export function clientNow(c: Columns): ClientNow {
  const i = c.length - 1;
  const v = c.values;
  if (i < 0) return { errorsPerS: 0, latencyMs: null, errors: 0, served: 0 };
  // The latest sample at least a second before the last one (or the first sample).
  const j = Math.max(0, lowerBound(c.atMs, c.length, c.atMs[i] - CLIENT_NOW_MS + 1) - 1);
  const spanMs = c.atMs[i] - c.atMs[j];
  const served = v.clientServed[i] - v.clientServed[j];
  return {
    errorsPerS: spanMs > 0 ? ((v.clientErrors[i] - v.clientErrors[j]) * 1000) / spanMs : 0,
    latencyMs: served > 0 ? (v.clientWaitedMs[i] - v.clientWaitedMs[j]) / served : null,
    errors: v.clientErrors[i],
    served: v.clientServed[i],
  };
}

/** "60 errors/s", "0.5 errors/s" */
export function formatRate(perS: number): string {
  return `${Number.isInteger(perS) ? perS : perS.toFixed(1)} errors/s`;
}
