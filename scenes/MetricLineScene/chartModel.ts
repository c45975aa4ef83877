// Turns the engine's samples and events into everything the SVG needs: D3 computes the scales,
// the path strings and the tick positions; React only renders the result. Pure, so a chart
// at a fixed seed is a plain value a test can inspect.
import { curveLinear, curveStepAfter, line, type CurveFactory } from 'd3';
import { scaleLinear, type LinearScale } from '../../src/ui/linearScale';
import { formatSeconds } from '../../src/store/format';
import {
  chooseBinMs,
  deriveRate,
  faultLabel,
  faultsIn,
  formatDuration,
  formatTick,
  layoutLabels,
  seriesOf,
  timeTicks,
  timeWindow,
  type PlacedLabel,
  type SeriesPoint,
  type TimeWindow,
  type WindowMode,
} from './metricModel';
import type { Columns, FaultEvent, SeriesField } from './sampleColumns';

export interface ChartInput {
  columns: Columns;
  faults: readonly FaultEvent[];
  nowMs: number;
  renewDeadlineMs: number;
  mode: WindowMode;
  widthPx: number;
}

export interface Tick {
  pos: number;
  label: string;
}

export interface Panel {
  key: string;
  title: string;
  top: number;
  height: number;
  yTicks: Tick[];
  lineD: string;
  lineClass: string;
  bars: { startMs: number; x: number; y: number; w: number; h: number }[];
  refLine: { y: number; label: string } | null;
}

export interface Facts {
  leaderCount: number;
  fencingRejections: number;
  leaderTransitions: number;
  renewalLatencyMs: number;
  msWithoutLeader: number;
  minLeaderCount: number;
  maxLeaderCount: number;
  peakRejectionsPerBin: number;
  peakLatencyMs: number;
  binMs: number;
  renewDeadlineMs: number;
}

export interface ChartModel {
  width: number;
  height: number;
  marginLeft: number;
  plotW: number;
  main: {
    top: number;
    height: number;
    lineD: string;
    yTicks: Tick[];
    healthyY: number;
    noLeaderBand: { y: number; h: number };
    splitBrainBand: { y: number; h: number };
  };
  axisY: number;
  bottomAxisY: number;
  xTicks: Tick[];
  faults: (PlacedLabel & { atMs: number; labelY: number })[];
  panels: Panel[];
  facts: Facts;
  windowMs: TimeWindow;
  /** The derived series, exposed for tests and the hidden description. */
  leaderSeries: SeriesPoint[];
}

const MARGIN_LEFT = 44;
const MARGIN_RIGHT = 16;
const MAIN_TOP = 8;
const AXIS_H = 22;
const FAULT_ROW_H = 16;
const PANEL_TITLE_H = 20;
const PANEL_H = 40;
const PANEL_GAP = 16;
const BOTTOM_AXIS_H = 24;
/** Average advance of a 12 px system-ui glyph, for label collision only. */
const CHAR_W = 6.8;
const INSET = 8;

function path(points: SeriesPoint[], x: LinearScale, y: LinearScale, curve: CurveFactory): string {
  return (
    line<SeriesPoint>()
      .x((p) => x(p.atMs))
      .y((p) => y(p.value))
      .curve(curve)(points) ?? ''
  );
}

function yScale(top: number, height: number, max: number, inset = 0): LinearScale {
  return scaleLinear([0, max], [top + height - inset, top + inset]);
}

/** The latest sampled value of a field (0 before the first sample). */
function latest(c: Columns, field: SeriesField): number {
  return c.length ? c.values[field][c.length - 1] : 0;
}

function extent(points: SeriesPoint[]): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const p of points) {
    if (p.value < lo) lo = p.value;
    if (p.value > hi) hi = p.value;
  }
  return points.length ? [lo, hi] : [0, 0];
}

