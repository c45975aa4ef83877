import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../src/engine';
import { SAMPLE_COLUMNS, samplesToCsv } from '../../src/app/export/csv';
import { runLink } from '../../src/app/session';
import { firstDifference, readTraceFile, replayTrace, traceFileOf } from '../../src/app/export/traceFile';
import { readPageParams } from '../../src/shared/link';
import { createLabStore } from '../../src/store/labStore';

/** A run with a person's commands, including a seek back and a fork, like a real session. */
function recordedRun() {
  const store = createLabStore({
    experiment: { seed: 11, nodes: 5, workload: { clients: 3 } },
    playing: false,
  });
  const s = () => store.getState();
  s().advanceBy(20_000);
  s().command({ do: 'kill', node: 'leader' });
  s().advanceBy(10_000);
  s().command({
    do: 'partition',
    groups: [
      ['n1', 'n2'],
      ['n3', 'n4', 'n5', 'storage'],
    ],
  });
  s().advanceBy(15_000);
  s().seek(25_000);
  s().command({ do: 'safety', fencing: false });
  s().advanceBy(12_345);
  return store;
}

describe('metric series CSV', () => {
  it('has a header of every Sample field and one row per sample', () => {
    const sim = new Simulation({ seed: 3, nodes: 3 });
    sim.runUntil(5_000);
    const csv = samplesToCsv(sim.samples);
    const lines = csv.split('\r\n');
    expect(lines.pop()).toBe('');
    expect(lines[0]).toBe(
      'atMs,leaderCount,leaderCountObserved,fencingRejections,staleWritesAccepted,divergentWrites,leaderTransitions,renewalLatencyMs,msWithoutLeader,maxTerm,maxTokenSeen,clientRedirects',
    );
    expect([...SAMPLE_COLUMNS].sort()).toEqual(Object.keys(sim.samples[0]).sort());
    expect(lines.length - 1).toBe(sim.samples.length);
    const last = sim.samples[sim.samples.length - 1];
    expect(lines[lines.length - 1]).toBe(SAMPLE_COLUMNS.map((c) => String(last[c])).join(','));
    for (const line of lines.slice(1))
      expect(line.split(',').every((v) => Number.isFinite(Number(v)))).toBe(true);
  });
});

describe('metric series CSV of a ZooKeeper run', () => {
  it('adds the watch counts as the last two columns, and only where the samples carry them', () => {
    const sim = new Simulation({
      algorithm: 'zookeeper',
      seed: 1,
      nodes: 5,
      zookeeper: { watch: 'leader' },
      faults: [{ atMs: 5_000, do: 'stop', node: 'leader' }],
      untilMs: 8_000,
    });
    sim.runUntil(8_000);
    const lines = samplesToCsv(sim.samples).split('\r\n');
    lines.pop();
    expect(lines[0]).toBe([...SAMPLE_COLUMNS, 'watchNotifications', 'watchReads'].join(','));
    const last = lines.at(-1)!.split(',').map(Number);
    expect(last.slice(-2)).toEqual([4, 4]); // the herd: every other candidate told, and each reads
    for (const line of lines.slice(1))
      expect(line.split(',').every((v) => Number.isFinite(Number(v)))).toBe(true);
  });
});

describe('trace file', () => {
  it('round-trips: export, import and replay give the identical trace', () => {
    const store = recordedRun();
    const original = traceFileOf(store.backend());
    const r = readTraceFile(JSON.stringify(original));
    if (!r.ok) throw new Error(r.problems.join('; '));
    expect(r.run.atMs).toBe(store.getState().snapshot.nowMs);
    expect(r.run.commands).toEqual(store.backend().commands);
    const replayed = replayTrace(r.run);
    expect(firstDifference(replayed, r.run.trace!)).toBeNull();
    expect(JSON.parse(JSON.stringify(replayed))).toEqual(JSON.parse(JSON.stringify(original.trace)));
  });

  it('opens through the run link the page reads, reaching the same trace', () => {
    const store = recordedRun();
    const r = readTraceFile(JSON.stringify(traceFileOf(store.backend())));
    if (!r.ok) throw new Error(r.problems.join('; '));
    const link = new URL(runLink(r.run, 'https://example.test/lab/?scenario=kill-leader&step=2&theme=dark'));
    expect(link.pathname).toBe('/lab/');
    expect(link.searchParams.get('scenario')).toBeNull();
    expect(link.searchParams.get('theme')).toBe('dark');
    const params = readPageParams(link.search);
    expect(params.problems).toEqual([]);
    const opened = createLabStore({
      experiment: params.experiment,
      commands: params.commands,
      playing: false,
    });
    opened.getState().seek(params.atMs);
    expect(opened.backend().trace()).toEqual(store.backend().trace());
  });

  it('finds where an edited trace departs from its replay', () => {
    const file = traceFileOf(recordedRun().backend());
    const edited = JSON.parse(JSON.stringify(file));
    edited.trace.events[7].atMs += 1;
    const r = readTraceFile(JSON.stringify(edited));
    if (!r.ok) throw new Error(r.problems.join('; '));
    expect(firstDifference(replayTrace(r.run), r.run.trace!)).toBe('events.7');
  });

  it('accepts a hand-written file with no trace', () => {
    const r = readTraceFile(
      JSON.stringify({
        experiment: { nodes: 3 },
        commands: [{ atMs: 5_000, command: { do: 'kill', node: 'n1' } }],
        atMs: 9_000,
      }),
    );
    expect(r.ok && r.run.trace).toBeNull();
  });
});

