// Keeps the chart in step without re-rendering React per snapshot: rebuilt a few times a wall second at
// most, when the run moved, plus a trailing redraw. On a snapshot, not its own timer, so its DOM changes
// share the page's frame: each frame that changes the DOM costs a layout, paint and commit.
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { flushSync } from 'react-dom';
import { useLabFrame, useLabStore, useLabUpdate } from '../../src/store/context';
import type { RunView } from '../../src/store/backend';
import { renewLimitOf, watchCountsOf, type Snapshot } from '../../src/engine';
import { buildChart, type ChartInput, type ChartModel } from './chartModel';
import type { WindowMode } from './metricModel';
import { held, useHeld } from '../../src/store/held';
import { ChartCache } from './sampleColumns';

/** About five redraws per wall second: smooth enough for a scrolling window, cheap at 64x. */
export const REDRAW_EVERY_MS = 200;
/** How early (in wall ms) a snapshot may come and still redraw: about a frame. */
const REDRAW_SLACK_MS = 20;
/** Used until the container is measured, and where ResizeObserver is missing (jsdom). */
export const DEFAULT_WIDTH_PX = 640;

export interface Size {
  width: number;
  height: number;
  /** The box's font size: the chart lays its text out by it (present mode's is larger). */
  fontPx: number;
}

export function useContainerSize(ref: RefObject<HTMLElement | null>): Size {
  const [size, setSize] = useState<Size>({ width: DEFAULT_WIDTH_PX, height: 0, fontPx: 12 });
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = (sync: boolean, box?: DOMRectReadOnly) => {
      const next = {
        width: Math.round(box ? box.width : el.clientWidth),
        height: Math.round(box ? box.height : el.clientHeight),
        // Read with the size, after layout: the style is already computed then.
        fontPx: parseFloat(getComputedStyle(el).fontSize) || 12,
      };
      if (next.width <= 0) return;
      const set = () =>
        setSize((s) =>
          s.width === next.width && s.height === next.height && s.fontPx === next.fontPx ? s : next,
        );
      if (sync) flushSync(set);
      else set();
    };
    if (typeof ResizeObserver === 'undefined') return measure(false);
    // Measured by the observer, once the browser has laid out anyway (read while mounting, it forced a
    // whole-page layout early on); rendered at once, so no wrong width shows. Its own measurement, not
    // clientWidth: after another observer's change (the stage's type) that read laid the page out again.
    const ro = new ResizeObserver((entries) => measure(true, entries[entries.length - 1].contentRect));
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref]);
  return size;
}

/** What the chart is drawn for: its window and its box. */
type View = Pick<ChartInput, 'mode' | 'widthPx' | 'compactHeightPx' | 'fontPx'>;

function build(cache: ChartCache, sim: RunView, frame: Snapshot, view: View): ChartModel {
  cache.sync(sim);
  const c = frame.counters;
  const e = sim.experiment;
  const watches = watchCountsOf(e);
  return buildChart({
    columns: cache.columns,
    faults: cache.faults,
    nowMs: sim.nowMs,
    renewLimit: renewLimitOf(e),
    watches: watches ? { candidates: e.nodes } : undefined,
    clients: e.workload.clients > 0,
    ...view,
    // The frame is the moment the stage shows: the chart's "now" is its count, not the last sample's.
    live:
      frame.nowMs === sim.nowMs
        ? {
            leaderCount: frame.leaderCount,
            leaderCountObserved: frame.leaderCountObserved,
            fencingRejections: c.fencingRejections,
            leaderTransitions: c.leaderTransitions,
            msWithoutLeader: c.msWithoutLeader,
            // The queue's counts are the moment's own (ZooKeeper's samples lag them by up to one).
            ...(watches && frame.queue
              ? {
                  watchNotifications: frame.queue.watchNotifications,
                  watchReads: frame.queue.watchReads ?? undefined,
                }
              : {}),
          }
        : undefined,
  });
}

/** `compactHeightPx`: draw only leader_count, this tall (see buildChart). */
export function useMetricChart(
  mode: WindowMode,
  widthPx: number,
  compactHeightPx?: number,
  fontPx = 12,
): ChartModel {
  const store = useLabStore();
  // The engine is replaced on reset, so it is looked up at draw time, never captured.
  const [cache] = useState(() => new ChartCache());
  const [chart] = useState(() =>
    held(build(cache, store.backend(), store.frame(), { mode, widthPx, compactHeightPx, fontPx })),
  );
  const drawn = useRef({
    sim: null as RunView | null,
    key: '',
    frame: null as Snapshot | null,
    atWallMs: -Infinity,
  });
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const draw = useCallback(() => {
    const sim = store.backend();
    const key = `${sim.nowMs}|${sim.samplesTotal}|${sim.eventsTotal}|${store.getState().eventVersion}`;
    // The frame too, whose figures are the moment's: a hidden scene's gate (gate.ts) holds its frame as the
    // run goes on, so a chart drawn then is redrawn once shown (believed 0 stayed beside "One leader").
    const frame = store.frame();
    const d = drawn.current;
    d.atWallMs = performance.now();
    if (d.sim === sim && d.key === key && d.frame === frame) return;
    Object.assign(d, { sim, key, frame });
    chart.set(build(cache, sim, frame, { mode, widthPx, compactHeightPx, fontPx }));
  }, [store, cache, chart, mode, widthPx, compactHeightPx, fontPx]);
  const drawLatest = useRef(draw);
  drawLatest.current = draw;

  // A new window mode or width redraws at once.
  useEffect(() => {
    drawn.current.sim = null;
    draw();
  }, [draw]);

  // Per store update: a clock read and a comparison unless a redraw is due (a snapshot a frame early still
  // redraws); the trailing one outwaits the next snapshot. New samples are copied a frame's worth at a time.
  useLabFrame(() => cache.follow(store.backend()));
  // A frame after the snapshot's (store.nextFrame): both in one could stall a slow machine.
  const queued = useRef(false);
  const stopTimer = () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
  };
  useLabUpdate(() => {
    stopTimer();
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

  useEffect(() => stopTimer, []);

  return useHeld(chart);
}
