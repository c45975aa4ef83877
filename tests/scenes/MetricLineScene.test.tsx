// @vitest-environment jsdom
import { Profiler } from 'react';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renewLimitOf, watchCountsOf, type Sample } from '../../src/engine';
import { createLabStore, type LabStore } from '../../src/store/labStore';
import { gateLab } from '../../src/store/gate';
import { LabProvider } from '../../src/store/context';
import { MetricLineScene } from '../../scenes/MetricLineScene/MetricLineScene';
import { buildChart } from '../../scenes/MetricLineScene/chartModel';
import { REDRAW_EVERY_MS } from '../../scenes/MetricLineScene/useMetricChart';
import {
  decimateMinMax,
  deriveRate,
  faultLabel,
  layoutLabels,
  seriesOf,
  timeWindow,
} from '../../scenes/MetricLineScene/metricModel';
import { ChartCache, type FaultEvent } from '../../scenes/MetricLineScene/sampleColumns';
import { columnsOf } from './columns';
import { LESSON } from '../../scenes/MetricLineScene/leaderLines';
import { parseScenario } from '../../src/scenario/schema';
import gcPauseLong from '../../scenes/scenarios/04-gc-pause-long.json';
import zkPredecessor from '../../scenes/scenarios/18a-zookeeper-watch-predecessor.json';
import zkHerd from '../../scenes/scenarios/18b-zookeeper-herd-effect.json';

afterEach(cleanup);

function sample(atMs: number, over: Partial<Sample> = {}): Sample {
  return {
    atMs,
    leaderCount: 1,
    leaderCountObserved: 1,
    maxTerm: 1,
    maxTokenSeen: 1,
    fencingRejections: 0,
    staleWritesAccepted: 0,
    divergentWrites: 0,
    leaderTransitions: 0,
    renewalLatencyMs: 10,
    msWithoutLeader: 0,
    clientRedirects: 0,
    ...over,
  };
}

function lab(): LabStore {
  return createLabStore({ experiment: { algorithm: 'k8s-lease', seed: 1, nodes: 5 }, playing: false });
}

function killScenario(): LabStore {
  const store = lab();
  store.getState().advanceBy(20000);
  store.getState().command({ do: 'kill', node: 'leader' });
  store.getState().advanceBy(30000);
  return store;
}

function pauseScenario(): LabStore {
  const store = lab();
  store.getState().advanceBy(20000);
  store.getState().command({ do: 'pause', node: 'leader', forMs: 30000 });
  store.getState().advanceBy(60000);
  return store;
}

function chartOf(store: LabStore, mode: 'recent' | 'whole' = 'whole') {
  const sim = store.backend();
  const cache = new ChartCache().sync(sim);
  return buildChart({
    columns: cache.columns,
    faults: cache.faults,
    nowMs: sim.nowMs,
    renewLimit: renewLimitOf(sim.experiment),
    mode,
    widthPx: 640,
  });
}

/** The value a step series holds at t (each point holds until the next one). */
function stepAt(series: readonly { atMs: number; value: number }[], t: number): number {
  return series.filter((p) => p.atMs <= t).at(-1)!.value;
}

/** [x, y] vertices of an SVG path made of M/L commands (what d3's step and linear curves emit). */
function vertices(d: string): [number, number][] {
  return [...d.matchAll(/[ML]\s*(-?[\d.e-]+)[ ,](-?[\d.e-]+)/g)].map((m) => [Number(m[1]), Number(m[2])]);
}

