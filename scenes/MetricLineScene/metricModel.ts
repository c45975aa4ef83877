// Pure series maths for the metric chart: the window's samples, decimation keeping the extremes, rates from
// cumulative counters, fault labels, time ticks. No DOM, of D3 only its bisection: unit-tested directly.
import { bisectLeft } from 'd3';
import type { Columns, FaultEvent, SeriesField } from './sampleColumns';

export type WindowMode = 'recent' | 'whole';

/** How much simulated time the scrolling view shows. */
export const RECENT_WINDOW_MS = 60_000;

export interface TimeWindow {
  x0: number;
  x1: number;
}

export interface SeriesPoint {
  atMs: number;
  value: number;
}

export interface RateBin {
  startMs: number;
  count: number;
}

/** The recent window is pinned to [0, 60 s] until the run is longer, then it scrolls with now. */
export function timeWindow(mode: WindowMode, nowMs: number, firstSampleMs: number): TimeWindow {
  if (mode === 'recent') {
    const x1 = Math.max(nowMs, RECENT_WINDOW_MS);
    return { x0: x1 - RECENT_WINDOW_MS, x1 };
  }
  const x0 = Math.max(0, firstSampleMs);
  return { x0, x1: Math.max(nowMs, x0 + 1000) };
}

/** Sample indexes to draw (hi < lo: none), one before the window so a step line enters at its value then. */
export function sampleRange(c: Columns, win: TimeWindow): { lo: number; hi: number } {
  const lo = Math.max(0, bisectLeft(c.atMs, win.x0, 0, c.length) - 1);
  const hi = bisectLeft(c.atMs, win.x1 + 1, 0, c.length) - 1;
  return { lo, hi };
}

/** Min/max decimation per bucket, and the range's ends: a one-sample dip or spike survives any run length. */
export function decimateMinMax(
  times: ArrayLike<number>,
  values: ArrayLike<number>,
  lo: number,
  hi: number,
  win: TimeWindow,
  buckets: number,
): number[] {
  const out: number[] = [];
  if (hi < lo) return out;
  if (hi - lo + 1 <= 2 * buckets) {
    for (let i = lo; i <= hi; i++) out.push(i);
    return out;
  }
  // Compare against the next bucket edge in time rather than dividing for every sample.
  const bucketMs = Math.max(1, win.x1 - win.x0) / buckets;
  const edgeAfter = (t: number) => {
    const b = Math.max(0, Math.floor((t - win.x0) / bucketMs));
    return b >= buckets - 1 ? Infinity : win.x0 + (b + 1) * bucketMs;
  };
  const push = (i: number) => {
    if (out[out.length - 1] !== i) out.push(i);
  };
  let edge = edgeAfter(times[lo]);
  let minI = lo;
  let maxI = lo;
  const flush = () => {
    push(Math.min(minI, maxI));
    if (values[minI] !== values[maxI]) push(Math.max(minI, maxI));
  };
  push(lo);
  for (let i = lo + 1; i <= hi; i++) {
    if (times[i] >= edge) {
      flush();
      edge = edgeAfter(times[i]);
      minI = maxI = i;
    } else if (values[i] < values[minI]) {
      minI = i;
    } else if (values[i] > values[maxI]) {
      maxI = i;
    }
  }
  flush();
  push(hi);
  return out;
}

/** A decimated series of one field over the window, extended to nowMs so the line reaches the present. */
export function seriesOf(
  c: Columns,
  field: SeriesField,
  win: TimeWindow,
  nowMs: number,
  buckets: number,
): SeriesPoint[] {
  const { lo, hi } = sampleRange(c, win);
  const values = c.values[field];
  const idx = decimateMinMax(c.atMs, values, lo, hi, win, buckets);
  // A point level with both neighbours adds nothing, and leader_count is level almost everywhere.
  const points: SeriesPoint[] = [];
  for (let k = 0; k < idx.length; k++) {
    const v = values[idx[k]];
    if (k > 0 && k < idx.length - 1 && v === values[idx[k - 1]] && v === values[idx[k + 1]]) continue;
    points.push({ atMs: c.atMs[idx[k]], value: v });
  }
  const last = points[points.length - 1];
  const end = Math.min(nowMs, win.x1);
  if (last && end > last.atMs) points.push({ atMs: end, value: last.value });
  return points;
}

/**
 * Per-interval counts from a cumulative counter, each increase to the later sample's bin. Bins align to
 * binMs so bars do not shimmer as the window scrolls; a counter gone down (a replayed run) adds nothing.
 */
