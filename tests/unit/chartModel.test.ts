// The chart model's two leader_count lines on hand-made samples: which line pages, where the
// firing stretches fall, and that the legend fits the width it is given.
import { describe, expect, it } from 'vitest';
import { normalizeExperiment, renewLimitOf, type Sample } from '../../src/engine';
import { buildChart, type ChartInput } from '../../scenes/MetricLineScene/chartModel';
import {
  LESSON,
  LESSON_SHORT,
  layoutLegend,
  pageSpans,
  pagingOf,
  wrapWords,
} from '../../scenes/MetricLineScene/leaderLines';
import { columnsOf } from '../scenes/columns';

function sample(atMs: number, believed: number, observed: number): Sample {
  return {
    atMs,
    leaderCount: believed,
    leaderCountObserved: observed,
    maxTerm: 1,
    maxTokenSeen: 1,
    fencingRejections: 0,
    staleWritesAccepted: 0,
    divergentWrites: 0,
    leaderTransitions: 0,
    renewalLatencyMs: 10,
    msWithoutLeader: 0,
    clientRedirects: 0,
  };
}

/** One sample a second for 60 s: [fromS, toS) stretches set to (believed, observed), 1/1 elsewhere. */
function run(stretches: [number, number, number, number][]): Sample[] {
  return Array.from({ length: 61 }, (_, s) => {
    const hit = stretches.find(([from, to]) => s >= from && s < to);
    return sample(s * 1000, hit ? hit[2] : 1, hit ? hit[3] : 1);
  });
}

function chartOf(samples: Sample[], over: Partial<ChartInput> = {}) {
  return buildChart({
    columns: columnsOf(samples),
    faults: [],
    nowMs: 60_000,
    renewLimit: { ms: 10_000, label: 'RenewDeadline' },
    mode: 'whole',
    widthPx: 800,
    ...over,
  });
}

describe('paging', () => {
  it('pages on an observed 0 and on 2 or more, not on 1', () => {
    expect([0, 1, 2, 3].map(pagingOf)).toEqual(['no-leader', 'none', 'split-brain', 'split-brain']);
  });

  it('joins neighbouring points of one kind and drops a last point that lasts no time', () => {
    const points = [
      { atMs: 0, value: 0 },
      { atMs: 1000, value: 0 },
      { atMs: 2000, value: 1 },
      { atMs: 5000, value: 2 },
      { atMs: 6000, value: 3 },
      { atMs: 8000, value: 1 },
      { atMs: 9000, value: 0 },
    ];
    expect(pageSpans(points)).toEqual([
      { kind: 'no-leader', startMs: 0, endMs: 2000 },
      { kind: 'split-brain', startMs: 5000, endMs: 8000 },
    ]);
  });
});

