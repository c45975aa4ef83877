// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { algorithmFor, Simulation, type ExperimentInput } from '../../src/engine';
import { LabEngine } from '../../src/store/labEngine';
import { createLabStore } from '../../src/store/labStore';
import { LabProvider } from '../../src/store/context';
import { SpaceTimeScene } from '../../scenes/SpaceTimeScene/SpaceTimeScene';
import { buildSpacetime, kindTable, type Family } from '../../scenes/SpaceTimeScene/spacetimeModel';
import { eventsBetween, partitionBefore, WINDOW_MS } from '../../scenes/SpaceTimeScene/useSpacetime';
import { toMermaid } from '../../scenes/SpaceTimeScene/mermaid';
import { messageLogFromMs, messagesBetween } from '../../scenes/SpaceTimeScene/messageLog';
import { laneLabels } from '../../scenes/SpaceTimeScene/labels';

afterEach(cleanup);

// A fixed run: the Kubernetes leader pauses for 30 s (its writes on waking are rejected by
// storage), then n3 is cut off at 50 s (what is sent to it is lost).
const RUN: ExperimentInput = {
  algorithm: 'k8s-lease',
  seed: 1,
  nodes: 3,
  network: { delayMsMin: 60, delayMsMax: 180 },
  faults: [
    { atMs: 9_000, do: 'pause', node: 'leader', forMs: 30_000 },
    { atMs: 50_000, do: 'isolate', node: 'n3' },
  ],
  untilMs: 60_000,
};

/** The messages a LabEngine logged in [fromMs, toMs], as the diagram reads them. */
const logOf = (engine: LabEngine, fromMs: number, toMs: number) =>
  messagesBetween(engine, engine.snapshot(), fromMs, toMs);

function modelAt(nowMs: number, pxPerMs: number, hiddenFamilies?: Set<Family>, hiddenLanes?: Set<string>) {
  const engine = new LabEngine(new Simulation(RUN).experiment);
  engine.advanceTo(nowMs);
  const snap = engine.snapshot();
  return buildSpacetime({
    nowMs,
    windowMs: 60_000,
    nodes: snap.nodes,
    services: snap.services,
    partition: snap.partition,
    records: messagesBetween(engine, snap, 0, nowMs) ?? [],
    inFlight: snap.messages,
    events: eventsBetween(engine, 0, nowMs),
    kinds: kindTable(algorithmFor('k8s-lease').messages),
    pxPerMs,
    hiddenFamilies,
    hiddenLanes,
  });
}