export function deriveRate(c: Columns, field: SeriesField, win: TimeWindow, binMs: number): RateBin[] {
  const first = Math.floor(win.x0 / binMs) * binMs;
  const n = Math.max(1, Math.ceil((win.x1 - first) / binMs));
  const bins: RateBin[] = Array.from({ length: n }, (_, i) => ({ startMs: first + i * binMs, count: 0 }));
  const { lo, hi } = sampleRange(c, win);
  const values = c.values[field];
  for (let i = Math.max(lo, 1); i <= hi; i++) {
    const delta = values[i] - values[i - 1];
    if (delta <= 0) continue;
    const b = Math.floor((c.atMs[i] - first) / binMs);
    if (b >= 0 && b < n) bins[b].count += delta;
  }
  return bins;
}

const NICE_BINS_MS = [
  1000, 2000, 5000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000, 900_000, 1_800_000, 3_600_000,
];

/** The smallest round bin that keeps each bar at least minBarPx wide. */
export function chooseBinMs(spanMs: number, plotWidthPx: number, minBarPx = 4): number {
  const want = (spanMs * minBarPx) / Math.max(1, plotWidthPx);
  return NICE_BINS_MS.find((b) => b >= want) ?? NICE_BINS_MS[NICE_BINS_MS.length - 1];
}

const NICE_STEPS_MS = [
  1000, 2000, 5000, 10_000, 15_000, 20_000, 30_000, 60_000, 120_000, 300_000, 600_000, 900_000, 1_200_000,
  1_800_000, 3_600_000, 7_200_000,
];

/** Time-axis ticks on round seconds, minutes or hours (D3's decimal ticks would give 50 000 ms). */
export function timeTicks(win: TimeWindow, maxCount: number): number[] {
  const span = win.x1 - win.x0;
  const step =
    NICE_STEPS_MS.find((s) => span / s <= Math.max(1, maxCount)) ?? NICE_STEPS_MS[NICE_STEPS_MS.length - 1];
  const ticks: number[] = [];
  for (let t = Math.ceil(win.x0 / step) * step; t <= win.x1; t += step) ticks.push(t);
  return ticks;
}

export function formatTick(ms: number, spanMs: number): string {
  const totalS = Math.round(ms / 1000);
  if (spanMs <= 180_000) return `${totalS} s`;
  const h = Math.floor(totalS / 3600);
  const m = Math.floor((totalS % 3600) / 60);
  const s = String(totalS % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** "30 s", "1.5 s", "250 ms": short enough for an axis label. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}

/** A few words per fault, to sit under a tick on the time axis. */
export function faultLabel(ev: FaultEvent): string {
  const f = ev.fault;
  const who = ev.target ?? ('node' in f ? f.node : '');
  switch (f.do) {
    case 'pause':
      return f.forMs ? `pause ${who} ${formatDuration(f.forMs)}` : `pause ${who}`;
    case 'partition':
    case 'heal':
      return f.do;
    case 'clockRate':
      return `${who} clock ${f.rate}x`;
    case 'safety': {
      const parts = (['quorum', 'fencing', 'followersReject', 'preVote'] as const)
        .filter((k) => f[k] !== undefined)
        .map((k) => `${k} ${f[k] ? 'on' : 'off'}`);
      return parts.join(', ') || 'safety';
    }
    default:
      return `${f.do} ${who}`;
  }
}

/** The faults with atMs in the window (the list is in time order). */
export function faultsIn(faults: readonly FaultEvent[], win: TimeWindow): FaultEvent[] {
  return faults.filter((f) => f.atMs >= win.x0 && f.atMs <= win.x1);
}

export interface PlacedLabel {
  x: number;
  label: string;
  row: number;
  anchor: 'start' | 'end';
  /** False when every row is taken here: the tick stays, the text goes to the table. */
  shown: boolean;
}

/** Greedy rows of labels under the axis so neighbours do not overprint; those at the right edge hang left. */
export function layoutLabels(
  items: readonly { x: number; label: string }[],
  plotWidthPx: number,
  rows: number,
  charWidthPx: number,
): PlacedLabel[] {
  const rowEnd = Array.from({ length: rows }, () => -Infinity);
  return items.map(({ x, label }) => {
    const w = label.length * charWidthPx + 6;
    const anchor = x + w > plotWidthPx ? 'end' : 'start';
    const left = anchor === 'start' ? x : x - w;
    const row = rowEnd.findIndex((end) => end <= left);
    if (row < 0) return { x, label, row: 0, anchor, shown: false };
    rowEnd[row] = left + w + 4;
    return { x, label, row, anchor, shown: true };
  });
}
