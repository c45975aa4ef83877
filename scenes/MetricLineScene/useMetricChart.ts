// Keeps the chart model in step with the lab without re-rendering React on every snapshot: the
// store publishes up to ten snapshots a second while playing, but the chart is rebuilt at most a
// few times per wall second (plus a trailing redraw so the final state is always shown), and only
// when the simulation moved. It redraws on a snapshot, not on a timer of its own, so its DOM
// changes land in the frame where the rest of the page's do: a frame that changes the DOM costs
// the browser a layout, a paint and a commit however little changed, and one such frame instead
// of two is what keeps a slow machine within its frame.
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { flushSync } from 'react-dom';
import { useLabFrame, useLabStore, useLabUpdate } from '../../src/store/context';
import type { RunView } from '../../src/store/backend';
import { buildChart, type ChartModel } from './chartModel';
import type { WindowMode } from './metricModel';
import { held, useHeld } from '../../src/store/held';
import { ChartCache } from './sampleColumns';

/** About five redraws per wall second: smooth enough for a scrolling window, cheap at 64x. */
export const REDRAW_EVERY_MS = 200;
/** How early (in wall ms) a snapshot may come and still redraw: about a frame. */
const REDRAW_SLACK_MS = 20;
/** Used until the container is measured, and where ResizeObserver is missing (jsdom). */
export const DEFAULT_WIDTH_PX = 640;

export function useContainerWidth(ref: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(DEFAULT_WIDTH_PX);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = (sync: boolean) => {
      const w = Math.round(el.clientWidth);
      if (w <= 0) return;
      if (sync) flushSync(() => setWidth(w));
      else setWidth(w);
    };
    if (typeof ResizeObserver === 'undefined') return measure(false);
    // Measured by the observer, which reports once the browser has laid the page out anyway:
    // reading the width while mounting had the browser lay out the whole page there and then, in
    // the middle of the page's first seconds. Rendered at once, so the wrong width never shows.
    const ro = new ResizeObserver(() => measure(true));
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref]);
  return width;
}

function build(cache: ChartCache, sim: RunView, mode: WindowMode, widthPx: number): ChartModel {
  cache.sync(sim);
  return buildChart({
    columns: cache.columns,
    faults: cache.faults,
    nowMs: sim.nowMs,
    renewDeadlineMs: sim.experiment.lease?.renewDeadlineMs ?? 0,
    mode,
    widthPx,
  });
}

export function useMetricChart(mode: WindowMode, widthPx: number): ChartModel {
  const store = useLabStore();
  // The engine is replaced on reset, so it is looked up at draw time, never captured.
  const [cache] = useState(() => new ChartCache());
  const [chart] = useState(() => held(build(cache, store.backend(), mode, widthPx)));
  const drawn = useRef({ sim: null as RunView | null, key: '', atWallMs: -Infinity });
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const draw = useCallback(() => {
    const sim = store.backend();
    const key = `${sim.nowMs}|${sim.samplesTotal}|${sim.eventsTotal}|${store.getState().eventVersion}`;
    const d = drawn.current;
    d.atWallMs = performance.now();
    if (d.sim === sim && d.key === key) return;
    d.sim = sim;
    d.key = key;
    chart.set(build(cache, sim, mode, widthPx));
  }, [store, cache, chart, mode, widthPx]);
  const drawLatest = useRef(draw);
  drawLatest.current = draw;

  // A new window mode or width redraws at once.
  useEffect(() => {
    drawn.current.sim = null;
    draw();
  }, [draw]);

  // Per store update: one clock read and a comparison, nothing more, unless a redraw is due. A
  // snapshot that comes a little early still redraws (snapshots come every SNAPSHOT_EVERY_MS
  // while playing, give or take a frame). The trailing redraw waits long enough for the next
  // snapshot to make it unneeded while the lab plays; it matters when no update follows.
  // New samples are copied into the columns as they come, a frame's worth at a time, rather than
  // all at once by the redraw.
  useLabFrame(() => cache.sync(store.backend()));
  // The redraw goes to a frame after the snapshot's (store.nextFrame): together they made one
  // frame, or one jump along the timeline, long enough to stall the page on a slow machine.
  const queued = useRef(false);
  useLabUpdate(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    const since = performance.now() - drawn.current.atWallMs;
    if (since >= REDRAW_EVERY_MS - REDRAW_SLACK_MS) {
      if (!queued.current) {
        queued.current = true;
        store.nextFrame(() => {
          queued.current = false;
          drawLatest.current();
        });
      }
    } else {
      timer.current = setTimeout(() => {
        timer.current = null;
        drawLatest.current();
      }, 2 * REDRAW_EVERY_MS);
    }
  });

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
      timer.current = null;
    },
    [],
  );

  return useHeld(chart);
}
