// The page's recording of a real run: the events the bridge streams, folded at the moment shown
// into the snapshot, log events and samples the views read; scrubbing back refolds, and the page's
// commands become the bridge's. From a hand-written stream in the shapes the run emits (the live
// stream itself is tested in tests/e2e/real-mode.spec.ts, on a real etcd cluster).
import { describe, expect, it } from 'vitest';
import type { RealEvent, RealFaultEvent } from '../../src/real/model/events';
import { DEFAULT_SETTINGS, TIMINGS, type RunSettings } from '../../src/real/model/settings';
import { parseRealCommand, toRealCommand } from '../../src/real/model/commands';
import { LiveRecording } from '../../src/store/backends/liveRecording';
import { readRealLink, RealLinkError } from '../../src/store/backends/liveParams';
import { parseExperiment } from '../../src/engine';

const SETTINGS: RunSettings = { ...DEFAULT_SETTINGS, ...TIMINGS.fast, ttlMs: 2000, warmUpMs: 500 };

const fault = (atMs: number, f: Record<string, unknown>, target?: string): RealFaultEvent => ({
  atMs,
  type: 'fault',
  fault: { atMs, ...f } as RealFaultEvent['fault'],
  target,
  live: true,
});
const proc = (atMs: number, node: string, part: 'candidate' | 'member', state: string): RealEvent =>
  ({ atMs, type: 'process', node, part, state }) as RealEvent;

const RUN: RealEvent[] = [
  ...['n1', 'n2', 'n3'].flatMap((n) => [
    proc(0, n, 'member', 'started'),
    proc(400, n, 'candidate', 'started'),
  ]),
  { atMs: 300, type: 'member', member: 'm2', role: 'leader', term: 2 },
  { atMs: 900, type: 'campaign', node: 'n1', term: 5, preVote: false, transfer: false },
  { atMs: 900, type: 'elected', node: 'n1', term: 5, votes: [] },
  { atMs: 950, type: 'campaign', node: 'n2', term: 6, preVote: false, transfer: false },
  { atMs: 1400, type: 'ready', node: 'n1', term: 5 },
  {
    atMs: 2400,
    type: 'write',
    node: 'n1',
    token: 5,
    result: 'accepted',
    maxTokenSeen: 5,
    stale: false,
    kind: 'leader',
  },
  fault(3000, { do: 'pause', node: 'leader', forMs: 4000 }, 'n1'),
  proc(3000, 'n1', 'candidate', 'stopped'),
  { atMs: 4900, type: 'elected', node: 'n2', term: 6, votes: [] },
  proc(7000, 'n1', 'candidate', 'continued'),
  {
    atMs: 7010,
    type: 'write',
    node: 'n1',
    token: 5,
    result: 'rejected',
    maxTokenSeen: 6,
    stale: false,
    kind: 'leader',
  },
  { atMs: 7011, type: 'steppedDown', node: 'n1', term: 5, reason: 'fenced by storage' },
  fault(8000, { do: 'isolate', node: 'n3', part: 'host' }, 'n3'),
  fault(8500, { do: 'kill', node: 'n2', part: 'member' }, 'n2'),
  proc(8501, 'n2', 'member', 'exited'),
];

function recorded(events = RUN): LiveRecording {
  const r = new LiveRecording(SETTINGS);
  for (const e of events) r.receive(e);
  return r;
}

