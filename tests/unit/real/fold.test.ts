// The run's fold: leader_count (every candidate that believes it leads, a stopped one too),
// failovers measured from the loss to the next election and readiness, and the samples, summary
// and final state, from a hand-written stream of events in the shapes the run emits.
import { describe, expect, it } from 'vitest';
import type { RealEvent, RealFaultEvent } from '../../../src/real/events';
import { RunFold } from '../../../src/real/fold';

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
    expect(f.sample(6000)).toMatchObject({ leaderCount: 0, maxTerm: 2, msWithoutLeader: 1000 + 995 });
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
    expect(f.leaderTransitions).toBe(1);
    expect(f.msWithoutLeaderAt(8000)).toBe(1000 + 1995);
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
    expect(f.maxLeaderCount).toBe(2);
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
});