describe('a trace file made with the retired first model', () => {
  it('reads under Raft without its lease, marked retired, and its replay is checked against its trace', () => {
    const file = JSON.parse(JSON.stringify(traceFileOf(recordedRun().backend())));
    file.version = 1;
    file.experiment.lease = { durationMs: 15000, renewDeadlineMs: 10000, retryPeriodMs: 2000, jitterMs: 0 };
    const r = readTraceFile(JSON.stringify(file));
    if (!r.ok) throw new Error(r.problems.join('; '));
    expect(r.run.retired).toBe(true);
    expect(r.run.experiment.lease).toBeUndefined();
    expect(r.run.experiment.algorithm).toBeUndefined();
    // Here the stored trace is today's, so the replay agrees; an old file's trace would not.
    expect(firstDifference(replayTrace(r.run), r.run.trace!)).toBeNull();
  });
});

describe('a bad trace file gives problems naming the field, never an exception', () => {
  const good = () => JSON.parse(JSON.stringify(traceFileOf(recordedRun().backend())));
  const problemsOf = (v: unknown) => {
    const r = readTraceFile(typeof v === 'string' ? v : JSON.stringify(v));
    expect(r.ok).toBe(false);
    return r.ok ? [] : r.problems;
  };

  it.each([
    ['not JSON', '{"experiment": ', /not JSON/],
    ['a list', [], /expected a JSON object/],
    ['another version', { ...good(), version: 3 }, /^version: .*format 3/],
    ['a bad experiment field', { ...good(), experiment: { nodes: 12 } }, /^experiment\.nodes: /],
    [
      'bad lease timing',
      {
        ...good(),
        experiment: { algorithm: 'k8s-lease', lease: { durationMs: 1000, renewDeadlineMs: 2000 } },
      },
      /^experiment\.lease\./,
    ],
    ['commands not a list', { ...good(), commands: 'kill' }, /^commands: must be a list/],
    [
      'a command time',
      { ...good(), commands: [{ atMs: -1, command: { do: 'heal' } }] },
      /^commands\.0\.atMs: /,
    ],
    [
      'an unknown command',
      { ...good(), commands: [{ atMs: 1, command: { do: 'explode' } }] },
      /^commands\.0\.command\.do: /,
    ],
    [
      'a command field',
      { ...good(), commands: [{ atMs: 1, command: { do: 'kill', node: 'x' } }] },
      /^commands\.0\.command\.node: /,
    ],
    [
      'a node not in the cluster',
      { ...good(), commands: [{ atMs: 1, command: { do: 'kill', node: 'n9' } }] },
      /^commands\.0\.command\.node: no node "n9"/,
    ],
    ['a missing moment', { ...good(), atMs: undefined }, /^atMs: /],
    ['a fractional moment', { ...good(), atMs: 1.5 }, /^atMs: /],
    ['a broken trace', { ...good(), trace: { events: 3 } }, /^trace\.events: must be a list/],
  ])('%s', (_name, input, expected) => {
    expect(problemsOf(input).some((p) => expected.test(p))).toBe(true);
  });

  it('any JSON value at all', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const r = readTraceFile(JSON.stringify(v));
        expect(r.ok || r.problems.length > 0).toBe(true);
      }),
      { seed: 20260, numRuns: 300 },
    );
  });
});