describe('live recording', () => {
  it('shows the run at the moment asked, never what came after it', () => {
    const r = recorded();
    r.showAt(1000);
    let s = r.snapshot();
    expect(s.nodes.map((n) => [n.id, n.role, n.term])).toEqual([
      ['n1', 'leader', 5],
      ['n2', 'candidate', 6],
      ['n3', 'follower', 0],
    ]);
    expect(s.leaderCount).toBe(1);
    expect(s.services.map((v) => [v.id, v.kind, v.alive])).toEqual([
      ['m1', 'etcdMember', true],
      ['m2', 'etcdMember', true],
      ['m3', 'etcdMember', true],
    ]);
    expect(r.events.map((e) => e.type)).toEqual(['campaign', 'elected', 'campaign']);
    // The stopped holder still believes it leads: two believed, one observed.
    r.showAt(5000);
    s = r.snapshot();
    expect([s.leaderCount, s.leaderCountObserved]).toEqual([2, 1]);
    expect(s.nodes[0]).toMatchObject({ paused: true, pausedAtMs: 3000 });
    expect(s.failovers).toEqual([
      expect.objectContaining({ from: 'n1', node: 'n2', lostAtMs: 3000, electedAtMs: 4900, cause: 'paused' }),
    ]);
    expect(r.samples.map((x) => x.atMs)).toEqual(Array.from({ length: 50 }, (_, i) => (i + 1) * 100));
    expect(r.samples[39]).toMatchObject({ atMs: 4000, leaderCount: 1, leaderCountObserved: 0 });
    expect(r.samples[49]).toMatchObject({ atMs: 5000, leaderCount: 2, leaderCountObserved: 1 });
  });

  it("logs the zombie's resume and its write rejected in the engine's words, and scrubbing back refolds", () => {
    const r = recorded();
    r.showAt(9000);
    const types = r.events.map((e) => e.type);
    // The kill of the leader n2's etcd member loses it, as the monitor counts it: the log says so.
    expect(types.slice(-6)).toEqual(['resumed', 'write', 'steppedDown', 'fault', 'fault', 'lost']);
    expect(r.events.find((e) => e.type === 'resumed')).toEqual({
      atMs: 7000,
      type: 'resumed',
      node: 'n1',
      pausedMs: 4000,
    });
    const s = r.snapshot();
    expect(s.storage).toMatchObject({ maxTokenSeen: 6, accepted: 1, rejected: 1 });
    expect(s.storage.recent.at(-1)).toMatchObject({ node: 'n1', token: 5, result: 'rejected' });
    // The member killed is its service, the host isolated draws with its member.
    expect(r.events.at(-2)).toMatchObject({ type: 'fault', fault: { do: 'kill', node: 'm2' }, target: 'm2' });
    expect(r.events.at(-1)).toEqual({
      atMs: 8500,
      type: 'lost',
      node: 'n2',
      term: 6,
      cause: 'its etcd member was killed',
    });
    expect(s.services[1].alive).toBe(false);
    expect(s.partition).toEqual([
      ['n3', 'm3'],
      ['n1', 'm1', 'n2', 'm2'],
    ]);
    expect(r.commands.map((c) => c.command.do)).toEqual(['pause', 'isolate', 'kill']);
    const total = r.eventsTotal;
    r.showAt(2000);
    expect(r.snapshot()).toMatchObject({ nowMs: 2000, partition: null, leaderCount: 1 });
    expect(r.eventsTotal).toBeLessThan(total);
    expect(r.samplesTotal).toBe(20);
    r.showAt(9000);
    expect(r.eventsTotal).toBe(total);
    expect(r.snapshot()).toEqual(s);
  });

  it('a backlog that arrives after the page showed a later moment is folded again, samples too', () => {
    const r = new LiveRecording(SETTINGS);
    r.showAt(5000);
    expect(r.snapshot().leaderCount).toBe(0);
    for (const e of RUN) r.receive(e);
    r.showAt(5000);
    const fresh = recorded();
    fresh.showAt(5000);
    expect(r.snapshot()).toEqual(fresh.snapshot());
    expect(r.samples).toEqual(fresh.samples);
    expect(r.samples[20].leaderCount).toBe(1);
  });

  it('a leader that is cut from etcd is alone on the stage', () => {
    const r = recorded([
      ...RUN.slice(0, 12),
      fault(3000, { do: 'isolate', node: 'n1', part: 'candidate' }, 'n1'),
    ]);
    r.showAt(3500);
    expect(r.snapshot().partition).toEqual([['n1'], ['m1', 'n2', 'm2', 'n3', 'm3']]);
  });

  it("keeps the run's experiment valid for the simulator's words and settings", () => {
    const r = recorded();
    expect(r.experiment.algorithm).toBe('etcd-election');
    expect(r.experiment.etcd).toEqual({ ttlMs: 2000, renewDeadlineMs: 0 });
    expect(parseExperiment(r.experiment).ok).toBe(true);
  });
});

