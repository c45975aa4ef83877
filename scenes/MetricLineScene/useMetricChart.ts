// Keeps the chart model in step with the lab without re-rendering React on every frame: the
// store fires on every animation frame while playing, but the chart is rebuilt at most a few
// times per wall second (plus a trailing redraw so the final state after a pause or a step is
// always shown), and only when the simulation moved.
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { useLabFrame, useLabStore } from '../../src/store/context';
import type { Simulation } from '../../src/engine';
import { buildChart, type ChartModel } from './chartModel';
import type { WindowMode } from './metricModel';
import { ChartCache } from './sampleColumns';

/** About five redraws per wall second: smooth enough for a scrolling window, cheap at 64x. */
export const REDRAW_EVERY_MS = 200;
/** Used until the container is measured, and where ResizeObserver is missing (jsdom). */
export const DEFAULT_WIDTH_PX = 640;

export function useContainerWidth(ref: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(DEFAULT_WIDTH_PX);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => {
      const w = Math.round(el.clientWidth);
      if (w > 0) setWidth(w);
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref]);
  return width;
}

function build(cache: ChartCache, sim: Simulation, mode: WindowMode, widthPx: number): ChartModel {
  cache.sync(sim);
  return buildChart({
    columns: cache.columns,
    faults: cache.faults,
    nowMs: sim.nowMs,
    renewDeadlineMs: sim.experiment.lease.renewDeadlineMs,
    mode,
    widthPx,
  });
}

export function useMetricChart(mode: WindowMode, widthPx: number): ChartModel {
  const store = useLabStore();
  // The engine is replaced on reset, so it is looked up at draw time, never captured.
  const [cache] = useState(() => new ChartCache());
  const [chart, setChart] = useState(() => build(cache, store.engine().sim, mode, widthPx));
  const drawn = useRef({ sim: null as Simulation | null, key: '', atWallMs: -Infinity });
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const draw = useCallback(() => {
    const sim = store.engine().sim;
    const key = `${sim.nowMs}|${sim.samplesTotal}|${sim.eventsTotal}|${store.getState().eventVersion}`;
    const d = drawn.current;
    d.atWallMs = performance.now();
    if (d.sim === sim && d.key === key) return;
    d.sim = sim;
    d.key = key;
    setChart(build(cache, sim, mode, widthPx));
  }, [store, cache, mode, widthPx]);
  const drawLatest = useRef(draw);
  drawLatest.current = draw;

  // A new window mode or width redraws at once.
  useEffect(() => {
    drawn.current.sim = null;
    draw();
  }, [draw]);

  // Per store update: one clock read and a comparison, nothing more, unless a redraw is due.
  useLabFrame(() => {
    const since = performance.now() - drawn.current.atWallMs;
    if (since >= REDRAW_EVERY_MS) {
      draw();
    } else if (!timer.current) {
      timer.current = setTimeout(() => {
        timer.current = null;
        drawLatest.current();
      }, REDRAW_EVERY_MS - since);
    }
  });

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
      timer.current = null;
    },
    [],
  );

  return chart;
}
