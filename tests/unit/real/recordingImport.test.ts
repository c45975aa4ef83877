// A real run's trace file, imported: it opens as the recording it is (its events folded again by
// the fold the live page used), not as a re-simulation of its commands. The fixture is a trace
// the page exported in real mode (`npm run lab:real -- --fast --ttl-ms 2000`, the leader n2
// killed with the K key at 8.5 s, n1 leading at 10.5 s, saved at 13.1 s).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readTraceFile, traceFileOf, type ImportedRun } from '../../../src/app/export/traceFile';
import { monitorEvents } from '../../engineChecks';
import { createLabStore } from '../../../src/store/labStore';
import { RecordingBackend } from '../../../src/store/backends/recordingBackend';

const TEXT = readFileSync(new URL('./fixtures/real-run-trace.json', import.meta.url), 'utf8');
const FILE = JSON.parse(TEXT);

function imported(text = TEXT): ImportedRun {
  const r = readTraceFile(text);
  if (!r.ok) throw new Error(r.problems.join('\n'));
  return r.run;
}

function opened(): RecordingBackend {
  const run = imported();
  return new RecordingBackend(run.real!, run.atMs);
}

const problemsOf = (file: unknown): string[] => {
  const r = readTraceFile(JSON.stringify(file));
  return r.ok ? [] : r.problems;
};

const edited = (edit: (f: typeof FILE) => void) => {
  const f = structuredClone(FILE);
  edit(f);
  return f;
};

