// The client view under leader_count: per interval, errors per second (a dead node, a warming-up leader, a
// redirect) and served writes' mean latency (retries included). After a promotion: errors while no leader
// serves, leader_count already 1 in warm-up, then the waiting writes served at once. Pure.
import { CLIENT_NOW_MS } from '../../src/engine';
import { bisectLeft } from 'd3';
import { deriveRate, type TimeWindow } from './metricModel';
import type { Columns } from './sampleColumns';

export interface ClientBin {
  startMs: number;
  /** Failed client writes per second in this interval. */
  errorsPerS: number;
  /** Writes served in it, and their mean latency (null: none served). */
  served: number;
  latencyMs: number | null;
}

/** Per-interval client figures, from deriveRate's bins of the three counts (one gone down adds nothing). */
export function clientBins(c: Columns, win: TimeWindow, binMs: number): ClientBin[] {
  const [errors, served, waited] = (['clientErrors', 'clientServed', 'clientWaitedMs'] as const).map((f) =>
    deriveRate(c, f, win, binMs),
  );
  return errors.map((e, b) => ({
    startMs: e.startMs,
    errorsPerS: (e.count * 1000) / binMs,
    served: served[b].count,
    latencyMs: served[b].count > 0 ? waited[b].count / served[b].count : null,
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
  const j = Math.max(0, bisectLeft(c.atMs, c.atMs[i] - CLIENT_NOW_MS + 1, 0, c.length) - 1);
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