describe('space-time model', () => {
  const m = modelAt(58_000, 480 / 60_000);

  it('has a lane per node and per service, and arrows between them from send to delivery', () => {
    expect(m.lanes.map((l) => l.id)).toEqual(['n1', 'n2', 'n3', 'storage', 'api', 'm1', 'm2', 'm3']);
    expect(m.arrows.length).toBeGreaterThan(50);
    const lanes = new Set(m.lanes.map((l) => l.id));
    for (const a of m.arrows) {
      expect(lanes.has(a.from) && lanes.has(a.to)).toBe(true);
      expect(a.doneAtMs).toBeGreaterThanOrEqual(a.sentAtMs);
    }
    expect(m.arrows.some((a) => a.type === 'leaseUpdate' && a.from === 'n1' && a.to === 'api')).toBe(true);
  });

  it('marks each storage rejection with its tokens, and draws the rejection back to the zombie', () => {
    const rejected = m.marks.filter((k) => k.kind === 'rejected');
    expect(rejected.length).toBeGreaterThan(0);
    expect(rejected.every((k) => k.lane === 'storage' && k.atMs >= 39_000)).toBe(true);
    expect(rejected[0].text).toBe('rejected 0 < 1');
    const back = m.arrows.filter((a) => a.type === 'writeRejected');
    expect(back.length).toBe(rejected.length);
    expect(back.every((a) => a.from === 'storage' && a.to === 'n1' && a.family === 'reject')).toBe(true);
  });

  it('draws a lost message, and the isolation and the pause on the lanes', () => {
    const lost = m.arrows.filter((a) => a.dropped);
    expect(lost.length).toBeGreaterThan(0);
    expect(lost.every((a) => a.doneAtMs >= 50_000 && (a.to === 'n3' || a.from === 'n3'))).toBe(true);
    expect(m.marks.some((k) => k.kind === 'fault' && k.lane === 'n3' && k.text === 'isolated')).toBe(true);
    expect(m.partitions).toEqual([{ startMs: 50_000, endMs: 58_000, groups: [['n3'], ['others']] }]);
    const n1 = m.spans.filter((s) => s.lane === 'n1');
    expect(n1.find((s) => s.state === 'paused')).toMatchObject({ startMs: 9_000, endMs: 39_000, term: 0 });
    expect(n1.some((s) => s.state === 'leader' && s.startMs < 9_000)).toBe(true);
    expect(m.spans.some((s) => s.lane === 'n2' && s.state === 'leader' && s.term === 1)).toBe(true);
  });

  it('draws a death on its lane: the kill, the lane dead until the restart, and messages to it lost', () => {
    const run: ExperimentInput = {
      algorithm: 'raft',
      seed: 3,
      nodes: 3,
      faults: [
        { atMs: 10_000, do: 'kill', node: 'n2' },
        { atMs: 20_000, do: 'restart', node: 'n2' },
      ],
      untilMs: 30_000,
    };
    const engine = new LabEngine(new Simulation(run).experiment);
    engine.advanceTo(28_000);
    const snap = engine.snapshot();
    const d = buildSpacetime({
      nowMs: 28_000,
      windowMs: 60_000,
      nodes: snap.nodes,
      services: snap.services,
      partition: snap.partition,
      records: messagesBetween(engine, snap, 0, 28_000) ?? [],
      inFlight: snap.messages,
      events: eventsBetween(engine, 0, 28_000),
      kinds: kindTable(algorithmFor('raft').messages),
      pxPerMs: 480 / 60_000,
    });
    expect(d.marks.filter((k) => k.lane === 'n2' && k.kind === 'fault').map((k) => [k.atMs, k.text])).toEqual(
      [
        [10_000, 'killed'],
        [20_000, 'restarted'],
      ],
    );
    expect(d.spans.filter((s) => s.lane === 'n2' && s.state === 'dead')).toEqual([
      expect.objectContaining({ startMs: 10_000, endMs: 20_000 }),
    ]);
    expect(d.spans.some((s) => s.lane === 'n2' && s.state !== 'dead' && s.startMs >= 20_000)).toBe(true);
    // Whatever reached n2 while it was dead is lost, and it sent nothing.
    const whileDead = d.arrows.filter((a) => a.sentAtMs > 10_000 && a.sentAtMs < 20_000);
    expect(whileDead.some((a) => a.to === 'n2')).toBe(true);
    expect(whileDead.filter((a) => a.to === 'n2').every((a) => a.dropped)).toBe(true);
    expect(whileDead.some((a) => a.from === 'n2')).toBe(false);
  });

  it('bands routine traffic that would overlap, but never a request or a rejection, and loses none', () => {
    // At 1/100 px per ms the API server's store writes every few hundred ms come closer than 4 px.
    const dense = modelAt(58_000, 0.01 / 10);
    expect(dense.bands.length).toBeGreaterThan(0);
    for (const b of dense.bands) expect(['heartbeat', 'ack', 'write']).toContain(b.family);
    const rejections = (x: typeof m) => x.arrows.filter((a) => a.family === 'reject').length;
    const requests = (x: typeof m) => x.arrows.filter((a) => a.family === 'request').length;
    expect(rejections(dense)).toBe(rejections(m));
    expect(requests(dense)).toBe(requests(m));
    const total = (x: typeof m) => x.arrows.length + x.bands.reduce((n, b) => n + b.count, 0);
    expect(total(dense)).toBe(total(m));
  });

  it('names the groups of a cut made before the window, and draws none after its heal', () => {
    // n1 and n2 split from n3 at 5 s, healed at 70 s: at 100 s the window opens at 40 s, cut.
    const engine = new LabEngine(
      new Simulation({
        ...RUN,
        faults: [
          { atMs: 5_000, do: 'partition', groups: [['n1', 'n2'], ['n3']] },
          { atMs: 70_000, do: 'heal' },
        ],
        untilMs: 120_000,
      }).experiment,
    );
    engine.advanceTo(100_000);
    const snap = engine.snapshot();
    const fromMs = 100_000 - WINDOW_MS;
    expect(partitionBefore(engine, fromMs)).toEqual([['n1', 'n2'], ['n3']]);
    expect(partitionBefore(engine, 4_000)).toBeNull();
    const model = buildSpacetime({
      nowMs: 100_000,
      windowMs: WINDOW_MS,
      nodes: snap.nodes,
      services: snap.services,
      partition: snap.partition,
      records: messagesBetween(engine, snap, fromMs, 100_000) ?? [],
      inFlight: snap.messages,
      events: eventsBetween(engine, fromMs, 100_000),
      partitionBefore: partitionBefore(engine, fromMs),
      kinds: kindTable(algorithmFor('k8s-lease').messages),
      pxPerMs: 480 / WINDOW_MS,
    });
    expect(model.partitions).toEqual([{ startMs: fromMs, endMs: 70_000, groups: [['n1', 'n2'], ['n3']] }]);
  });

  it('filters by kind and by lane', () => {
    const noBeats = modelAt(58_000, 480 / 60_000, new Set<Family>(['heartbeat', 'ack']));
    expect(noBeats.arrows.some((a) => a.family === 'heartbeat' || a.family === 'ack')).toBe(false);
    expect(noBeats.bands.every((b) => b.family === 'write')).toBe(true);
    const noN3 = modelAt(58_000, 480 / 60_000, undefined, new Set(['n3']));
    expect(noN3.lanes.map((l) => l.id)).not.toContain('n3');
    expect(noN3.arrows.some((a) => a.from === 'n3' || a.to === 'n3')).toBe(false);
  });

  it('reads the same messages after a seek back as a straight run does', () => {
    const straight = new LabEngine(new Simulation(RUN).experiment);
    straight.advanceTo(30_000);
    const jumped = new LabEngine(new Simulation(RUN).experiment);
    jumped.advanceTo(58_000);
    // Read while playing (the engine keeps what it read), then jump back and fork the run there.
    for (let t = 0; t <= 58_000; t += 1_000) logOf(jumped, Math.max(0, t - 60_000), t);
    jumped.seek(30_000);
    expect(logOf(jumped, 0, 30_000)).toEqual(logOf(straight, 0, 30_000));
    jumped.apply({ do: 'kill', node: 'n2' });
    jumped.advanceTo(40_000);
    const forked = new LabEngine(new Simulation(RUN).experiment, [
      { atMs: 30_000, command: { do: 'kill', node: 'n2' } },
    ]);
    forked.advanceTo(40_000);
    expect(logOf(jumped, 0, 40_000)).toEqual(logOf(forked, 0, 40_000));
    expect(logOf(jumped, 20_000, 40_000)).toEqual(logOf(forked, 20_000, 40_000));
    expect(logOf(straight, 0, 30_000)?.length).toBeGreaterThan(100);
  });

  it('keeps a bounded log: the last 75 s and a little more, which covers the window', () => {
    const engine = new LabEngine(new Simulation({ seed: 1 }).experiment);
    engine.advanceTo(300_000);
    const log = engine.messageLog;
    const oldest = log.list[0].doneAtMs as number;
    expect(log.base).toBeGreaterThan(0);
    expect(oldest).toBeLessThanOrEqual(300_000 - 60_000);
    // Trimmed every 1,024 messages: at ~80 a second, at most ~13 s past the 75 s kept.
    expect(oldest).toBeGreaterThan(300_000 - 75_000 - 15_000);
    expect(messageLogFromMs(log)).toBe(oldest);
  });

  it('writes the window as a Mermaid sequence diagram', () => {
    const text = toMermaid(m);
    expect(text.split('\n')[0]).toBe('sequenceDiagram');
    expect(text).toContain('participant n1');
    expect(text).toContain('participant storage');
    expect(text).toMatch(/storage-->>n1: write rejected/);
    expect(text).toMatch(/\w+--?x\w+: .* lost \d/);
    expect(text).toMatch(/Note over storage: rejected 0 < 1/);
  });
});

