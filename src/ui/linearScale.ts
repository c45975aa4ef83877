// A linear scale with d3-scale's arithmetic exactly, ticks from d3-array. d3-scale's scaleLinear also pulls
// d3-interpolate, d3-color and d3-format into every page and embed (about 9 KB gzip) for nothing used.
import { ticks as d3Ticks } from 'd3';

export interface LinearScale {
  (value: number): number;
  /** Nice round values across the domain, as d3's scale.ticks(count). */
  ticks(count?: number): number[];
}

/** d3-scale's normalize: a degenerate domain maps everything to the middle of the range. */
function normalize(a: number, b: number): (x: number) => number {
  const span = b - a;
  return span ? (x) => (x - a) / span : () => (Number.isNaN(span) ? NaN : 0.5);
}

/** d3-interpolate's interpolateNumber. */
function interpolateNumber(a: number, b: number): (t: number) => number {
  return (t) => a * (1 - t) + b * t;
}

export function scaleLinear([d0, d1]: [number, number], [r0, r1]: [number, number]): LinearScale {
  // d3-scale's bimap: a descending domain is normalized the other way round.
  const t = d1 < d0 ? normalize(d1, d0) : normalize(d0, d1);
  const r = d1 < d0 ? interpolateNumber(r1, r0) : interpolateNumber(r0, r1);
  const scale = ((x: number) => r(t(x))) as LinearScale;
  scale.ticks = (count = 10) => d3Ticks(d0, d1, count);
  return scale;
}
