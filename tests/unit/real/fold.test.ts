// The run's fold: leader_count (every candidate that believes it leads, a stopped one too),
// failovers measured from the loss to the next election and readiness, and the samples, summary
// and final state, from a hand-written stream of events in the shapes the run emits, and from a
// recorded real run. Its counts are the engine monitor's: a real event stream, translated to the
// engine events the fold gives the monitor, folds to the same numbers through monitorEvents.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { SimEvent } from '../../../src/engine';
import { monitorEvents } from '../../engineChecks';
import type { RealEvent, RealFaultEvent } from '../../../src/real/model/events';
import { RunFold } from '../../../src/real/model/fold';
import { readTraceFile } from '../../../src/app/export/traceFile';
import { RecordingBackend } from '../../../src/store/backends/recordingBackend';
import { keepAliveEveryMs, type RunSettings } from '../../../src/real/model/settings';

const fault = (atMs: number, f: Record<string, unknown>, target?: string): RealFaultEvent => ({
  atMs,
  type: 'fault',
  fault: { atMs, ...f } as RealFaultEvent['fault'],
  target,
  live: true,
});
const started = (node: string): RealEvent => ({
  atMs: 0,
  type: 'process',
  node,
  part: 'candidate',
  state: 'started',
});

function fold(events: RealEvent[]): RunFold {
  const f = new RunFold(['n1', 'n2', 'n3'], { quorum: true, fencing: true }, 666);
  for (const e of events) f.apply(e);
  return f;
}

const boot: RealEvent[] = [
  started('n1'),
  started('n2'),
  started('n3'),
  { atMs: 900, type: 'campaign', node: 'n1', term: 2, preVote: false, transfer: false },
  { atMs: 1000, type: 'elected', node: 'n1', term: 2, votes: [] },
  { atMs: 1100, type: 'campaign', node: 'n2', term: 3, preVote: false, transfer: false },
  { atMs: 1200, type: 'campaign', node: 'n3', term: 4, preVote: false, transfer: false },
  { atMs: 1500, type: 'ready', node: 'n1', term: 2 },
];