describe('metricModel', () => {
  it('decimation keeps a one-sample dip to 0 and spike to 2 among 20 000 samples', () => {
    const samples = Array.from({ length: 20_000 }, (_, i) =>
      sample(i * 100, { leaderCount: i === 7_321 ? 0 : i === 15_007 ? 2 : 1 }),
    );
    const win = { x0: 0, x1: 1_999_900 };
    const c = columnsOf(samples);
    const idx = decimateMinMax(c.atMs, c.values.leaderCount, 0, samples.length - 1, win, 300);
    expect(idx.length).toBeLessThanOrEqual(2 * 300 + 2);
    expect(idx).toContain(7_321);
    expect(idx).toContain(15_007);
    expect(idx).toEqual([...idx].sort((a, b) => a - b));
    expect(idx[0]).toBe(0);
    expect(idx[idx.length - 1]).toBe(samples.length - 1);
    const values = seriesOf(c, 'leaderCount', win, win.x1, 300).map((p) => p.value);
    expect(values).toContain(0);
    expect(values).toContain(2);
  });

  it('decimation leaves short series untouched', () => {
    const samples = [0, 1, 2, 3].map((i) => sample(i * 100));
    const c = columnsOf(samples);
    expect(decimateMinMax(c.atMs, c.values.leaderCount, 0, 3, { x0: 0, x1: 300 }, 10)).toEqual([0, 1, 2, 3]);
  });

  it('a series holds about one point per pixel however long the run', () => {
    const samples = Array.from({ length: 50_000 }, (_, i) => sample(i * 100, { leaderCount: i % 3 }));
    const win = timeWindow('whole', 5_000_000, 0);
    const points = seriesOf(columnsOf(samples), 'leaderCount', win, 5_000_000, 250);
    expect(points.length).toBeLessThanOrEqual(503);
    expect(Math.min(...points.map((p) => p.value))).toBe(0);
    expect(Math.max(...points.map((p) => p.value))).toBe(2);
  });

  it('derives a per-interval rate from a cumulative counter, back to 0 once it stops rising', () => {
    const cumulative = [0, 0, 0, 3, 5, 5, 5, 5, 2, 2];
    const samples = cumulative.map((v, i) => sample(i * 500, { fencingRejections: v }));
    const bins = deriveRate(columnsOf(samples), 'fencingRejections', { x0: 0, x1: 4500 }, 1000);
    expect(bins.map((b) => b.startMs)).toEqual([0, 1000, 2000, 3000, 4000]);
    // +3 at 1500 ms, +2 at 2000 ms; the drop at 4000 ms (a replayed run) is not a negative rate.
    expect(bins.map((b) => b.count)).toEqual([0, 3, 2, 0, 0]);
  });

  it('the column cache appends new samples, follows front trims and starts over after a rewind', () => {
    const samples = [0, 1, 2].map((i) => sample(i * 100, { leaderCount: i }));
    const src = { samples, samplesTotal: 3, events: [], eventsTotal: 0 };
    const cache = new ChartCache();
    const counts = () =>
      Array.from(cache.sync(src).columns.values.leaderCount.subarray(0, cache.columns.length));
    expect(counts()).toEqual([0, 1, 2]);
    samples.push(sample(300, { leaderCount: 2 }));
    src.samplesTotal = 4;
    expect(counts()).toEqual([0, 1, 2, 2]);
    // A seek back cuts the array and replays a different future of the same length.
    samples.length = 2;
    samples.push(sample(200, { leaderCount: 0 }), sample(300, { leaderCount: 0 }));
    expect(counts()).toEqual([0, 1, 0, 0]);
    // The engine's bound drops the oldest samples from the front while the run goes on.
    samples.splice(0, 3);
    samples.push(sample(400, { leaderCount: 1 }));
    src.samplesTotal = 5;
    expect(counts()).toEqual([0, 1]);
    expect(Array.from(cache.columns.atMs.subarray(0, 2))).toEqual([300, 400]);
  });

  it('the recent window is pinned to the first minute, then scrolls with now', () => {
    expect(timeWindow('recent', 12_000, 0)).toEqual({ x0: 0, x1: 60_000 });
    expect(timeWindow('recent', 95_000, 0)).toEqual({ x0: 35_000, x1: 95_000 });
    expect(timeWindow('whole', 95_000, 0)).toEqual({ x0: 0, x1: 95_000 });
  });

  it('labels faults briefly and keeps neighbouring labels from overlapping', () => {
    const ev = (fault: FaultEvent['fault'], target?: string): FaultEvent => ({
      atMs: 0,
      type: 'fault',
      fault,
      target,
    });
    expect(faultLabel(ev({ atMs: 0, do: 'kill', node: 'leader' }, 'n2'))).toBe('kill n2');
    expect(faultLabel(ev({ atMs: 0, do: 'pause', node: 'n1', forMs: 30000 }, 'n1'))).toBe('pause n1 30 s');
    expect(faultLabel(ev({ atMs: 0, do: 'partition', groups: [['n1'], ['n2']] }))).toBe('partition');
    expect(faultLabel(ev({ atMs: 0, do: 'heal' }))).toBe('heal');
    const placed = layoutLabels(
      [
        { x: 10, label: 'kill n2' },
        { x: 20, label: 'heal' },
        { x: 30, label: 'partition' },
        { x: 295, label: 'heal' },
      ],
      300,
      2,
      7,
    );
    expect(placed.map((p) => [p.row, p.shown])).toEqual([
      [0, true],
      [1, true],
      [0, false],
      [0, true],
    ]);
    expect(placed[3].anchor).toBe('end');
  });
});