describe('SpaceTimeScene', () => {
  it('draws the lanes and arrows of the lab and goes to a message moment when one is clicked', () => {
    const store = createLabStore({ experiment: RUN, playing: false });
    store.getState().advanceBy(58_000);
    render(
      <LabProvider store={store}>
        <SpaceTimeScene />
      </LabProvider>,
    );
    const svg = document.querySelector('.spacetime-svg') as SVGSVGElement;
    expect(svg.querySelectorAll('[data-lane]').length).toBeGreaterThan(8);
    const rejection = svg.querySelector('.st-arrow[data-type="writeRejected"]') as SVGGElement;
    expect(rejection).toBeTruthy();
    expect(svg.querySelector('.st-arrow[data-dropped]')).toBeTruthy();
    expect(svg.querySelectorAll('.st-mark-rejected').length).toBeGreaterThan(0);
    act(() => void fireEvent.click(rejection));
    expect(store.getState().snapshot.nowMs).toBe(Number(rejection.getAttribute('data-done-ms')));
    // An event on a lane selects its moment too: storage's first rejection.
    const verdict = svg.querySelector('.st-mark-rejected') as SVGGElement;
    act(() => void fireEvent.click(verdict));
    expect(store.getState().snapshot.nowMs).toBe(Number(verdict.getAttribute('data-at-ms')));
    // The text alternative lists the visible messages, each a way to its moment.
    expect(screen.getByText(/Messages as a table/)).toBeTruthy();
    expect(document.querySelectorAll('.spacetime-table tbody tr').length).toBeGreaterThan(10);
  });
});