describe('buildChart with two leader_count lines', () => {
  it('a hidden zombie (believed 2, observed 1) draws the believed line high and fires nothing', () => {
    const chart = chartOf(run([[20, 40, 2, 1]]));
    expect(chart.main.firing).toEqual([]);
    expect(chart.facts.maxLeaderCount).toBe(2);
    expect(chart.facts.maxObserved).toBe(1);
    expect(chart.facts.pagedMs).toEqual({ 'no-leader': 0, 'split-brain': 0 });
    expect(chart.believedSeries.some((p) => p.value === 2)).toBe(true);
    expect(chart.observedSeries.every((p) => p.value === 1)).toBe(true);
    expect(chart.main.believedD).not.toBe(chart.main.observedD);
  });

  it('a frozen lone leader (believed 1, observed 0) fires the no-leader band over its stretch', () => {
    const chart = chartOf(run([[10, 25, 1, 0]]));
    expect(chart.main.firing.map((f) => [f.kind, f.startMs, f.endMs])).toEqual([
      ['no-leader', 10_000, 25_000],
    ]);
    const [f] = chart.main.firing;
    // In the no-leader band, spanning the stretch on the x scale.
    expect(f.y).toBe(chart.main.noLeaderBand.y);
    expect(f.h).toBe(chart.main.noLeaderBand.h);
    expect(f.x).toBeCloseTo((10 / 60) * chart.plotW, 5);
    expect(f.w).toBeCloseTo((15 / 60) * chart.plotW, 5);
    expect(chart.facts.pagedMs['no-leader']).toBe(15_000);
  });

  it('fires the split-brain band only where the observed line reaches 2', () => {
    // The zombie hidden from 20 s, seen from 30 s (it woke and answers its scrape again).
    const chart = chartOf(
      run([
        [20, 30, 2, 1],
        [30, 40, 2, 2],
      ]),
    );
    expect(chart.main.firing.map((f) => [f.kind, f.startMs, f.endMs])).toEqual([
      ['split-brain', 30_000, 40_000],
    ]);
    expect(chart.main.firing[0].y).toBe(chart.main.splitBrainBand.y);
  });

  it("the moment's own observed count decides whether it pages now", () => {
    const samples = run([]);
    const live = {
      leaderCount: 1,
      leaderCountObserved: 0,
      fencingRejections: 0,
      leaderTransitions: 0,
      msWithoutLeader: 0,
    };
    expect(chartOf(samples).facts.paging).toBe('none');
    expect(chartOf(samples, { nowMs: 60_050, live }).facts.paging).toBe('no-leader');
    expect(
      chartOf(samples, { nowMs: 60_050, live: { ...live, leaderCount: 3, leaderCountObserved: 1 } }).facts,
    ).toMatchObject({ paging: 'none', leaderCount: 3, leaderCountObserved: 1 });
  });

  it("the panels' totals are the moment's own, as the header's are: a rejection between two samples is in both", () => {
    const samples = run([]);
    const live = {
      leaderCount: 1,
      leaderCountObserved: 1,
      fencingRejections: 1,
      leaderTransitions: 2,
      msWithoutLeader: 1100,
    };
    const chart = chartOf(samples, { nowMs: 60_050, live });
    const title = (key: string) => chart.panels.find((p) => p.key === key)?.title;
    expect(chart.facts).toMatchObject({ fencingRejections: 1, leaderTransitions: 2, msWithoutLeader: 1100 });
    expect(title('fencing')).toMatch(/· total 1$/);
    expect(title('transitions')).toMatch(/· 2$/);
    expect(title('without')).toMatch(/· 1\.1 s$/);
  });

  it('the y axis reaches the higher of the two lines', () => {
    const chart = chartOf(run([[20, 30, 3, 1]]));
    expect(chart.main.yTicks.map((t) => t.label)).toEqual(['0', '1', '2', '3']);
  });

  it('puts the legend over the plot, and a larger font makes it taller', () => {
    const small = chartOf(run([]), { widthPx: 440 });
    const large = chartOf(run([]), { widthPx: 440, fontPx: 15 });
    expect(small.main.top).toBeGreaterThanOrEqual(small.legend.height);
    expect(large.legend.height).toBeGreaterThan(small.legend.height);
    expect(large.main.top).toBeGreaterThan(small.main.top);
  });

  // A laptop's first screen under a two-line banner gave the chart 105 px, and the chart drew
  // 184: the no-leader band and the time axis were cut off at the box's foot.
  it("every panel's title fits over the plot, on a phone as on a desktop", () => {
    for (const widthPx of [344, 800]) {
      const chart = chartOf(run([[10, 30, 0, 0]]), { widthPx });
      for (const p of chart.panels)
        expect(p.title.length * 6.8, `${widthPx} px: ${p.title}`).toBeLessThanOrEqual(chart.plotW + 16);
    }
    expect(chartOf(run([]), { widthPx: 800 }).panels.map((p) => p.title)).toContain(
      'time without a leader (observed 0, after start-up) · 0.0 s',
    );
  });

  // Beside a stage a present-mode step names (1280x720, 17 px type) the chart is 303 px wide: its
  // clients panel's heading ran 112 px past its right edge.
  it("the clients panel's heading gives up its words rather than run past a narrow chart's edge", () => {
    const heading = (widthPx: number, fontPx: number) =>
      chartOf(run([]), { widthPx, fontPx, clients: true, compactHeightPx: 420 }).panels.find(
        (p) => p.key === 'clients',
      )!;
    for (const [widthPx, fontPx] of [
      [303, 17],
      [440, 17],
      [470, 24],
      [800, 12],
    ]) {
      const chart = chartOf(run([]), { widthPx, fontPx, clients: true, compactHeightPx: 420 });
      const title = heading(widthPx, fontPx).title;
      expect(
        title.length * 6.8 * (fontPx / 12),
        `${widthPx} px at ${fontPx} px: ${title}`,
      ).toBeLessThanOrEqual(chart.plotW + 16);
    }
    expect(heading(303, 17).title).toBe('clients: errors · latency');
    expect(heading(800, 12).title).toMatch(/^clients: errors per s \(bars\) · served write latency/);
  });

  // At 1920x1080 (24 px type) the time axis's last label, "60 s" under the plot's right end, was
  // cut at the chart's edge: half its width is more than the margin.
  it("the time axis's last label ends inside the chart, centred under its tick where it fits", () => {
    for (const [widthPx, fontPx] of [
      [303, 17],
      [470, 24],
      [800, 12],
    ]) {
      const chart = chartOf(run([]), { widthPx, fontPx });
      const last = chart.xTicks[chart.xTicks.length - 1];
      expect(last.label).toBe('60 s');
      const right = last.pos + (last.labelDx ?? 0) + (last.label.length * 6.8 * (fontPx / 12)) / 2;
      expect(right, `${widthPx} px at ${fontPx} px`).toBeLessThanOrEqual(chart.plotW + 16);
    }
    const small = chartOf(run([]), { widthPx: 800 });
    expect(small.xTicks.every((t) => t.labelDx === undefined)).toBe(true);
  });

  it('a compact chart is never taller than its box: it gives up a fault row, then the lesson (its short line first), then its fault labels and its keys before plot', () => {
    const at = (h: number, clients = false) =>
      chartOf(run([]), { widthPx: 440, compactHeightPx: h, clients });
    // 84 px: a 50 px plot and the axis, the least it draws.
    for (let h = 84; h <= 400; h += 3) expect(at(h).height, `${h} px`).toBeLessThanOrEqual(h);
    const says = (h: number) => {
      const c = at(h);
      return [c.faultRows, c.legend.keys.length, c.legend.lesson.map((l) => l.text).join(' ')];
    };
    expect(says(190)).toEqual([2, 2, LESSON]);
    expect(says(170)).toEqual([1, 2, LESSON]);
    expect(says(136)).toEqual([1, 2, LESSON_SHORT]);
    expect(says(120)).toEqual([1, 2, '']);
    // Then the fault labels (their marks stay on the axis, the labels in the table), then the keys.
    expect(says(104)).toEqual([0, 2, '']);
    expect(says(88)).toEqual([0, 0, '']);
    for (const h of [190, 170]) expect(at(h).main.height).toBeGreaterThanOrEqual(70);
    // The short line is one line at the first screen's width.
    expect(at(136).legend.lesson).toHaveLength(1);
    for (const h of [136, 120, 104, 88]) {
      const short = at(h);
      // 0, 1 and 2 stand apart, each with its own band and room in it for its label.
      expect(short.main.height, `${h} px`).toBeGreaterThanOrEqual(50);
      expect(short.main.noLeaderBand.h).toBeGreaterThanOrEqual(16);
      expect(short.main.splitBrainBand.h).toBeGreaterThanOrEqual(16);
    }
  });

  // At 1280x800 with 200 clients the box was 125 px and the client panel kept: the chart was
  // drawn 162 px tall, its foot cut off. The panel goes first; its figures are in the header.
  it('a compact chart gives up its client panel before its fault labels, its keys and its plot', () => {
    const at = (h: number) => chartOf(run([]), { widthPx: 440, compactHeightPx: h, clients: true });
    for (let h = 84; h <= 400; h += 3) expect(at(h).height, `${h} px`).toBeLessThanOrEqual(h);
    expect(at(180).panels.map((p) => p.key)).toEqual(['clients']);
    const short = at(125);
    expect(short.panels).toEqual([]);
    expect([short.faultRows, short.legend.keys.length]).toEqual([1, 2]);
    expect(short.main.height).toBeGreaterThanOrEqual(50);
    // Its figures stay in the model (the header's, the table's).
    expect(short.facts.clients).not.toBeNull();
  });
});

