// A real run's simulated twin has one name: the run's own trace file (`npm run real -- --trace`,
// the bridge's GET /trace) and the page's export of the same run name the same algorithm, and
// replay as the same run. The recorded run is the fixture the page exported in real mode; the
// run's own file is built from the same events as RealRun.trace() builds it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runExperiment, type Experiment } from '../../../src/engine';
import { algorithmFor } from '../../../src/engine/algorithms';
import { readTraceFile, traceFileOf } from '../../../src/app/export/traceFile';
import type { RealEvent, RealFaultEvent } from '../../../src/real/model/events';
import { RunFold } from '../../../src/real/model/fold';
import { keepAliveEveryMs } from '../../../src/real/model/settings';
import { buildTrace } from '../../../src/real/model/trace';
import { TWIN_ALGORITHM } from '../../../src/real/model/twin';
import { RecordingBackend } from '../../../src/store/backends/recordingBackend';

const TEXT = readFileSync(new URL('./fixtures/real-run-trace.json', import.meta.url), 'utf8');

/** The page's export of the recorded run, at its saved moment. */
function pageExport() {
  const r = readTraceFile(TEXT);
  if (!r.ok) throw new Error(r.problems.join('\n'));
  return JSON.parse(JSON.stringify(traceFileOf(new RecordingBackend(r.run.real!, r.run.atMs))));
}

/** The run's own trace file of the same run, up to the same moment. */
function runTraceFile(nowMs: number) {
  const { real } = JSON.parse(TEXT) as { real: { settings: never; events: RealEvent[] } };
  const settings = real.settings as Parameters<typeof buildTrace>[0]['settings'];
  const ids = Array.from({ length: settings.nodes }, (_, i) => `n${i + 1}`);
  const fold = new RunFold(ids, { quorum: true, fencing: settings.fencing }, keepAliveEveryMs(settings));
  const events = real.events.filter((e) => e.atMs <= nowMs);
  for (const e of events) fold.apply(e);
  const commands = events
    .filter((e): e is RealFaultEvent => e.type === 'fault')
    .map((e) => ({ fault: e.fault, target: e.target }));
  return JSON.parse(
    JSON.stringify(
      buildTrace({
        settings,
        etcdVersion: '3.4.23',
        startupMs: 0,
        commands,
        events,
        samples: [],
        fold,
        nowMs,
        eventsDropped: 0,
      }),
    ),
  );
}

describe("a real run's simulated twin", () => {
  const page = pageExport();
  const own = runTraceFile(page.atMs);

  it("is etcd's election recipe, what the real candidates run, in both files", () => {
    expect(TWIN_ALGORITHM).toBe('etcd-election');
    expect(own.experiment.algorithm).toBe(TWIN_ALGORITHM);
    expect(page.experiment.algorithm).toBe(TWIN_ALGORITHM);
    expect(page.trace.experiment.algorithm).toBe(TWIN_ALGORITHM);
    // Its session is the run's: TTL 2 s, no renew deadline.
    expect(own.experiment.etcd).toEqual({ ttlMs: 2000, renewDeadlineMs: 0 });
  });

  it('is the same experiment in both, the kill included, and replays to the same run', () => {
    // The page's file keeps its commands beside the experiment; its trace's experiment carries
    // them as faults, as the run's own file does.
    expect(page.commands).toEqual([{ atMs: 8493, command: { do: 'kill', node: 'n2' } }]);
    expect(own.experiment).toEqual(page.trace.experiment);
    const replay = (e: Experiment) => runExperiment(e);
    const a = replay(own.experiment);
    const b = replay(page.trace.experiment);
    expect(a.events).toEqual(b.events);
    expect(a.summary).toEqual(b.summary);
    // And the replay runs the twin's rules: an etcd session, with its members as services.
    expect(algorithmFor(own.experiment.algorithm).services?.map((s) => s.id)).toEqual(['m1', 'm2', 'm3']);
    expect(a.events.some((e) => e.type === 'fault' && e.fault.do === 'kill' && e.target === 'n2')).toBe(true);
  });
});