describe('MetricLineScene', () => {
  it('shows a stretch of leader_count 0 between the kill and the re-election, and ends at 1', () => {
    const store = killScenario();
    const sim = store.backend();
    const fault = sim.events.find((e) => e.type === 'fault')!;
    const elected = sim.events.filter((e) => e.type === 'elected').at(-1)!;
    expect(elected.atMs).toBeGreaterThan(fault.atMs + 5000);

    // A killed leader is gone from both lines at once: nobody believes, nobody answers a scrape.
    const chart = chartOf(store);
    for (const series of [chart.believedSeries, chart.observedSeries]) {
      const valueAt = (t: number) => stepAt(series, t);
      for (let t = fault.atMs + 200; t < elected.atMs - 200; t += 100) expect(valueAt(t)).toBe(0);
      for (let t = 1000; t < fault.atMs; t += 100) expect(valueAt(t)).toBe(1);
      for (let t = elected.atMs + 200; t <= sim.nowMs; t += 100) expect(valueAt(t)).toBe(1);
    }

    const { container } = render(
      <LabProvider store={store}>
        <MetricLineScene />
      </LabProvider>,
    );
    const svg = screen.getByRole('img');
    const outage =
      /^leader_count observed 1, believed 1; no page; 0 fencing rejections; (\d+\.\d) s without a leader$/.exec(
        svg.getAttribute('aria-label')!,
      );
    expect(Number(outage![1])).toBeGreaterThan(5);
    expect(screen.getByText(/time without a leader:/).textContent).toContain(`${outage![1]} s`);

    // In the drawn path, the lowest level (0) is held across roughly the 13 s outage.
    const d = container.querySelector('path.metric-line-observed')!.getAttribute('d')!;
    const pts = vertices(d);
    expect(pts.length).toBeGreaterThan(4);
    const zeroY = Math.max(...pts.map((p) => p[1]));
    const xs = pts.map((p) => p[0]);
    const pxPerMs = (Math.max(...xs) - Math.min(...xs)) / sim.nowMs;
    let longest = 0;
    let runStart = -1;
    pts.forEach(([x, y]) => {
      if (y !== zeroY) return void (runStart = -1);
      if (runStart < 0) runStart = x;
      longest = Math.max(longest, x - runStart);
    });
    expect(longest / pxPerMs).toBeGreaterThan(12_000);

    const faults = container.querySelectorAll('.metric-fault');
    expect(faults).toHaveLength(1);
    expect(faults[0].textContent).toMatch(/^kill n\d$/);
    expect(screen.getByRole('region', { name: 'leader_count' })).toBeTruthy();
  });

  it('a 30 s GC pause of the leader counts fencing rejections, and the rate returns to 0', () => {
    const store = pauseScenario();
    render(
      <LabProvider store={store}>
        <MetricLineScene />
      </LabProvider>,
    );
    const label = screen.getByRole('img').getAttribute('aria-label')!;
    const rejections = Number(/(\d+) fencing rejections?/.exec(label)![1]);
    expect(rejections).toBeGreaterThan(0);
    expect(document.querySelector('.metric-fault')!.textContent).toMatch(/^pause n\d 30 s$/);

    const sim = store.backend();
    const bins = deriveRate(
      columnsOf(sim.samples),
      'fencingRejections',
      timeWindow('whole', sim.nowMs, 0),
      1000,
    );
    const firstRise = bins.findIndex((b) => b.count > 0);
    expect(firstRise).toBeGreaterThan(20);
    expect(bins.reduce((n, b) => n + b.count, 0)).toBe(rejections);
    expect(bins.slice(-10).every((b) => b.count === 0)).toBe(true);
    // The bars are drawn, and the panel title carries the running total.
    expect(document.querySelectorAll('.metric-bar').length).toBeGreaterThan(0);
    expect(screen.getByText(new RegExp(`fencing rejections per 1 s · total ${rejections}`))).toBeTruthy();
  });

  it('switches between the recent window and the whole run', () => {
    const store = lab();
    store.getState().advanceBy(150_000);
    render(
      <LabProvider store={store}>
        <MetricLineScene />
      </LabProvider>,
    );
    const group = screen.getByRole('group', { name: 'Time range' });
    const recent = within(group).getByRole('button', { name: 'Last 60 s' });
    const whole = within(group).getByRole('button', { name: 'Whole run' });
    expect(recent.getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('table').querySelector('caption')!.textContent).toMatch(/from 90 s to 150 s/);
    fireEvent.click(whole);
    expect(whole.getAttribute('aria-pressed')).toBe('true');
    expect(recent.getAttribute('aria-pressed')).toBe('false');
    expect(screen.getByRole('table').querySelector('caption')!.textContent).toMatch(/from 0 s to 150 s/);
  });

  it('follows the lab as it runs, with a handful of renders rather than one per frame', async () => {
    const store = lab();
    store.getState().advanceBy(20000);
    let commits = 0;
    render(
      <Profiler id="chart" onRender={() => commits++}>
        <LabProvider store={store}>
          <MetricLineScene />
        </LabProvider>
      </Profiler>,
    );
    const before = commits;
    act(() => void store.getState().command({ do: 'kill', node: 'leader' }));
    // Sixty frames of a playing lab, back to back, each one flushed as a browser frame would be.
    const started = performance.now();
    for (let i = 0; i < 60; i++) act(() => store.getState().advanceBy(16));
    // At most one redraw per REDRAW_EVERY_MS of wall time (a slow machine gets a few more).
    const allowed = 1 + Math.ceil((performance.now() - started) / REDRAW_EVERY_MS);
    expect(commits - before).toBeLessThanOrEqual(Math.min(allowed, 10));
    // The trailing redraw brings the chart up to date without any further store update.
    await waitFor(() =>
      expect(screen.getByRole('img').getAttribute('aria-label')).toMatch(
        /^leader_count observed 0, believed 0; paging: no leader;/,
      ),
    );
    expect(document.querySelector('.metric-fault')!.textContent).toMatch(/^kill n\d$/);
  });

  it('drawn while its scene was hidden, shows the moment once shown again, not the last sample', async () => {
    const store = lab();
    const gate = gateLab(store);
    render(
      <LabProvider store={gate.store}>
        <MetricLineScene />
      </LabProvider>,
    );
    const label = () => screen.getByRole('img').getAttribute('aria-label');
    // The leader dies at 20 s, after that moment's sample (which still counts it).
    act(() => {
      store.getState().advanceBy(20000);
      store.getState().command({ do: 'kill', node: 'leader' });
    });
    gate.setVisible(false);
    // Hidden, the run goes on 10 ms (no sample, no event); a draw then (the range switched) has
    // the run's clock and totals but the frame held at 20 s, so the last sample's figures.
    act(() => store.getState().advanceBy(10));
    fireEvent.click(screen.getByRole('button', { name: 'Whole run' }));
    expect(label()).toMatch(/^leader_count observed 1, believed 1;/);
    act(() => gate.setVisible(true));
    await waitFor(() => expect(label()).toMatch(/^leader_count observed 0, believed 0;/));
  });

  it('reads the replaced engine after a reset', async () => {
    const store = killScenario();
    render(
      <LabProvider store={store}>
        <MetricLineScene />
      </LabProvider>,
    );
    expect(document.querySelectorAll('.metric-fault')).toHaveLength(1);
    act(() => {
      store.getState().reset();
      store.getState().advanceBy(5000);
    });
    await waitFor(() => expect(document.querySelectorAll('.metric-fault')).toHaveLength(0));
    expect(screen.getByRole('img').getAttribute('aria-label')).toMatch(
      /^leader_count observed 1, believed 1; no page; 0 fencing rejections; 0\.\d s/,
    );
  });
});

