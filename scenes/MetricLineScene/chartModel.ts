// The engine's samples and events as all the SVG needs; pure, so a chart at a fixed seed is testable data.
import { scaleLinear, type LinearScale } from '../../src/ui/linearScale';
import { formatSeconds } from '../../src/store/format';
import type { RenewLimit } from '../../src/engine';
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
import { clientBins, clientNow, formatRate, type ClientNow } from './clientView';
import {
  layoutLegend,
  type LessonForm,
  pageSpans,
  pagingOf,
  pagingText,
  type LegendLayout,
  type PageSpan,
  type Paging,
} from './leaderLines';

/** The run's figures at the moment shown (the samples are taken every 100 ms, and can lag it). */
export interface LiveFigures {
  /** leader_count believed: alive nodes that think they lead, paused ones included. */
  leaderCount: number;
  /** leader_count observed: what a scrape of every node's is-leader gauge sees. */
  leaderCountObserved: number;
  fencingRejections: number;
  leaderTransitions: number;
  msWithoutLeader: number;
  /** Watch notifications and the reads they triggered, where the run counts them (ZooKeeper). */
  watchNotifications?: number;
  watchReads?: number;
}

export interface ChartInput {
  columns: Columns;
  faults: readonly FaultEvent[];
  nowMs: number;
  /** The renewal latency panel's line (renewLimitOf); null: none. */
  renewLimit: RenewLimit | null;
  /**
   * Draw the watch panel (watchCountsOf: ZooKeeper's recipe counts them) for this many candidates. Its axis
   * reaches at least the herd's count (all but the leader): the recipe's one notification reads against it.
   */
  watches?: { candidates: number };
  /** Draw the client view (clientView.ts) under leader_count, compact too: what a failover costs them. */
  clients?: boolean;
  mode: WindowMode;
  widthPx: number;
  /** Compact: only leader_count, this tall (the lab's first screen), its other signals in the header. */
  compactHeightPx?: number;
  /** The moment's own figures: "now" and the line's last step agree with the stage. */
  live?: LiveFigures;
  /** The chart's font size (present mode's is larger): text is laid out by it. Default 12. */
  fontPx?: number;
}

export interface Tick {
  pos: number;
  label: string;
  /** The label's shift from its tick (the x axis's last one, which would run past the chart's edge). */
  labelDx?: number;
}

export interface Panel {
  key: string;
  title: string;
  top: number;
  height: number;
  yTicks: Tick[];
  lineD?: string;
  lineClass?: string;
  /** Per-interval bars; `kind` tells a panel's two series apart (the watch panel's). */
  bars: { startMs: number; x: number; y: number; w: number; h: number; kind?: WatchBarKind }[];
  refLine?: { y: number; label: string } | null;
}

/** The watch panel's two bars in each interval: notifications filled, the reads outlined. */
export type WatchBarKind = 'notifications' | 'reads' | 'client-errors';

/** The glyphs the watch panel's title uses as the key of its two bars (ChartSvg colours them). */
export const WATCH_SWATCH: Record<Exclude<WatchBarKind, 'client-errors'>, string> = {
  notifications: '\u25A0',
  reads: '\u25A1',
};