describe('lane names', () => {
  const lanes = [
    ...['n1', 'n2', 'n3', 'n4', 'n5'].map((id) => ({ id, label: id })),
    { id: 'storage', label: 'storage' },
    { id: 'api', label: 'API server' },
    ...['m1', 'm2', 'm3'].map((id) => ({ id, label: id })),
  ];

  it('are one row of full names where every name fits its lane', () => {
    const wide = laneLabels(lanes, 90);
    expect(wide.rows).toBe(1);
    expect(wide.labels.map((l) => l.text)).toEqual(lanes.map((l) => l.label));
    expect(new Set(wide.labels.map((l) => l.abovePx)).size).toBe(1);
  });

  it("take two alternating rows on a phone's 30 px lanes, a name too long for two lanes written as its id", () => {
    const narrow = laneLabels(lanes, 30);
    expect(narrow.rows).toBe(2);
    expect(narrow.topPx).toBeGreaterThan(laneLabels(lanes, 90).topPx);
    expect(narrow.labels.map((l) => l.text)).toEqual([
      'n1',
      'n2',
      'n3',
      'n4',
      'n5',
      'storage',
      'api',
      'm1',
      'm2',
      'm3',
    ]);
    expect(narrow.labels[6]).toMatchObject({ full: 'API server' });
    // Neighbours are on different rows.
    for (let i = 1; i < lanes.length; i++)
      expect(narrow.labels[i].abovePx).not.toBe(narrow.labels[i - 1].abovePx);
  });

  it("write the last lane's name as its id when it does not fit its own lane: nothing lies beyond it", () => {
    const etcd = [...lanes.slice(0, 7), ...['m1', 'm2', 'm3'].map((id) => ({ id, label: `etcd ${id}` }))];
    const narrow = laneLabels(etcd, 32);
    expect(narrow.rows).toBe(2);
    // A middle lane's name has its neighbours' room; the last has only its own.
    expect(narrow.labels.slice(7).map((l) => l.text)).toEqual(['etcd m1', 'etcd m2', 'm3']);
  });
});