describe('chart on the lab first screen', () => {
  it("ends on the moment's own leader_count, not the last sample's, and says it is now", () => {
    const store = lab();
    store.getState().advanceBy(20000);
    const sim = store.backend();
    const cache = new ChartCache().sync(sim);
    const input = {
      columns: cache.columns,
      faults: cache.faults,
      nowMs: sim.nowMs,
      renewLimit: renewLimitOf(sim.experiment),
      mode: 'whole' as const,
      widthPx: 640,
    };
    // The samples say 1; the moment (between two samples) says 2 believed and 0 observed.
    const live = {
      leaderCount: 2,
      leaderCountObserved: 0,
      fencingRejections: 0,
      leaderTransitions: 1,
      msWithoutLeader: 0,
    };
    const chart = buildChart({ ...input, live });
    expect(chart.facts.leaderCount).toBe(2);
    expect(chart.facts.leaderCountObserved).toBe(0);
    expect(chart.facts.paging).toBe('no-leader');
    expect(chart.believedSeries.at(-1)).toEqual({ atMs: sim.nowMs, value: 2 });
    expect(chart.observedSeries.at(-1)).toEqual({ atMs: sim.nowMs, value: 0 });
    const sampled = buildChart(input).facts;
    expect([sampled.leaderCount, sampled.leaderCountObserved, sampled.paging]).toEqual([1, 1, 'none']);
  });

  it('compact: leader_count alone, as tall as it is given', () => {
    const store = killScenario();
    const sim = store.backend();
    const cache = new ChartCache().sync(sim);
    const chart = buildChart({
      columns: cache.columns,
      faults: cache.faults,
      nowMs: sim.nowMs,
      renewLimit: renewLimitOf(sim.experiment),
      mode: 'whole',
      widthPx: 640,
      compactHeightPx: 240,
    });
    expect(chart.compact).toBe(true);
    expect(chart.panels).toEqual([]);
    expect(chart.height).toBeLessThanOrEqual(240);
    expect(chart.height).toBeGreaterThan(200);
  });
});