describe("a real run's trace file", () => {
  it('reads as the recording of a real run, with its commands as recorded (no check against simulated nodes)', () => {
    const run = imported();
    expect(run.real).toBeDefined();
    expect(run.real!.settings).toMatchObject({ electionMs: 200, ttlMs: 2000, preVote: true });
    expect(run.real!.events).toHaveLength(FILE.real.events.length);
    expect(run.commands).toEqual([{ atMs: 8493, command: { do: 'kill', node: 'n2' } }]);
  });

  it('opens at its saved moment, folded as the live page folded it: the same events, counters and end state', () => {
    const b = opened();
    expect(b.nowMs).toBe(FILE.atMs);
    expect(b.horizonMs).toBe(FILE.real.untilMs);
    const t = b.trace();
    // The live page (at the time of the fixture) showed its own translation of the run's events;
    // the page now shows the fold's, the one its monitor counts: the same events, plus the
    // monitor's own mark of the kill's loss (as a simulated run's log has it).
    expect(t.events.filter((e) => e.type !== 'lost')).toEqual(FILE.trace.events);
    expect(t.events.filter((e) => e.type === 'lost')).toEqual([
      { atMs: 8493, type: 'lost', node: 'n2', term: 2, cause: 'killed' },
    ]);
    // One translation: the events shown are the ones counted. The engine's monitor over them
    // gives the recording's leader_count, transitions, failovers and violations.
    const counted = monitorEvents(b.experiment, t.events, t.experiment.untilMs);
    expect(counted).toMatchObject({
      leaderTransitions: t.summary.leaderTransitions,
      maxLeaderCount: t.summary.maxLeaderCount,
      msWithoutLeader: t.summary.msWithoutLeader,
      failovers: t.summary.failovers,
      violations: t.summary.violations,
    });
    expect(counted.leaderCount).toBe(b.snapshot().leaderCount);
    // And they are what the views read: the log and the space-time diagram take the backend's events.
    expect(b.events).toEqual(t.events);
    // The file was saved when start-up (before n2's election at 1,398 ms) still counted as time
    // without a leader; it no longer does. Everything else is as the live page folded it.
    const STARTUP_MS = 1398;
    const asSaved = <T extends { msWithoutLeader: number }>(x: T, atMs: number) => ({
      ...x,
      msWithoutLeader: x.msWithoutLeader + Math.min(atMs, STARTUP_MS),
    });
    expect(asSaved(t.summary, b.nowMs)).toEqual(FILE.trace.summary);
    expect(t.final).toEqual(FILE.trace.final);
    // The samples at the same moments. The live page took a sample as the wall clock reached it;
    // an event stamped a few ms before it that arrived after it is in the refolded sample (as it
    // is when the live page is scrubbed back over it): the moment of the kill, here.
    expect(t.samples.map((s) => s.atMs)).toEqual(FILE.trace.samples.map((s: { atMs: number }) => s.atMs));
    const differ = t.samples.filter(
      (s, i) => JSON.stringify(asSaved(s, s.atMs)) !== JSON.stringify(FILE.trace.samples[i]),
    );
    expect(differ.length).toBeLessThanOrEqual(3);
  });

  it('shows the kill it recorded: the killed host dead, the failover to the next leader, one leader at the end', () => {
    const b = opened();
    const s = b.snapshot();
    expect(s.nodes.map((n) => [n.id, n.alive, n.role, n.term])).toEqual([
      ['n1', true, 'leader', 3],
      ['n2', false, 'follower', 2],
      ['n3', true, 'candidate', 6],
    ]);
    expect(s.failovers).toEqual([
      expect.objectContaining({ from: 'n2', node: 'n1', term: 3, cause: 'killed', lostAtMs: 8493 }),
    ]);
    expect(s.services.map((v) => v.alive)).toEqual([true, true, true]);
    expect(b.recording.hosts().find((h) => h.id === 'n2')).toMatchObject({
      candidateAlive: false,
      memberAlive: true,
    });
  });

  it('scrubs anywhere within the recording and back, and steps from event to event', () => {
    const b = opened();
    const atEnd = JSON.stringify(b.snapshot());
    b.seek(8400);
    expect(b.snapshot().nodes.find((n) => n.role === 'leader')).toMatchObject({ id: 'n2', term: 2 });
    b.seek(0);
    expect(b.nowMs).toBe(0);
    expect(b.snapshot().nodes.every((n) => !n.alive)).toBe(true);
    // Never past its end.
    b.seek(10 * 60_000);
    expect(b.nowMs).toBe(FILE.real.untilMs);
    b.seek(FILE.atMs);
    expect(JSON.stringify(b.snapshot())).toBe(atEnd);
    b.seek(8400);
    b.stepToNextEvent();
    expect(b.nowMs).toBeGreaterThan(8400);
    expect(b.nowMs).toBeLessThanOrEqual(8500);
  });

  it('takes no command, offers no fault and no replay; time can be played, stepped and scrubbed', () => {
    const b = opened();
    expect(b.can).toMatchObject({ seek: true, step: true, speed: true, replay: false, commands: [] });
    const store = createLabStore({ experiment: b.experiment, makeBackend: () => b, playing: false });
    expect(store.getState().command({ do: 'kill', node: 'leader' })).toBe(false);
    expect(store.getState().error).toMatch(/recording of a real run takes no commands/);
    expect(b.snapshot().nodes[0].alive).toBe(true);
  });

  it('exports again as the same recording, which opens to the same run', () => {
    const b = opened();
    b.seek(9000);
    const again = JSON.parse(JSON.stringify(traceFileOf(b)));
    expect(again.atMs).toBe(9000);
    expect(again.real).toEqual(FILE.real);
    const run = imported(JSON.stringify(again));
    const c = new RecordingBackend(run.real!, run.atMs);
    expect(c.trace()).toEqual(b.trace());
  });

  it('names every malformed part of the recording, and leaves nothing half-read', () => {
    expect(
      problemsOf(
        edited((f) => {
          delete f.real.events[5].term;
          f.real.events[6].type = 'explosion';
          f.real.events[7].atMs = -1;
        }),
      ),
    ).toEqual([
      `real.events.5.term: missing or malformed`,
      'real.events.6.type: not an event of a real run (explosion)',
      'real.events.7.atMs: must be a time in ms, 0 or more',
    ]);
    const fault = FILE.real.events.findIndex((e: { type: string }) => e.type === 'fault');
    expect(
      problemsOf(
        edited((f) => {
          f.real.events[fault].fault.do = 'clockRate';
        }),
      ),
    ).toEqual([
      `real.events.${fault}.fault: an etcd member's clock rate cannot be changed from outside the process`,
    ]);
    expect(problemsOf(edited((f) => (f.real.settings.ttlMs = 1500)))).toEqual([
      'real.settings.ttlMs: must be whole seconds (etcd grants leases in seconds), 1000..3600000',
    ]);
    expect(problemsOf(edited((f) => (f.real.keepAlives = {})))).toEqual(['real.keepAlives: must be a list']);
    expect(problemsOf(edited((f) => (f.real.fromMs = 60_000)))).toEqual([
      expect.stringMatching(/^real\.fromMs: the page no longer held the recording's first 60 s/),
    ]);
  });

  it("says that the run's own trace file (npm run real -- --trace) is not the page's", () => {
    const own = {
      ...FILE,
      real: { settings: FILE.real.settings, etcdVersion: '3.4.23', startupMs: 900, commands: [] },
    };
    expect(problemsOf(own)).toEqual([expect.stringMatching(/^real: this is the run's own trace file/)]);
  });
});