export function buildChart(input: ChartInput): ChartModel {
  const { columns: c, faults, nowMs, renewDeadlineMs, mode } = input;
  const width = Math.max(280, Math.round(input.widthPx));
  const plotW = width - MARGIN_LEFT - MARGIN_RIGHT;
  const win = timeWindow(mode, nowMs, c.length ? c.atMs[0] : 0);
  const x = scaleLinear([win.x0, win.x1], [0, plotW]);
  // Two points per bucket at most, so about one point per pixel of plot.
  const buckets = Math.max(1, Math.ceil(plotW / 2));
  const series = (field: SeriesField) => seriesOf(c, field, win, nowMs, buckets);

  const leaderSeries = series('leaderCount');
  const [minLeader, maxLeader] = extent(leaderSeries);
  // Taller on wide screens so the panel keeps a readable aspect on a projector.
  const mainH = Math.round(Math.min(240, Math.max(150, width * 0.14)));
  const yMain = yScale(MAIN_TOP, mainH, Math.max(2, maxLeader), INSET);
  const mainBottom = MAIN_TOP + mainH;
  const bandEdge0 = yMain(0.5);
  const bandEdge2 = yMain(1.5);

  const axisY = mainBottom;
  const faultLaneY = axisY + AXIS_H;
  // A narrow plot needs a third row before neighbouring fault labels stop fitting.
  const faultRows = plotW < 500 ? 3 : 2;
  let top = faultLaneY + faultRows * FAULT_ROW_H + PANEL_GAP;
  const nextPanelTop = () => {
    const t = top + PANEL_TITLE_H;
    top = t + PANEL_H + PANEL_GAP;
    return t;
  };

  const binMs = chooseBinMs(win.x1 - win.x0, plotW);
  const bins = deriveRate(c, 'fencingRejections', win, binMs);
  const peakBin = bins.reduce((m, b) => Math.max(m, b.count), 0);
  const fencingTop = nextPanelTop();
  const yFence = yScale(fencingTop, PANEL_H, Math.max(1, peakBin));
  const barW = Math.max(1, x(win.x0 + binMs) - x(win.x0) - 1);
  const fencingRejections = latest(c, 'fencingRejections');
  const fencing: Panel = {
    key: 'fencing',
    title: `fencing rejections per ${formatDuration(binMs)} · total ${fencingRejections}`,
    top: fencingTop,
    height: PANEL_H,
    yTicks: [0, Math.max(1, peakBin)].map((v) => ({ pos: yFence(v), label: String(v) })),
    lineD: '',
    lineClass: '',
    bars: bins
      .filter((b) => b.count > 0)
      .map((b) => ({
        startMs: b.startMs,
        x: x(b.startMs),
        y: yFence(b.count),
        w: barW,
        h: yFence(0) - yFence(b.count),
      })),
    refLine: null,
  };

  const transitions = series('leaderTransitions');
  const maxTransitions = Math.max(1, extent(transitions)[1]);
  const transTop = nextPanelTop();
  const yTrans = yScale(transTop, PANEL_H, maxTransitions);
  const transPanel: Panel = {
    key: 'transitions',
    title: `leadership transitions · ${latest(c, 'leaderTransitions')}`,
    top: transTop,
    height: PANEL_H,
    yTicks: [0, maxTransitions].map((v) => ({ pos: yTrans(v), label: String(v) })),
    lineD: path(transitions, x, yTrans, curveStepAfter),
    lineClass: 'metric-line-transitions',
    bars: [],
    refLine: null,
  };

  const latency = series('renewalLatencyMs');
  const peakLatency = extent(latency)[1];
  const latTop = nextPanelTop();
  const yLat = yScale(latTop, PANEL_H, Math.max(renewDeadlineMs * 1.15, peakLatency));
  const latPanel: Panel = {
    key: 'latency',
    title: `renewal latency · peak ${formatDuration(peakLatency)}`,
    top: latTop,
    height: PANEL_H,
    yTicks: [0, renewDeadlineMs].map((v) => ({ pos: yLat(v), label: v ? formatDuration(v) : '0' })),
    lineD: path(latency, x, yLat, curveLinear),
    lineClass: 'metric-line-latency',
    bars: [],
    refLine: { y: yLat(renewDeadlineMs), label: `RenewDeadline ${formatDuration(renewDeadlineMs)}` },
  };

  const without = series('msWithoutLeader');
  const maxWithout = Math.max(1000, extent(without)[1]);
  const withoutTop = nextPanelTop();
  const yWithout = yScale(withoutTop, PANEL_H, maxWithout);
  const msWithoutLeader = latest(c, 'msWithoutLeader');
  const withoutPanel: Panel = {
    key: 'without',
    title: `time without a leader · ${formatSeconds(msWithoutLeader)}`,
    top: withoutTop,
    height: PANEL_H,
    yTicks: [0, maxWithout].map((v) => ({ pos: yWithout(v), label: v ? formatDuration(v) : '0' })),
    // Linear: the total grows continuously during an outage, and a step would turn a
    // decimated ramp into a staircase.
    lineD: path(without, x, yWithout, curveLinear),
    lineClass: 'metric-line-without',
    bars: [],
    refLine: null,
  };

  const bottomAxisY = top - PANEL_GAP;
  const tickCount = Math.max(2, Math.floor(plotW / 70));
  const xTicks = timeTicks(win, tickCount).map((t) => ({ pos: x(t), label: formatTick(t, win.x1 - win.x0) }));
  const faultEvents = faultsIn(faults, win);
  const placed = layoutLabels(
    faultEvents.map((ev) => ({ x: x(ev.atMs), label: faultLabel(ev) })),
    plotW,
    faultRows,
    CHAR_W,
  );

  return {
    width,
    height: bottomAxisY + BOTTOM_AXIS_H,
    marginLeft: MARGIN_LEFT,
    plotW,
    main: {
      top: MAIN_TOP,
      height: mainH,
      lineD: path(leaderSeries, x, yMain, curveStepAfter),
      yTicks: yMain
        .ticks(Math.max(2, maxLeader))
        .filter(Number.isInteger)
        .map((v) => ({ pos: yMain(v), label: String(v) })),
      healthyY: yMain(1),
      noLeaderBand: { y: bandEdge0, h: mainBottom - bandEdge0 },
      splitBrainBand: { y: MAIN_TOP, h: bandEdge2 - MAIN_TOP },
    },
    axisY,
    bottomAxisY,
    xTicks,
    faults: placed.map((p, i) => ({
      ...p,
      atMs: faultEvents[i].atMs,
      labelY: faultLaneY + p.row * FAULT_ROW_H + 12,
    })),
    panels: [fencing, transPanel, latPanel, withoutPanel],
    facts: {
      leaderCount: latest(c, 'leaderCount'),
      fencingRejections,
      leaderTransitions: latest(c, 'leaderTransitions'),
      renewalLatencyMs: latest(c, 'renewalLatencyMs'),
      msWithoutLeader,
      minLeaderCount: minLeader,
      maxLeaderCount: maxLeader,
      peakRejectionsPerBin: peakBin,
      peakLatencyMs: peakLatency,
      binMs,
      renewDeadlineMs,
    },
    windowMs: win,
    leaderSeries,
  };
}

export function ariaSummary(f: Facts): string {
  const rejections = `${f.fencingRejections} fencing rejection${f.fencingRejections === 1 ? '' : 's'}`;
  return `leader_count is ${f.leaderCount}; ${rejections}; ${formatSeconds(f.msWithoutLeader)} without a leader`;
}
