// The chart's two leader_count lines: believed counts nodes that think they lead, paused ones included (the
// hazard); observed is what a scrape sees, and a paused node fails it. Dashboards page on observed.
import type { SeriesPoint } from './metricModel';

/** The legend's sentence: the lesson the two lines teach. */
export const LESSON =
  'The observed line cannot see a zombie (a paused leader that still believes it leads); the fencing counter can.';

/** The lesson in one short line, for a chart in a short box (the table says it in full). */
export const LESSON_SHORT = 'Observed cannot see a zombie; the fencing counter can.';

/** How much of the lesson the legend says: all, its short line, none (a short box); `off`: no keys either. */
export type LessonForm = 'full' | 'short' | 'none' | 'off';

export type LineKey = 'observed' | 'believed';

export const LINE_KEYS: readonly { key: LineKey; label: string }[] = [
  { key: 'observed', label: 'observed (pages)' },
  { key: 'believed', label: 'believed (paused included)' },
];

export type Paging = 'none' | 'no-leader' | 'split-brain';

/** What a dashboard pages on for an observed leader_count: 0, and 2 or more. */
export function pagingOf(observed: number): Paging {
  return observed === 0 ? 'no-leader' : observed >= 2 ? 'split-brain' : 'none';
}

export function pagingText(p: Paging): string {
  return p === 'none' ? 'no page' : `paging: ${p === 'no-leader' ? 'no leader' : 'split brain'}`;
}

export interface PageSpan {
  kind: Exclude<Paging, 'none'>;
  startMs: number;
  endMs: number;
}

/** Stretches of a step series that would page (a point holds until the next; the last is a moment). */
export function pageSpans(points: readonly SeriesPoint[], startedAtMs = 0): PageSpan[] {
  const spans: PageSpan[] = [];
  // Nothing pages before the first leader was elected (start-up is no outage; -1: not yet).
  if (startedAtMs < 0) return spans;
  for (let i = 0; i + 1 < points.length; i++) {
    const kind = pagingOf(points[i].value);
    if (kind === 'none' || points[i + 1].atMs <= startedAtMs) continue;
    const startMs = Math.max(points[i].atMs, startedAtMs);
    const endMs = points[i + 1].atMs;
    const last = spans[spans.length - 1];
    if (last && last.kind === kind && last.endMs === startMs) last.endMs = endMs;
    else if (endMs > startMs) spans.push({ kind, startMs, endMs });
  }
  return spans;
}

/** Words into lines of at most maxChars (a longer word gets a line of its own). */
export function wrapWords(text: string, maxChars: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > maxChars) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

export interface LegendLayout {
  /** Each key: a stretch of its line from x to x + SWATCH_W beside its label's baseline y, the label at textX. */
  keys: { key: LineKey; label: string; x: number; textX: number; y: number }[];
  lesson: { text: string; y: number }[];
  height: number;
}

export const SWATCH_W = 22;
const SWATCH_GAP = 5;
const KEY_GAP = 16;

/**
 * The legend over the plot (SVG text baselines): the keys in as few rows as fit, then the lesson wrapped,
 * widths estimated by the average glyph advance; a short box gets the short line or the keys (`form`).
 */
export function layoutLegend(
  widthPx: number,
  charWidthPx: number,
  lineHeightPx: number,
  form: LessonForm = 'full',
): LegendLayout {
  const keys: LegendLayout['keys'] = [];
  if (form === 'off') return { keys, lesson: [], height: 0 };
  let x = 0;
  let row = 0;
  for (const { key, label } of LINE_KEYS) {
    const w = SWATCH_W + SWATCH_GAP + label.length * charWidthPx;
    if (x > 0 && x + w > widthPx) {
      row++;
      x = 0;
    }
    keys.push({ key, label, x, textX: x + SWATCH_W + SWATCH_GAP, y: (row + 1) * lineHeightPx - 4 });
    x += w + KEY_GAP;
  }
  const first = row + 1;
  const text = form === 'full' ? LESSON : form === 'short' ? LESSON_SHORT : '';
  const words = text ? wrapWords(text, Math.max(12, Math.floor(widthPx / charWidthPx))) : [];
  const lesson = words.map((text, i) => ({
    text,
    y: (first + i + 1) * lineHeightPx - 4,
  }));
  return { keys, lesson, height: (first + lesson.length) * lineHeightPx };
}