describe('two leader_count lines: believed and observed', () => {
  /** The long GC-pause game day (k8s-lease): n1 frozen 9 s to 39 s, n2 takes the Lease at about 26 s. */
  function gcPauseLab(untilMs: number): LabStore {
    const parsed = parseScenario(gcPauseLong);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    const store = createLabStore({ experiment: parsed.scenario.experiment, playing: false });
    store.getState().advanceBy(untilMs);
    return store;
  }

  function sceneOf(store: LabStore) {
    return render(
      <LabProvider store={store}>
        <MetricLineScene />
      </LabProvider>,
    );
  }

  it('while the frozen zombie still believes, believed is 2 and observed 1, and nothing pages', () => {
    const store = gcPauseLab(32_000);
    const chart = chartOf(store);
    // The moment shown: n2 leads, n1 is paused and believes it leads.
    expect(chart.facts.leaderCount).toBe(2);
    expect(chart.facts.leaderCountObserved).toBe(1);
    expect(chart.facts.paging).toBe('none');
    expect(stepAt(chart.believedSeries, 30_000)).toBe(2);
    expect(stepAt(chart.observedSeries, 30_000)).toBe(1);
    // The believed line is in the split-brain band, but the band does not fire: the scrape sees one.
    expect(chart.facts.maxLeaderCount).toBe(2);
    expect(chart.facts.maxObserved).toBe(1);
    expect(chart.main.firing.filter((f) => f.kind === 'split-brain')).toEqual([]);
    // Earlier in the pause the scrape saw no leader at all (believed 1): the no-leader band fired.
    expect(stepAt(chart.believedSeries, 20_000)).toBe(1);
    expect(stepAt(chart.observedSeries, 20_000)).toBe(0);
    const noLeader = chart.main.firing.filter((f) => f.kind === 'no-leader' && f.startMs >= 9000);
    expect(noLeader).toHaveLength(1);
    expect(noLeader[0].startMs).toBe(9000);
    expect(noLeader[0].endMs).toBeGreaterThan(25_000);
    expect(noLeader[0].endMs).toBeLessThan(28_000);
  });

  it('the split-brain band fires only once the zombie wakes and the scrape sees it', () => {
    const chart = chartOf(gcPauseLab(60_000));
    const split = chart.main.firing.filter((f) => f.kind === 'split-brain');
    expect(split.map((f) => [f.startMs, f.endMs])).toEqual([[39_000, 49_000]]);
    // The believed line was at 2 well before that, from the takeover at about 26 s.
    const believed2 = chart.believedSeries.find((p) => p.value === 2)!;
    expect(believed2.atMs).toBeLessThan(28_000);
    expect(chart.facts.pagedMs['split-brain']).toBe(10_000);
    expect(chart.facts.fencingRejections).toBe(10);
    expect(chart.facts.paging).toBe('none');
  });

  it('draws both lines, labelled, and a firing band where observed pages', () => {
    const store = gcPauseLab(32_000);
    const { container } = sceneOf(store);
    const observed = container.querySelector('path.metric-line-observed')!;
    const believed = container.querySelector('path.metric-line-believed')!;
    expect(observed.getAttribute('d')).toMatch(/^M/);
    expect(believed.getAttribute('d')).toMatch(/^M/);
    // They part: believed ends higher (SVG y grows downwards).
    const endY = (d: string) => vertices(d).at(-1)![1];
    expect(endY(believed.getAttribute('d')!)).toBeLessThan(endY(observed.getAttribute('d')!));
    // The legend is inside the SVG, so an exported image keeps it.
    const legend = container.querySelector('svg .metric-legend')!;
    expect(legend.querySelector('.metric-key-observed')!.textContent).toBe('observed (pages)');
    expect(legend.querySelector('.metric-key-believed')!.textContent).toBe('believed (paused included)');
    expect([...legend.querySelectorAll('.metric-lesson')].map((t) => t.textContent).join(' ')).toBe(LESSON);
    // The firing stretch of the no-leader band is the pause, not the believed line's level.
    const firing = [...container.querySelectorAll('.metric-firing-no-leader')].map((r) =>
      Number(r.getAttribute('data-start-ms')),
    );
    expect(firing).toContain(9000);
    expect(container.querySelectorAll('.metric-firing-split-brain')).toHaveLength(0);

    const section = screen.getByRole('region', { name: 'leader_count' });
    expect(section.dataset).toMatchObject({ observed: '1', believed: '2', paging: 'none' });
    expect(screen.getByRole('img').getAttribute('aria-label')).toMatch(
      /^leader_count observed 1, believed 2; no page; 0 fencing rejections;/,
    );
    const table = within(screen.getByRole('table'));
    expect(table.getByRole('rowheader', { name: /leader_count observed/ })).toBeTruthy();
    expect(table.getByRole('rowheader', { name: /leader_count believed/ })).toBeTruthy();
    expect(screen.getByRole('table').textContent).toContain(LESSON);
  });

  it('says paging on no leader while the frozen leader is the only one that believes', () => {
    sceneOf(gcPauseLab(20_000));
    const section = screen.getByRole('region', { name: 'leader_count' });
    expect(section.dataset).toMatchObject({ observed: '0', believed: '1', paging: 'no-leader' });
    expect(screen.getByRole('img').getAttribute('aria-label')).toMatch(
      /^leader_count observed 0, believed 1; paging: no leader;/,
    );
  });
});