describe('legend', () => {
  it('wraps words without splitting them and keeps every line within the limit', () => {
    const lines = wrapWords(LESSON, 40);
    expect(lines.join(' ')).toBe(LESSON);
    expect(lines.length).toBeGreaterThan(2);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(40);
    expect(wrapWords('a verylongwordindeed b', 5)).toEqual(['a', 'verylongwordindeed', 'b']);
  });

  it('keeps both keys on one row when they fit, and stacks them when they do not', () => {
    const wide = layoutLegend(900, 6.8, 16);
    expect(wide.keys.map((k) => k.y)).toEqual([12, 12]);
    expect(wide.keys[1].x).toBeGreaterThan(wide.keys[0].textX + 'observed (pages)'.length * 6.8);
    expect(wide.lesson).toHaveLength(1);
    expect(wide.height).toBe(32);

    const narrow = layoutLegend(260, 6.8, 16);
    expect(narrow.keys.map((k) => [k.x, k.y])).toEqual([
      [0, 12],
      [0, 28],
    ]);
    expect(narrow.lesson[0].y).toBe(44);
    for (const l of narrow.lesson) expect(l.text.length * 6.8).toBeLessThanOrEqual(260);
    expect(narrow.height).toBe((2 + narrow.lesson.length) * 16);
  });
});