describe("the page's commands as the bridge's", () => {
  const real = (cmd: Parameters<typeof toRealCommand>[0]) => {
    const r = toRealCommand(cmd);
    if (!r.ok) return r;
    // Whatever the page sends, the bridge's own check accepts.
    expect(parseRealCommand(r.command, 3)).toEqual({ ok: true, command: r.command });
    return r.command;
  };
  it('a node is its candidate, a service its etcd member', () => {
    expect(real({ do: 'kill', node: 'leader' })).toEqual({ do: 'kill', node: 'leader', part: 'candidate' });
    expect(real({ do: 'kill', node: 'm2' })).toEqual({ do: 'kill', node: 'n2', part: 'member' });
    expect(real({ do: 'pause', node: 'n1', forMs: 5000 })).toEqual({
      do: 'pause',
      node: 'n1',
      part: 'candidate',
      forMs: 5000,
    });
    expect(real({ do: 'isolate', node: 'n3' })).toEqual({ do: 'isolate', node: 'n3', part: 'candidate' });
    expect(real({ do: 'isolate', node: 'm3' })).toEqual({ do: 'isolate', node: 'n3', part: 'host' });
    expect(
      real({
        do: 'partition',
        groups: [
          ['n1', 'm1'],
          ['n2', 'n3', 'storage'],
        ],
      }),
    ).toEqual({
      do: 'partition',
      groups: [['n1'], ['n2', 'n3', 'storage']],
    });
    expect(real({ do: 'safety', fencing: false })).toEqual({ do: 'safety', fencing: false });
  });
  it('what a real cluster cannot do is refused by name', () => {
    expect(real({ do: 'clockRate', node: 'n1', rate: 2 })).toMatchObject({
      ok: false,
      error: expect.stringContaining('not possible for real'),
    });
    expect(real({ do: 'campaign', node: 'n1' })).toMatchObject({ ok: false });
    expect(real({ do: 'safety', quorum: false })).toMatchObject({
      ok: false,
      error: expect.stringContaining('quorum'),
    });
  });
});

describe('the real-mode link', () => {
  const err = (search: string) => {
    const r = readRealLink(search);
    return r instanceof RealLinkError ? r.error : r;
  };
  it('is read only when asked for, and checked before use', () => {
    expect(err('?seed=3')).toBeNull();
    const token = 'abcdefghijklmnopqrstuvwxyz012345';
    expect(err(`?real=http://127.0.0.1:40123&token=${token}`)).toEqual({
      url: 'http://127.0.0.1:40123',
      token,
    });
    expect(err(`?real=http://localhost:40123/&token=${token}`)).toEqual({
      url: 'http://localhost:40123',
      token,
    });
    expect(err(`?real=http://example.com:40123&token=${token}`)).toBe('bad real url');
    expect(err(`?real=https://127.0.0.1:40123&token=${token}`)).toBe('bad real url');
    expect(err(`?real=http://127.0.0.1&token=${token}`)).toBe('bad real url');
    expect(err(`?real=http://127.0.0.1:1/x&token=${token}`)).toBe('bad real url');
    expect(err(`?real=nonsense&token=${token}`)).toBe('bad real url');
    expect(err(`?token=${token}`)).toBe('bad real url');
    expect(err('?real=http://127.0.0.1:40123')).toBe('missing token');
    expect(err('?real=http://127.0.0.1:40123&token=short')).toBe('bad token format');
    expect(err('?real=http://127.0.0.1:40123&token=%3Cscript%3Eabcdefghijklmno')).toBe('bad token format');
  });
});