describe('run fold', () => {
  it('the first election is no failover; a kill is measured from the command to the next election and readiness', () => {
    const f = fold([
      ...boot,
      fault(5000, { do: 'kill', node: 'leader' }, 'n1'),
      { atMs: 5005, type: 'steppedDown', node: 'n1', term: 2, reason: 'killed' },
      {
        atMs: 5005,
        type: 'process',
        node: 'n1',
        part: 'candidate',
        state: 'exited',
        code: null,
        signal: 'SIGKILL',
      },
    ]);
    // Start-up (before the first election at 1 s) is no outage: only the 995 ms since the kill count.
    expect(f.sample(6000)).toMatchObject({ leaderCount: 0, maxTerm: 2, msWithoutLeader: 995 });
    f.apply({ atMs: 7000, type: 'elected', node: 'n2', term: 3, votes: [] });
    f.apply({ atMs: 7500, type: 'ready', node: 'n2', term: 3 });
    expect(f.failovers).toEqual([
      {
        lostAtMs: 5000,
        detectedAtMs: 7000,
        electedAtMs: 7000,
        readyAtMs: 7500,
        node: 'n2',
        term: 3,
        from: 'n1',
        cause: 'killed',
      },
    ]);
    expect(f.summary(0, 0).leaderTransitions).toBe(1);
    expect(f.summary(8000, 0).msWithoutLeader).toBe(1995);
    expect(f.sample(8000)).toMatchObject({ leaderCount: 1, maxTerm: 3, leaderTransitions: 1 });
  });

  it('counts a stopped leader that still believes it leads: leader_count 2 until it learns it lost', () => {
    const f = fold([
      ...boot,
      fault(3000, { do: 'pause', node: 'n1', forMs: 5000 }, 'n1'),
      { atMs: 3000, type: 'process', node: 'n1', part: 'candidate', state: 'stopped' },
      { atMs: 5200, type: 'elected', node: 'n2', term: 3, votes: [] },
    ]);
    expect(f.leaderCount()).toBe(2);
    expect(f.topLeader()?.id).toBe('n2');
    f.apply({ atMs: 8000, type: 'process', node: 'n1', part: 'candidate', state: 'continued' });
    f.apply({
      atMs: 8001,
      type: 'write',
      node: 'n1',
      token: 2,
      result: 'rejected',
      maxTokenSeen: 3,
      stale: false,
      kind: 'leader',
    });
    f.apply({ atMs: 8002, type: 'steppedDown', node: 'n1', term: 2, reason: 'lease expired' });
    expect(f.leaderCount()).toBe(1);
    expect(f.summary(0, 0).maxLeaderCount).toBe(2);
    expect(f.failovers[0]).toMatchObject({ lostAtMs: 3000, from: 'n1', cause: 'paused', node: 'n2' });
    expect(f.summary(9000, 0)).toMatchObject({
      fencingRejections: 1,
      maxLeaderCount: 2,
      leaderTransitions: 1,
    });
    expect(f.final().nodes.map((n) => [n.id, n.role, n.term])).toEqual([
      ['n1', 'follower', 2],
      ['n2', 'leader', 3],
      ['n3', 'candidate', 4],
    ]);
  });

  it('a pause the lease survived is no loss: the next failover starts at its own cause', () => {
    const f = fold([
      ...boot,
      fault(3000, { do: 'pause', node: 'n1', forMs: 1000 }, 'n1'),
      { atMs: 4100, type: 'session', node: 'n1', leaseId: '1', state: 'renewed', ttlMs: 2000, gapMs: 1500 },
      fault(6000, { do: 'isolate', node: 'n1' }, 'n1'),
      { atMs: 8200, type: 'elected', node: 'n2', term: 3, votes: [] },
    ]);
    expect(f.failovers[0]).toMatchObject({ lostAtMs: 6000, cause: 'partitioned' });
  });

  it("a partition that leaves the leader's host in a minority loses it; one that does not, does not", () => {
    const minority = fold([...boot, fault(3000, { do: 'partition', groups: [['n1'], ['n2', 'n3']] })]);
    minority.apply({ atMs: 5000, type: 'elected', node: 'n2', term: 3, votes: [] });
    expect(minority.failovers[0]).toMatchObject({ lostAtMs: 3000, cause: 'partitioned' });
    const majority = fold([...boot, fault(3000, { do: 'partition', groups: [['n3']] })]);
    majority.apply({ atMs: 5000, type: 'steppedDown', node: 'n1', term: 2, reason: 'resigned' });
    majority.apply({ atMs: 5010, type: 'elected', node: 'n2', term: 3, votes: [] });
    expect(majority.failovers[0]).toMatchObject({ lostAtMs: 5000, cause: 'resigned' });
  });

  it("follows the members' raft roles and whom they follow", () => {
    const f = fold([
      { atMs: 10, type: 'process', node: 'n2', part: 'member', state: 'started' },
      { atMs: 20, type: 'member', member: 'm2', role: 'leader', term: 4 },
      { atMs: 20, type: 'memberLeader', member: 'm2', leader: 'm2', term: 4 },
    ]);
    expect(f.host('n2')).toMatchObject({
      memberAlive: true,
      memberRole: 'leader',
      memberTerm: 4,
      memberLeader: 'n2',
    });
  });

  it('the same candidate winning again is no leader transition (a change of holder is)', () => {
    const f = fold([
      ...boot,
      { atMs: 3000, type: 'steppedDown', node: 'n1', term: 2, reason: 'lease expired' },
      { atMs: 3100, type: 'campaign', node: 'n1', term: 5, preVote: false, transfer: false },
      { atMs: 3200, type: 'elected', node: 'n1', term: 5, votes: [] },
    ]);
    // The old fold counted every election after the first: 1 here.
    expect(f.summary(0, 0).leaderTransitions).toBe(0);
    expect(f.summary(4000, 0)).toMatchObject({ leaderTransitions: 0, elections: 2 });
    expect(f.failovers).toEqual([
      expect.objectContaining({
        lostAtMs: 3000,
        detectedAtMs: 3100,
        electedAtMs: 3200,
        from: 'n1',
        node: 'n1',
      }),
    ]);
    f.apply({ atMs: 5000, type: 'steppedDown', node: 'n1', term: 5, reason: 'resigned' });
    f.apply({ atMs: 5100, type: 'elected', node: 'n2', term: 3, votes: [] });
    expect(f.sample(6000)).toMatchObject({ leaderTransitions: 1, leaderCount: 1 });
  });

  it('a leader whose process ends steps down; a stopped one is left out of the observed count', () => {
    const f = fold([
      ...boot,
      // As the run emits a pause: the process stopped, then the command's own event.
      { atMs: 2000, type: 'process', node: 'n1', part: 'candidate', state: 'stopped' },
      fault(2000, { do: 'pause', node: 'leader' }, 'n1'),
    ]);
    expect(f.sample(2500)).toMatchObject({ leaderCount: 1, leaderCountObserved: 0 });
    const fed = f.apply({
      atMs: 3000,
      type: 'process',
      node: 'n1',
      part: 'candidate',
      state: 'exited',
      signal: 'SIGKILL',
    });
    // Lost at its pause already; it steps down, and is killed to the engine (no kill command
    // came: a stopped candidate exits only at the run's end), so no longer paused.
    expect(fed.map((e) => e.type)).toEqual(['steppedDown', 'fault']);
    expect(f.failovers).toEqual([]);
    expect(f.monitor.books.pendingLoss).toMatchObject({ atMs: 2000, from: 'n1', cause: 'paused' });
    expect(f.sample(3500)).toMatchObject({
      leaderCount: 0,
      leaderCountObserved: 0,
      msWithoutLeader: 1000 + 500,
    });
    f.apply({ atMs: 4000, type: 'process', node: 'n1', part: 'candidate', state: 'started' });
    f.apply({ atMs: 5000, type: 'elected', node: 'n1', term: 7, votes: [] });
    expect(f.sample(5500)).toMatchObject({ leaderCount: 1, leaderCountObserved: 1 });
  });

  it('a stopped leader killed by a command: the command is the kill, its exit adds none', () => {
    const f = fold([
      ...boot,
      { atMs: 2000, type: 'process', node: 'n1', part: 'candidate', state: 'stopped' },
      fault(2000, { do: 'pause', node: 'leader' }, 'n1'),
    ]);
    const killed = f.apply(fault(2500, { do: 'kill', node: 'n1' }, 'n1'));
    expect(killed).toEqual([
      { atMs: 2500, type: 'fault', fault: { atMs: 2500, do: 'kill', node: 'n1' }, target: 'n1', live: true },
    ]);
    const exited = f.apply({
      atMs: 2501,
      type: 'process',
      node: 'n1',
      part: 'candidate',
      state: 'exited',
      signal: 'SIGKILL',
    });
    expect(exited.map((e) => e.type)).toEqual(['steppedDown']);
    expect(f.host('n1')).toMatchObject({ candidateAlive: false, candidatePaused: false, pausedAtMs: -1 });
  });

  it("shows each command as the engine's fault on the node or service it hit, a skipped one too", () => {
    const f = fold(boot);
    expect(f.apply(fault(2000, { do: 'kill', node: 'leader', part: 'member' }, 'n1'))).toEqual([
      { atMs: 2000, type: 'fault', fault: { atMs: 2000, do: 'kill', node: 'm1' }, target: 'm1', live: true },
      { atMs: 2000, type: 'lost', node: 'n1', term: 2, cause: 'its etcd member was killed' },
    ]);
    const none = { ...fault(2100, { do: 'resume', node: 'n3' }, 'n3'), skipped: true };
    expect(f.apply(none)).toEqual([
      {
        atMs: 2100,
        type: 'fault',
        fault: { atMs: 2100, do: 'resume', node: 'n3' },
        target: 'n3',
        skipped: true,
        live: true,
      },
    ]);
    expect(f.apply({ atMs: 2200, type: 'steppedDown', node: 'n1', term: 2, reason: 'resigned' })).toEqual([
      { atMs: 2200, type: 'steppedDown', node: 'n1', term: 2, reason: 'stopped' },
    ]);
  });

  it('folds a recorded real run to the numbers monitorEvents gives for the events it fed the monitor', () => {
    const text = readFileSync(new URL('./fixtures/real-run-trace.json', import.meta.url), 'utf8');
    const file = JSON.parse(text) as { atMs: number; real: { settings: RunSettings; events: RealEvent[] } };
    const settings = file.real.settings;
    const ids = Array.from({ length: settings.nodes }, (_, i) => `n${i + 1}`);
    const safety = { quorum: true, fencing: settings.fencing };
    const f = new RunFold(ids, { ...safety }, keepAliveEveryMs(settings));
    const fed: SimEvent[] = [];
    for (const e of file.real.events) fed.push(...f.apply(e));
    const nowMs = file.atMs;
    const direct = monitorEvents(
      { algorithm: 'etcd-election', safety: { ...safety, followersReject: true } },
      fed,
      nowMs,
    );
    const summary = f.summary(nowMs, 0);
    const sample = f.sample(nowMs);
    expect({
      leaderCount: sample.leaderCount,
      leaderCountObserved: sample.leaderCountObserved,
      leaderTransitions: summary.leaderTransitions,
      fencingRejections: summary.fencingRejections,
      staleWritesAccepted: summary.staleWritesAccepted,
      divergentWrites: summary.divergentWrites,
      clientRedirects: summary.clientRedirects,
      maxLeaderCount: summary.maxLeaderCount,
      msWithoutLeader: summary.msWithoutLeader,
      failovers: summary.failovers,
      violations: summary.violations,
    }).toEqual(direct);
    // The page's snapshot of the same moment comes from the same builder and says the same.
    const read = readTraceFile(text);
    if (!read.ok) throw new Error(read.problems.join('\n'));
    const page = new RecordingBackend(read.run.real!, read.run.atMs).snapshot();
    const { failovers, violations, leaderCount, leaderCountObserved, ...counters } = direct;
    expect(page.nowMs).toBe(nowMs);
    expect(page.counters).toEqual(counters);
    expect({ failovers: page.failovers, violations: page.violations }).toEqual({ failovers, violations });
    expect([page.leaderCount, page.leaderCountObserved]).toEqual([leaderCount, leaderCountObserved]);
    // And what they are: n2 led from 1.4 s (start-up before it is no outage), was killed at
    // 8.5 s, n1 led from 10.5 s.
    expect(direct).toMatchObject({
      leaderCount: 1,
      leaderTransitions: 1,
      maxLeaderCount: 1,
      msWithoutLeader: 10456 - 8498,
      violations: [],
    });
    expect(direct.failovers).toEqual([
      {
        lostAtMs: 8493,
        detectedAtMs: 10456,
        electedAtMs: 10456,
        readyAtMs: 10957,
        node: 'n1',
        term: 3,
        from: 'n2',
        cause: 'killed',
      },
    ]);
    // The fed stream is the real one in the engine's shapes: only the monitor's own events added.
    expect(fed.filter((e) => e.type === 'lost')).toEqual([
      { atMs: 8493, type: 'lost', node: 'n2', term: 2, cause: 'killed' },
    ]);
  });
});