describe('the renewal latency panel', () => {
  it("draws each algorithm's own limit, in the latency's terms, and none where the leader never stops by itself", () => {
    const limit = (input: Record<string, unknown>) => renewLimitOf(normalizeExperiment(input));
    expect(limit({})).toEqual({ ms: 1000, label: 'election timeout 1 s' });
    expect(limit({ algorithm: 'k8s-lease' })).toEqual({ ms: 10_000, label: 'RenewDeadline 10 s' });
    // etcd: the deadline runs from the last answered keep-alive; the latency is how overdue the
    // next one (due every TTL/3) is.
    expect(limit({ algorithm: 'etcd-election' })).toEqual({
      ms: 10_000 - 3333,
      label: 'session TTL 10 s: a keep-alive 6.7 s overdue',
    });
    expect(limit({ algorithm: 'etcd-election', etcd: { ttlMs: 5000, renewDeadlineMs: 3000 } })).toEqual({
      ms: 3000 - 1666,
      label: 'renew deadline 3 s: a keep-alive 1.3 s overdue',
    });
    expect(limit({ algorithm: 'redis-sentinel' })).toBeNull();
    expect(limit({ algorithm: 'redis-sentinel', sentinel: { minReplicasToWrite: 1 } })).toEqual({
      ms: 10_000,
      label: 'min-replicas-max-lag 10 s',
    });
    for (const kind of ['zookeeper', 'pacemaker', 'bully', 'ring'])
      expect(limit({ algorithm: kind }), kind).toBeNull();
  });

  it('labels the line with the limit, and draws no line (and no "0" twice) without one', () => {
    const latency = (over: Partial<ChartInput>) =>
      chartOf(run([]), over).panels.find((p) => p.key === 'latency')!;
    const raft = latency({ renewLimit: { ms: 1000, label: 'election timeout 1 s' } });
    expect(raft.refLine?.label).toBe('election timeout 1 s');
    const none = latency({ renewLimit: null });
    expect(none.refLine).toBeNull();
    const labels = none.yTicks.map((t) => t.label);
    expect(new Set(labels).size).toBe(labels.length);
  });
});

describe('start-up on the chart', () => {
  it('is drawn as its own phase up to the first election, with no page over it', () => {
    // No leader for the first 5 s (start-up), then one leader throughout.
    const chart = chartOf(run([[0, 5, 0, 0]]));
    expect(chart.main.starting).toMatchObject({ startMs: 0, endMs: 5000, x: 0 });
    expect(chart.main.starting!.w).toBeCloseTo((5 / 60) * chart.plotW, 5);
    expect(chart.main.firing).toEqual([]);
    expect(chart.facts.pagedMs['no-leader']).toBe(0);
  });

  it('runs on to now while no leader has been elected, and pages nothing', () => {
    const chart = chartOf(run([[0, 61, 0, 0]]));
    expect(chart.main.starting).toMatchObject({ startMs: 0, endMs: 60_000 });
    expect(chart.main.firing).toEqual([]);
    expect(chart.facts.paging).toBe('none');
  });

  it('a later outage is no start-up: it pages, and start-up stays where it was', () => {
    const chart = chartOf(
      run([
        [0, 5, 0, 0],
        [20, 30, 0, 0],
      ]),
    );
    expect(chart.main.starting).toMatchObject({ startMs: 0, endMs: 5000 });
    expect(chart.main.firing.map((f) => [f.kind, f.startMs, f.endMs])).toEqual([
      ['no-leader', 20_000, 30_000],
    ]);
  });
});