/** A stretch of the observed line inside a paging band, on the plot. */
export interface FiringRect extends PageSpan {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** The moment's figures (LiveFigures, from the samples where there is no live one) and the range's. */
export interface Facts extends Omit<LiveFigures, 'watchNotifications' | 'watchReads'> {
  /** What the observed count pages on now. */
  paging: Paging;
  renewalLatencyMs: number;
  minLeaderCount: number;
  maxLeaderCount: number;
  minObserved: number;
  maxObserved: number;
  /** Time in this range the observed line spent in each paging band. */
  pagedMs: Record<PageSpan['kind'], number>;
  peakRejectionsPerBin: number;
  peakLatencyMs: number;
  binMs: number;
  renewLimit: RenewLimit | null;
  /** Watch notifications and the reads they triggered so far; null where the run does not count them. */
  watchNotifications: number | null;
  watchReads: number | null;
  /** The most of each in one interval of binMs in this range (0 without the watch panel). */
  peakNotificationsPerBin: number;
  peakReadsPerBin: number;
  /** The client view's figures: the last second's, and the most in one interval of this range; null without clients. */
  clients: (ClientNow & { peakErrorsPerS: number; peakLatencyMs: number }) | null;
}

export interface ChartModel {
  /** The moment drawn: redraws are spaced, so it can trail the moment the rest of the page shows. */
  nowMs: number;
  width: number;
  height: number;
  /** Only leader_count, with no second axis under small multiples. */
  compact: boolean;
  marginLeft: number;
  plotW: number;
  legend: LegendLayout;
  main: {
    top: number;
    height: number;
    /** The line that pages. */
    observedD: string;
    /** Drawn over the observed line, dashed: where the two agree the dashes sit on it. */
    believedD: string;
    yTicks: Tick[];
    healthyY: number;
    noLeaderBand: { y: number; h: number };
    splitBrainBand: { y: number; h: number };
    /** Where the observed line is in a band: those stretches page, the believed line's do not. */
    firing: FiringRect[];
    /**
     * Start-up (electing the first leader) as its own phase, from the run's start to the first election or
     * now, clipped to the window: it pages nothing, counts no time without a leader. Null out of the window.
     */
    starting: { startMs: number; endMs: number; x: number; w: number } | null;
  };
  axisY: number;
  bottomAxisY: number;
  xTicks: Tick[];
  faults: (PlacedLabel & { atMs: number; labelY: number })[];
  /** The rows of fault labels under the axis (a label that fits none is in the table). */
  faultRows: number;
  panels: Panel[];
  facts: Facts;
  windowMs: TimeWindow;
  /** The derived series, exposed for tests and the hidden description. */
  observedSeries: SeriesPoint[];
  believedSeries: SeriesPoint[];
}

const MARGIN_LEFT = 44;
const MARGIN_RIGHT = 16;
/** Between the legend and the plot. */
const LEGEND_GAP = 6;
const AXIS_H = 22;
/** At the 12 px font; rows of text grow with the font. */
const FAULT_ROW_H = 16;
const LINE_H = 16;
const PANEL_TITLE_H = 20;
const PANEL_H = 40;
const PANEL_GAP = 16;
/** The client panel on the compact chart. */
const COMPACT_PANEL_H = 28;
const COMPACT_PANEL_GAP = 8;
const BOTTOM_AXIS_H = 24;
/** Under the compact chart's last row. */
const COMPACT_FOOT_H = 6;
/**
 * The least plot a compact chart keeps anything else for: 0, 1 and 2 apart, each band's label inside its band
 * and off the line at 1. At 40 px (1280x720) the labels touched and ran out of the plot.
 */
const MIN_COMPACT_MAIN_H = 50;
/** The least height leader_count keeps when the small multiples share a given height with it. */
const MIN_MAIN_WITH_PANELS_H = 200;
/** Average advance of a 12 px system-ui glyph, for label collision and wrapping only. */
const CHAR_W = 6.8;
const BASE_FONT_PX = 12;
const INSET = 8;

const round3 = (v: number) => Math.round(v * 1000) / 1000;

/**
 * An SVG path: straight (`linear`) or held until the next point (`step`). Not d3's line generator (most of
 * the scene's code for two paths), but the same text as curveLinear, curveStepAfter: 3 decimals, `M x,y Z`.
 */
function path(points: SeriesPoint[], x: LinearScale, y: LinearScale, curve: 'linear' | 'step'): string {
  if (points.length === 0) return '';
  let d = '';
  let lastY = 0;
  points.forEach((p, i) => {
    const px = round3(x(p.atMs));
    const py = round3(y(p.value));
    if (i === 0) d = `M${px},${py}`;
    else if (curve === 'step') d += `L${px},${lastY}L${px},${py}`;
    else d += `L${px},${py}`;
    lastY = py;
  });
  return points.length === 1 ? `${d}Z` : d;
}

function yScale(top: number, height: number, max: number, inset = 0): LinearScale {
  return scaleLinear([0, max], [top + height - inset, top + inset]);
}

/** When the first leader was elected (first sample with one), or -1: start-up is no outage, pages nothing. */
function startedAt(c: Columns, liveLeaders: number | undefined, nowMs: number): number {
  const believed = c.values.leaderCount;
  for (let i = 0; i < c.length; i++) if (believed[i] >= 1) return c.atMs[i];
  return liveLeaders !== undefined && liveLeaders >= 1 ? nowMs : -1;
}

/** The latest sampled value of a field (0 before the first sample). */
function latest(c: Columns, field: SeriesField): number {
  return c.length ? c.values[field][c.length - 1] : 0;
}

/** The series with the moment's own value as its last step, if the last sample is behind it. */
function withLive(points: SeriesPoint[], value: number | undefined, nowMs: number, win: TimeWindow) {
  const tail = points[points.length - 1];
  if (value !== undefined && tail && tail.value !== value && nowMs <= win.x1)
    points.push({ atMs: nowMs, value });
  return points;
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

/** A panel's bars, one per interval with a count, rising from its baseline (`dx` to the right). */
function barsOf(
  bins: readonly { startMs: number; count: number }[],
  x: LinearScale,
  y: LinearScale,
  w: number,
  kind?: WatchBarKind,
  dx = 0,
): Panel['bars'] {
  return bins
    .filter((b) => b.count > 0)
    .map((b) => ({
      startMs: b.startMs,
      x: x(b.startMs) + dx,
      y: y(b.count),
      w,
      h: y(0) - y(b.count),
      ...(kind ? { kind } : {}),
    }));
}

/** The axis labels at a panel's baseline and top. */
const yTicksOf = (y: LinearScale, top: number, label: (v: number) => string = String): Tick[] =>
  [0, top].map((v) => ({ pos: y(v), label: label(v) }));
const durationLabel = (v: number) => (v ? formatDuration(v) : '0');

export function buildChart(input: ChartInput): ChartModel {
  const { columns: c, faults, nowMs, renewLimit, mode } = input;
  const width = Math.max(280, Math.round(input.widthPx));
  const plotW = width - MARGIN_LEFT - MARGIN_RIGHT;
  const win = timeWindow(mode, nowMs, c.length ? c.atMs[0] : 0);
  const x = scaleLinear([win.x0, win.x1], [0, plotW]);
  // Two points per bucket at most, so about one point per pixel of plot.
  const buckets = Math.max(1, Math.ceil(plotW / 2));
  const series = (field: SeriesField) => seriesOf(c, field, win, nowMs, buckets);
  // The moment's own figure where there is one (the samples can lag it), else the latest sample.
  const nowOf = (field: SeriesField & keyof LiveFigures) => input.live?.[field] ?? latest(c, field);

  const live = input.live;
  const believedSeries = withLive(series('leaderCount'), live?.leaderCount, nowMs, win);
  const observedSeries = withLive(series('leaderCountObserved'), live?.leaderCountObserved, nowMs, win);
  const [minLeader, maxLeader] = extent(believedSeries);
  const [minObserved, maxObserved] = extent(observedSeries);
  const fontScale = (input.fontPx ?? BASE_FONT_PX) / BASE_FONT_PX;
  const charW = CHAR_W * fontScale;
  const faultRowH = Math.round(FAULT_ROW_H * fontScale);
  const lineH = Math.round(LINE_H * fontScale);
  /** Whether a panel's title fits over the plot, by the average glyph advance. */
  const fits = (title: string) => title.length * charW <= plotW + MARGIN_RIGHT;
  // Compact: leader_count fills the height, small multiples too if it keeps MIN_MAIN_WITH_PANELS_H.
  const given = input.compactHeightPx;
  // A narrow plot needs a third row of fault labels; in a given height that row is the plot's (the legend
  // takes some already), and a label that does not fit is in the table.
  let faultRows = plotW < 500 && given === undefined ? 3 : 2;
  const legendOf = (form: LessonForm) => layoutLegend(width - MARGIN_RIGHT - 2, charW, lineH, form);
  let legend = legendOf('full');
  // On the compact chart the client panel is shorter: leader_count keeps most of the height.
  let clientH = input.clients ? PANEL_TITLE_H + COMPACT_PANEL_H + COMPACT_PANEL_GAP : 0;
  const panelCount = (input.watches ? 5 : 4) + (input.clients ? 1 : 0);
  const panelsH = panelCount * (PANEL_TITLE_H + PANEL_H + PANEL_GAP) + PANEL_GAP + BOTTOM_AXIS_H;
  const laneOf = () => legend.height + LEGEND_GAP + AXIS_H + faultRows * faultRowH;
  const withPanels = given === undefined || given - laneOf() - panelsH >= MIN_MAIN_WITH_PANELS_H;
  const compact = given !== undefined && !withPanels;
  // What the compact chart keeps under it (its client panel, the foot under the last row).
  const plotRoom = () => (given ?? 0) - laneOf() - clientH - COMPACT_FOOT_H;
  // A short box (a laptop's first screen) gives up in turn fault label rows, the lesson's forms, the client
  // panel and the key line (said in table or header) before leader_count's least height: nothing is cut off.
  if (compact) {
    const least = input.clients ? 56 : 70;
    const ladder: [rows: number, form: LessonForm, client: boolean, plot: number][] = [
      [faultRows, 'full', true, least],
      [1, 'full', true, least],
      [1, 'short', true, MIN_COMPACT_MAIN_H],
      [1, 'none', true, MIN_COMPACT_MAIN_H],
      [1, 'none', false, MIN_COMPACT_MAIN_H],
      [0, 'none', false, MIN_COMPACT_MAIN_H],
      [0, 'off', false, 0],
    ];
    for (const [rows, form, client, plot] of ladder) {
      faultRows = rows;
      legend = legendOf(form);
      if (!client) clientH = 0;
      if (plotRoom() >= plot) break;
    }
  }
  const mainTop = legend.height + LEGEND_GAP;
  const laneH = laneOf();
  // Taller on wide screens so the panel keeps a readable aspect on a projector.
  const mainH =
    given === undefined
      ? Math.round(Math.min(240, Math.max(150, width * 0.14)))
      : Math.round(
          withPanels ? Math.max(70, given - laneH - panelsH) : Math.max(MIN_COMPACT_MAIN_H, plotRoom()),
        );
  const yMax = Math.max(2, maxLeader, maxObserved);
  const yMain = yScale(mainTop, mainH, yMax, INSET);
  const mainBottom = mainTop + mainH;
  const bandEdge0 = yMain(0.5);
  const bandEdge2 = yMain(1.5);
  const noLeaderBand = { y: bandEdge0, h: mainBottom - bandEdge0 };
  const splitBrainBand = { y: mainTop, h: bandEdge2 - mainTop };
  const pagedMs = { 'no-leader': 0, 'split-brain': 0 };
  const firing: FiringRect[] = [];
  const started = startedAt(c, live?.leaderCount, nowMs);
  const startEndMs = started < 0 ? nowMs : started;
  const startX0 = Math.max(0, x(c.length ? c.atMs[0] : 0));
  const startX1 = Math.min(plotW, x(startEndMs));
  const starting =
    startX1 > startX0
      ? { startMs: c.length ? c.atMs[0] : 0, endMs: startEndMs, x: startX0, w: startX1 - startX0 }
      : null;
  for (const span of pageSpans(observedSeries, started)) {
    const x0 = Math.max(0, x(span.startMs));
    const x1 = Math.min(plotW, x(span.endMs));
    if (x1 <= x0) continue;
    pagedMs[span.kind] += Math.min(span.endMs, win.x1) - Math.max(span.startMs, win.x0);
    const band = span.kind === 'no-leader' ? noLeaderBand : splitBrainBand;
    firing.push({ ...span, x: x0, y: band.y, w: x1 - x0, h: band.h });
  }

  const axisY = mainBottom;
  const faultLaneY = axisY + AXIS_H;
  let top = faultLaneY + faultRows * faultRowH + PANEL_GAP;
  const nextPanelTop = () => {
    const t = top + PANEL_TITLE_H;
    top = t + PANEL_H + PANEL_GAP;
    return t;
  };
  /** The next small multiple's place, and its y scale up to `max`. */
  const nextPanel = (max: number) => {
    const t = nextPanelTop();
    return [{ top: t, height: PANEL_H }, yScale(t, PANEL_H, max)] as const;
  };

  const binMs = chooseBinMs(win.x1 - win.x0, plotW);
  const barW = Math.max(1, x(win.x0 + binMs) - x(win.x0) - 1);

  // Clients: failed writes per second as bars, served writes' mean latency a line on its own scale.
  let clientPanel: Panel | null = null;
  let clientFacts: Facts['clients'] = null;
  if (input.clients) {
    const cb = clientBins(c, win, binMs);
    const peakErrors = cb.reduce((m, b) => Math.max(m, b.errorsPerS), 0);
    const peakLatency = cb.reduce((m, b) => Math.max(m, b.latencyMs ?? 0), 0);
    const now = clientNow(c);
    clientFacts = { ...now, peakErrorsPerS: peakErrors, peakLatencyMs: peakLatency };
    const clientH = compact ? COMPACT_PANEL_H : PANEL_H;
    const clientTop = compact ? top - PANEL_GAP + COMPACT_PANEL_GAP + PANEL_TITLE_H : nextPanelTop();
    const yErr = yScale(clientTop, clientH, Math.max(1, peakErrors));
    const yLatency = yScale(clientTop, clientH, Math.max(1, peakLatency), 2);
    // A run of one interval is a short level stroke, so a lone burst of served writes shows.
    let d = '';
    let run = 0;
    for (const b of [...cb, null]) {
      if (!b || b.latencyMs === null) {
        if (run === 1) d += 'h3';
        run = 0;
        continue;
      }
      const px = round3(x(b.startMs + binMs / 2));
      const py = round3(yLatency(b.latencyMs));
      d += `${run ? 'L' : 'M'}${px},${py}`;
      run++;
    }
    const latencyNow = now.latencyMs === null ? 'none served' : formatDuration(now.latencyMs);
    // The title gives up, in this order, the moment's figures and the bars' and line's words, the peak, the
    // unit, what it counts (all in the table), rather than run past the chart's edge (at a projector's type).
    const titles = [
      `clients: errors per s (bars) · served write latency (mean, peak ${formatDuration(peakLatency)}) · now ${formatRate(now.errorsPerS)}, ${latencyNow}`,
      `clients: errors/s · latency (peak ${formatDuration(peakLatency)})`,
      'clients: errors/s · latency',
      'clients: errors · latency',
    ];
    clientPanel = {
      key: 'clients',
      title: titles.find(fits) ?? 'clients',
      top: clientTop,
      height: clientH,
      yTicks: yTicksOf(yErr, Math.max(1, peakErrors), (v) => String(Math.round(v))),
      lineD: d,
      lineClass: 'metric-line-client-latency',
      bars: barsOf(
        cb.map((b) => ({ startMs: b.startMs, count: b.errorsPerS })),
        x,
        yErr,
        barW,
        'client-errors',
      ),
    };
  }
  // Given up in a short box (the ladder above): its figures are in the header.
  if (clientH === 0) clientPanel = null;

  const bins = deriveRate(c, 'fencingRejections', win, binMs);
  const peakBin = bins.reduce((m, b) => Math.max(m, b.count), 0);
  const [fencingBox, yFence] = nextPanel(Math.max(1, peakBin));
  // The titles' totals are the header's (the live figure), so a rejection between samples counts in both.
  const fencingRejections = nowOf('fencingRejections');
  const fencing: Panel = {
    key: 'fencing',
    title: `fencing rejections per ${formatDuration(binMs)} · total ${fencingRejections}`,
    ...fencingBox,
    yTicks: yTicksOf(yFence, Math.max(1, peakBin)),
    bars: barsOf(bins, x, yFence, barW),
  };

  const transitions = series('leaderTransitions');
  const maxTransitions = Math.max(1, extent(transitions)[1]);
  const [transBox, yTrans] = nextPanel(maxTransitions);
  const transPanel: Panel = {
    key: 'transitions',
    title: `leadership transitions · ${nowOf('leaderTransitions')}`,
    ...transBox,
    yTicks: yTicksOf(yTrans, maxTransitions),
    lineD: path(transitions, x, yTrans, 'step'),
    lineClass: 'metric-line-transitions',
    bars: [],
  };

  // ZooKeeper's watches per interval: notifications sent (filled) and the reads they triggered (outlined),
  // side by side; 1 per change of leader with the recipe, N - 1 with the herd. Bars: each is a burst.
  let watchPanel: Panel | null = null;
  let peakNotifications = 0;
  let peakReads = 0;
  if (input.watches) {
    const notified = deriveRate(c, 'watchNotifications', win, binMs);
    const read = deriveRate(c, 'watchReads', win, binMs);
    peakNotifications = notified.reduce((m, b) => Math.max(m, b.count), 0);
    peakReads = read.reduce((m, b) => Math.max(m, b.count), 0);
    const peak = Math.max(1, input.watches.candidates - 1, peakNotifications, peakReads);
    const [watchBox, yWatch] = nextPanel(peak);
    // Half an interval each; at least 3 px, so a phone's 4 px interval still shows both.
    const halfW = Math.max(3, barW / 2);
    const n = nowOf('watchNotifications');
    const r = nowOf('watchReads');
    const per = formatDuration(binMs);
    const { notifications: filled, reads: outlined } = WATCH_SWATCH;
    const long = `watch notifications ${filled} and reads ${outlined} per ${per} · total ${n} and ${r}`;
    watchPanel = {
      key: 'watches',
      // The short form where the long one would run past the chart's right edge (a phone).
      title: fits(long) ? long : `watch notifications ${filled} reads ${outlined} per ${per} · ${n}, ${r}`,
      ...watchBox,
      yTicks: yTicksOf(yWatch, peak),
      bars: [
        ...barsOf(notified, x, yWatch, halfW, 'notifications'),
        ...barsOf(read, x, yWatch, halfW, 'reads', halfW),
      ],
    };
  }

  const latency = series('renewalLatencyMs');
  const peakLatency = extent(latency)[1];
  // Up to the algorithm's limit with room above it, or to the peak when it has none.
  const latTopMs = renewLimit ? renewLimit.ms : Math.max(1000, peakLatency);
  const [latBox, yLat] = nextPanel(Math.max(latTopMs * 1.15, peakLatency));
  const latPanel: Panel = {
    key: 'latency',
    title: `renewal latency · peak ${formatDuration(peakLatency)}`,
    ...latBox,
    yTicks: yTicksOf(yLat, latTopMs, durationLabel),
    lineD: path(latency, x, yLat, 'linear'),
    lineClass: 'metric-line-latency',
    bars: [],
    refLine: renewLimit ? { y: yLat(renewLimit.ms), label: renewLimit.label } : null,
  };

  const without = series('msWithoutLeader');
  const maxWithout = Math.max(1000, extent(without)[1]);
  const [withoutBox, yWithout] = nextPanel(maxWithout);
  const msWithoutLeader = nowOf('msWithoutLeader');
  const withoutTitle = `time without a leader (observed 0, after start-up) · ${formatSeconds(msWithoutLeader)}`;
  const withoutPanel: Panel = {
    key: 'without',
    title: fits(withoutTitle) ? withoutTitle : `time without a leader · ${formatSeconds(msWithoutLeader)}`,
    ...withoutBox,
    yTicks: yTicksOf(yWithout, maxWithout, durationLabel),
    // Linear: the total grows continuously in an outage; a step would make a decimated ramp a staircase.
    lineD: path(without, x, yWithout, 'linear'),
    lineClass: 'metric-line-without',
    bars: [],
  };

  const bottomAxisY = compact
    ? clientPanel
      ? clientPanel.top + clientPanel.height
      : faultLaneY + faultRows * faultRowH
    : top - PANEL_GAP;
  const tickCount = Math.max(2, Math.floor(plotW / 70));
  const xTicks = timeTicks(win, tickCount).map((t) => {
    const tick: Tick = { pos: x(t), label: formatTick(t, win.x1 - win.x0) };
    // Centred unless that runs past the chart's edge: at a projector's type "60 s" outgrows the margin.
    const over = tick.pos + (tick.label.length * charW) / 2 - (plotW + MARGIN_RIGHT - 1);
    return over > 0 ? { ...tick, labelDx: -Math.ceil(over) } : tick;
  });
  const faultEvents = faultsIn(faults, win);
  const observedNow = nowOf('leaderCountObserved');
  // The dashboard pages on the observed line, but not while the cluster elects its first leader.
  const pagingNow = started < 0 ? 'none' : pagingOf(observedNow);
  const placed = layoutLabels(
    faultEvents.map((ev) => ({ x: x(ev.atMs), label: faultLabel(ev) })),
    plotW,
    faultRows,
    charW,
  );

  return {
    nowMs,
    width,
    height: compact ? bottomAxisY + COMPACT_FOOT_H : bottomAxisY + BOTTOM_AXIS_H,
    compact,
    marginLeft: MARGIN_LEFT,
    plotW,
    legend,
    main: {
      top: mainTop,
      height: mainH,
      observedD: path(observedSeries, x, yMain, 'step'),
      believedD: path(believedSeries, x, yMain, 'step'),
      yTicks: yMain
        .ticks(yMax)
        .filter(Number.isInteger)
        .map((v) => ({ pos: yMain(v), label: String(v) })),
      healthyY: yMain(1),
      noLeaderBand,
      splitBrainBand,
      firing,
      starting,
    },
    axisY,
    bottomAxisY,
    xTicks,
    faultRows,
    faults: placed.map((p, i) => ({
      ...p,
      atMs: faultEvents[i].atMs,
      labelY: faultLaneY + p.row * faultRowH + Math.round(12 * fontScale),
    })),
    panels: [
      clientPanel,
      ...(compact ? [] : [fencing, transPanel, watchPanel, latPanel, withoutPanel]),
    ].filter((p): p is Panel => p !== null),
    facts: {
      leaderCount: nowOf('leaderCount'),
      leaderCountObserved: observedNow,
      paging: pagingNow,
      fencingRejections,
      leaderTransitions: nowOf('leaderTransitions'),
      renewalLatencyMs: latest(c, 'renewalLatencyMs'),
      msWithoutLeader,
      minLeaderCount: minLeader,
      maxLeaderCount: maxLeader,
      minObserved,
      maxObserved,
      pagedMs,
      peakRejectionsPerBin: peakBin,
      peakLatencyMs: peakLatency,
      binMs,
      renewLimit,
      watchNotifications: input.watches ? nowOf('watchNotifications') : null,
      watchReads: input.watches ? nowOf('watchReads') : null,
      peakNotificationsPerBin: peakNotifications,
      peakReadsPerBin: peakReads,
      clients: clientFacts,
    },
    windowMs: win,
    observedSeries,
    believedSeries,
  };
}

/** The chart's text alternative: both lines, what pages, and the counter that sees a zombie. */
export function ariaSummary(f: Facts): string {
  const rejections = `${f.fencingRejections} fencing rejection${f.fencingRejections === 1 ? '' : 's'}`;
  const counts = `leader_count observed ${f.leaderCountObserved}, believed ${f.leaderCount}`;
  const text = `${counts}; ${pagingText(f.paging)}; ${rejections}; ${formatSeconds(f.msWithoutLeader)} without a leader`;
  const withWatches = f.watchNotifications === null ? text : `${text}; ${watchText(f)}`;
  return f.clients ? `${withWatches}; ${clientText(f.clients)}` : withWatches;
}

/** "clients: 60 errors/s, none served" (a run with clients only). */
export function clientText(k: NonNullable<Facts['clients']>): string {
  const latency = k.latencyMs === null ? 'none served' : `served in ${formatDuration(k.latencyMs)}`;
  return `clients: ${formatRate(k.errorsPerS)}, ${latency}`;
}

/** "8 watch notifications and 8 reads they triggered" (ZooKeeper's runs only). */
export function watchText(f: Pick<Facts, 'watchNotifications' | 'watchReads'>): string {
  const n = f.watchNotifications ?? 0;
  const r = f.watchReads ?? 0;
  return `${n} watch notification${n === 1 ? '' : 's'} and ${r} read${r === 1 ? '' : 's'} they triggered`;
}
