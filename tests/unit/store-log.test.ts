// The event log tells both ends of a timed GC pause (the engine reports only its start), in
// order among the other events, once per pause; a command aimed at a leader there is not says
// so; and its lines speak the run's algorithm (Bully's coordinator and epoch, a service's name).
import { describe, expect, it } from 'vitest';
import { algorithmFor } from '../../src/engine';
import { announceEvent, describeEvent } from '../../src/store/format';
import { createLabStore } from '../../src/store/labStore';

function leaderOf(store: ReturnType<typeof createLabStore>): string {
  return store.getState().snapshot.nodes.find((n) => n.alive && n.role === 'leader')!.id;
}

describe('event log', () => {
  it('records the end of a GC pause, after the events before it and before those after', () => {
    const store = createLabStore({ experiment: { seed: 1, nodes: 3 }, playing: false });
    store.getState().advanceBy(8_000);
    const leader = leaderOf(store);
    store.getState().command({ do: 'pause', node: leader, forMs: 5_000 });
    store.getState().advanceBy(8_000);
    const log = store.getState().log;
    const ends = log.filter((e) => e.text === `${leader}'s 5.0 s GC pause ended: it runs again`);
    expect(ends).toHaveLength(1);
    expect(ends[0].atMs).toBe(13_000);
    const times = log.map((e) => e.atMs);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    // A jump back and forth rebuilds the log with the same line, once.
    store.getState().seek(2_000);
    store.getState().seek(16_000);
    expect(store.getState().log.filter((e) => e.text.includes('GC pause ended'))).toHaveLength(1);
  });

  it('a pause cut short by a kill has no end to tell', () => {
    const store = createLabStore({ experiment: { seed: 1, nodes: 3 }, playing: false });
    store.getState().advanceBy(8_000);
    const leader = leaderOf(store);
    store.getState().command({ do: 'pause', node: leader, forMs: 5_000 });
    store.getState().advanceBy(1_000);
    store.getState().command({ do: 'kill', node: leader });
    store.getState().advanceBy(8_000);
    expect(store.getState().log.some((e) => e.text.includes('GC pause ended'))).toBe(false);
  });

  it('says so when a command for the leader finds none', () => {
    const store = createLabStore({ experiment: { seed: 1, nodes: 3 }, playing: false });
    store.getState().command({ do: 'kill', node: 'leader' });
    expect(store.getState().log.at(-1)?.text).toBe('kill the leader: skipped, there was no leader');
  });
});

describe("event text in the algorithm's words", () => {
  const elected = { atMs: 1, type: 'elected', node: 'n3', term: 4 } as const;
  it("keeps Raft's wording: votes won, a term", () => {
    expect(describeEvent({ ...elected, votes: ['n1', 'n3'] })).toBe('n3 won term 4 with votes from n1, n3');
    expect(
      describeEvent({ atMs: 1, type: 'steppedDown', node: 'n3', term: 4, reason: 'saw higher term' }),
    ).toBe('n3 stopped leading term 4: saw higher term');
  });

  it("says Bully's coordinator took office in an epoch, with no votes to name", () => {
    const bully = algorithmFor('bully');
    expect(describeEvent({ ...elected, votes: [] }, bully)).toBe('n3 became coordinator (epoch 4)');
    expect(describeEvent({ atMs: 1, type: 'lost', node: 'n3', term: 4, cause: 'killed' }, bully)).toBe(
      'n3, the coordinator of epoch 4, is lost (killed): a failover begins',
    );
    expect(announceEvent({ ...elected, votes: [] }, bully)).toBe('n3 is the coordinator of epoch 4');
  });

  it('names a service by its label', () => {
    const k8s = algorithmFor('k8s-lease');
    const kill = {
      atMs: 1,
      type: 'fault',
      fault: { atMs: 1, do: 'kill', node: 'm1' },
      target: 'm1',
    } as const;
    expect(describeEvent(kill, k8s)).toBe('killed etcd m1');
    expect(describeEvent({ ...kill, target: 'api', fault: { ...kill.fault, node: 'api' } }, k8s)).toBe(
      'killed API server',
    );
  });
});
