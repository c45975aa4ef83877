// @vitest-environment jsdom
import { Profiler } from 'react';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Sample } from '../../src/engine';
import { createLabStore, type LabStore } from '../../src/store/labStore';
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
import { ChartCache, columnsOf, type FaultEvent } from '../../scenes/MetricLineScene/sampleColumns';

afterEach(cleanup);

function sample(atMs: number, over: Partial<Sample> = {}): Sample {
  return {
    atMs,
    leaderCount: 1,
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
  return createLabStore({ experiment: { seed: 1, nodes: 5 }, playing: false });
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
    renewDeadlineMs: sim.experiment.lease!.renewDeadlineMs,
    mode,
    widthPx: 640,
  });
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

    const series = chartOf(store).leaderSeries;
    // The series is a step function: each point holds until the next one.
    const valueAt = (t: number) => series.filter((p) => p.atMs <= t).at(-1)!.value;
    for (let t = fault.atMs + 200; t < elected.atMs - 200; t += 100) expect(valueAt(t)).toBe(0);
    for (let t = 1000; t < fault.atMs; t += 100) expect(valueAt(t)).toBe(1);
    for (let t = elected.atMs + 200; t <= sim.nowMs; t += 100) expect(valueAt(t)).toBe(1);

    const { container } = render(
      <LabProvider store={store}>
        <MetricLineScene />
      </LabProvider>,
    );
    const svg = screen.getByRole('img');
    const outage = /^leader_count is 1; 0 fencing rejections; (\d+\.\d) s without a leader$/.exec(
      svg.getAttribute('aria-label')!,
    );
    expect(Number(outage![1])).toBeGreaterThan(5);
    expect(screen.getByText(/time without a leader:/).textContent).toContain(`${outage![1]} s`);

    // In the drawn path, the lowest level (0) is held across roughly the 13 s outage.
    const d = container.querySelector('path.metric-line-leader')!.getAttribute('d')!;
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
      expect(screen.getByRole('img').getAttribute('aria-label')).toMatch(/^leader_count is 0;/),
    );
    expect(document.querySelector('.metric-fault')!.textContent).toMatch(/^kill n\d$/);
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
      /^leader_count is 1; 0 fencing rejections; 0\.\d s/,
    );
  });
});