describe("the watch panel: ZooKeeper's notifications and the reads they trigger", () => {
  /** A game day's experiment, run to its end in a lab store, as the page runs it. */
  function gameDay(scenario: unknown): LabStore {
    const parsed = parseScenario(scenario);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
    const store = createLabStore({ experiment: parsed.scenario.experiment, playing: false });
    store.getState().advanceBy(parsed.scenario.experiment.untilMs!);
    return store;
  }

  function modelOf(store: LabStore, widthPx = 640) {
    const sim = store.backend();
    const cache = new ChartCache().sync(sim);
    return buildChart({
      columns: cache.columns,
      faults: cache.faults,
      nowMs: sim.nowMs,
      renewLimit: renewLimitOf(sim.experiment),
      watches: watchCountsOf(sim.experiment) ? { candidates: sim.experiment.nodes } : undefined,
      mode: 'whole',
      widthPx,
    });
  }

  for (const [name, scenario, perChange] of [
    ['18b, the herd (every candidate watches the leader)', zkHerd, 8],
    ['18a, the recipe (each watches its predecessor)', zkPredecessor, 1],
  ] as const) {
    it(`game day ${name}: ${perChange} notification(s) and ${perChange} read(s) for its one change of leader`, () => {
      const store = gameDay(scenario);
      const sim = store.backend();
      expect(sim.trace().summary.failovers).toHaveLength(1);
      const chart = modelOf(store);
      expect(chart.panels.map((p) => p.key)).toEqual([
        'fencing',
        'transitions',
        'watches',
        'latency',
        'without',
      ]);
      const panel = chart.panels.find((p) => p.key === 'watches')!;
      expect(panel.title).toBe(
        `watch notifications \u25A0 and reads \u25A1 per 1 s · total ${perChange} and ${perChange}`,
      );
      // The ensemble deletes the leader's znode and notifies its watchers at once: one bar; the
      // reads follow a round trip or two later, in the next second.
      const notified = panel.bars.filter((b) => b.kind === 'notifications');
      const read = panel.bars.filter((b) => b.kind === 'reads');
      expect(notified).toHaveLength(1);
      expect(read).toHaveLength(1);
      expect(chart.facts).toMatchObject({
        watchNotifications: perChange,
        watchReads: perChange,
        peakNotificationsPerBin: perChange,
        peakReadsPerBin: perChange,
      });
      const elected = sim.events.filter((e) => e.type === 'elected').at(-1)!;
      expect(notified[0].startMs).toBeLessThanOrEqual(elected.atMs);
      expect(read[0].startMs).toBeGreaterThanOrEqual(notified[0].startMs);
      expect(read[0].startMs).toBeLessThanOrEqual(elected.atMs);
      // The axis reaches the herd's count, 8 for 9 candidates, in both: the recipe's bar is an
      // eighth of the herd's, not the same height on an axis of its own.
      expect(panel.yTicks.map((t) => t.label)).toEqual(['0', '8']);
      expect(notified[0].h / panel.height).toBeCloseTo(perChange / 8, 5);
      expect(read[0].h).toBeCloseTo(notified[0].h, 5);
      // A phone's narrower chart keeps the numbers in a shorter title.
      expect(modelOf(store, 330).panels.find((p) => p.key === 'watches')!.title).toBe(
        `watch notifications \u25A0 reads \u25A1 per 1 s · ${perChange}, ${perChange}`,
      );
    });

    it(`draws game day ${name.slice(0, 3)}'s watch bars, keyed and counted, in the page's chart`, () => {
      const { container } = render(
        <LabProvider store={gameDay(scenario)}>
          <MetricLineScene />
        </LabProvider>,
      );
      const panel = container.querySelector('.metric-panel-watches')!;
      expect(panel.querySelector('.metric-panel-title')!.textContent).toBe(
        `watch notifications \u25A0 and reads \u25A1 per 1 s · total ${perChange} and ${perChange}`,
      );
      // The title's squares are the key: coloured as the bars they stand for.
      expect(panel.querySelector('.metric-swatch-notifications')!.textContent).toBe('\u25A0');
      expect(panel.querySelector('.metric-swatch-reads')!.textContent).toBe('\u25A1');
      expect(panel.querySelectorAll('rect.metric-bar-notifications')).toHaveLength(1);
      expect(panel.querySelectorAll('rect.metric-bar-reads')).toHaveLength(1);
      const s = perChange === 1 ? '' : 's';
      expect(screen.getByRole('img').getAttribute('aria-label')).toMatch(
        new RegExp(`; ${perChange} watch notification${s} and ${perChange} read${s} they triggered$`),
      );
      expect(screen.getByTestId('metric-watches').textContent).toBe(
        `watch notifications: ${perChange}, reads: ${perChange}`,
      );
      const row = within(screen.getByRole('table'))
        .getByRole('rowheader', { name: /watch notifications/ })
        .closest('tr')!;
      expect(row.textContent).toContain(`${perChange} notifications and ${perChange} reads in total`);
      expect(row.textContent).toContain(`at most ${perChange} notifications and ${perChange} reads per 1 s`);
    });
  }

  it('is absent under every other algorithm, whose samples carry no watch counts', () => {
    for (const algorithm of ['raft', 'k8s-lease', 'etcd-election', 'bully'] as const) {
      const store = createLabStore({ experiment: { algorithm, seed: 1, nodes: 3 }, playing: false });
      store.getState().advanceBy(5000);
      expect(watchCountsOf(store.backend().experiment), algorithm).toBe(false);
      expect(Object.keys(store.backend().samples[0]), algorithm).not.toContain('watchNotifications');
      const chart = modelOf(store);
      expect(chart.panels.map((p) => p.key)).toEqual(['fencing', 'transitions', 'latency', 'without']);
      expect([chart.facts.watchNotifications, chart.facts.watchReads]).toEqual([null, null]);
    }
    const { container } = render(
      <LabProvider store={lab()}>
        <MetricLineScene />
      </LabProvider>,
    );
    expect(container.querySelector('.metric-panel-watches')).toBeNull();
    expect(screen.queryByTestId('metric-watches')).toBeNull();
    expect(screen.getByRole('img').getAttribute('aria-label')).not.toMatch(/watch/);
  });

  it('the column cache reads a sample without watch counts as 0', () => {
    const c = columnsOf([sample(0), sample(100, { watchNotifications: 3, watchReads: 2 })]);
    expect(Array.from(c.values.watchNotifications.subarray(0, 2))).toEqual([0, 3]);
    expect(Array.from(c.values.watchReads.subarray(0, 2))).toEqual([0, 2]);
  });

  it('leaves the compact chart as leader_count alone, and gives the panel room when tall enough', () => {
    const store = gameDay(zkHerd);
    const sim = store.backend();
    const cache = new ChartCache().sync(sim);
    const at = (compactHeightPx: number) =>
      buildChart({
        columns: cache.columns,
        faults: cache.faults,
        nowMs: sim.nowMs,
        renewLimit: null,
        watches: { candidates: 9 },
        mode: 'whole',
        widthPx: 640,
        compactHeightPx,
      });
    expect(at(240).panels).toEqual([]);
    const tall = at(900);
    expect(tall.panels.map((p) => p.key)).toContain('watches');
    expect(tall.height).toBeLessThanOrEqual(900);
  });
});
