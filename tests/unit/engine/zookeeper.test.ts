// ZooKeeper's leader-election recipe (recipes.md) and session rules (zookeeperProgrammers.md):
// the lowest sequence number leads; each other candidate watches its predecessor, so a change of
// leader wakes one candidate (watching the leader instead wakes them all: the herd effect); a
// session the ensemble stops hearing from expires after its timeout and its znode goes; a client
// learns of its own expiry only when it hears from the ensemble again; the czxid is the token.
import { describe, expect, it } from 'vitest';
import { runExperiment, Simulation, type ExperimentInput } from '../../../src/engine';
import { eventsOf, leaders } from './harness';

const lab = (extra: Partial<ExperimentInput> = {}): ExperimentInput => ({
  algorithm: 'zookeeper',
  seed: 4,
  nodes: 5,
  untilMs: 80_000,
  ...extra,
});

describe('the recipe', () => {
  it('makes the lowest sequence number leader, then the next, each token a czxid above the last', () => {
    const sim = new Simulation(lab({ zookeeper: { sessionTimeoutMs: 4_000 } }));
    for (let t = 10_000; t <= 40_000; t += 10_000) {
      sim.runUntil(t);
      sim.apply({ do: 'kill', node: leaders(sim)[0].id });
    }
    sim.runUntil(60_000);
    const tokens = eventsOf(sim, 'elected').map((e) => e.term);
    expect(tokens).toHaveLength(5);
    expect(tokens).toEqual([...tokens].sort((a, b) => a - b));
    expect(new Set(tokens).size).toBe(tokens.length);
    expect(sim.summary().violations).toEqual([]);
  });

  // Every cluster size the issue names, 3 to 9 candidates, the even ones included.
  for (let n = 3; n <= 9; n++) {
    it(`sends 1 watch notification and 1 read per change of leader watching the predecessor, and ${n - 1} of each watching the leader (${n} candidates)`, () => {
      const run = (watch: 'predecessor' | 'leader') =>
        runExperiment(
          lab({
            nodes: n,
            zookeeper: { watch },
            faults: [{ atMs: 20_000, do: 'stop', node: 'leader' }],
            untilMs: 30_000,
          }),
        ).summary;
      const recipe = run('predecessor');
      const herd = run('leader');
      expect(recipe.leaderTransitions).toBe(1);
      // Only the stopped leader's successor is told, and only it reads the children again.
      expect(recipe.watchNotifications).toBe(1);
      expect(recipe.watchReads).toBe(1);
      expect(herd.leaderTransitions).toBe(1);
      // Every waiter but the stopped leader is told; each then reads the children again.
      expect(herd.watchNotifications).toBe(n - 1);
      expect(herd.watchReads).toBe(n - 1);
    });
  }
});

describe('sessions', () => {
  it('expires a dead leader\u2019s session after its timeout: its znode goes and the next leads', () => {
    const sim = new Simulation(lab());
    sim.runUntil(10_000);
    sim.apply({ do: 'kill', node: leaders(sim)[0].id });
    sim.runUntil(30_000);
    const next = eventsOf(sim, 'elected').find((e) => e.atMs > 10_000)!;
    // The last ping came at most a third of the timeout before the kill.
    expect(next.atMs - 10_000).toBeGreaterThan(10_000 - 10_000 / 3 - 200);
    expect(next.atMs - 10_000).toBeLessThan(10_000 + 1_000);
  });

  it('lets a paused leader believe it leads after its znode is gone, until it hears from the ensemble; its write is fenced by czxid', () => {
    const sim = new Simulation(lab());
    sim.runUntil(10_000);
    const [l] = leaders(sim);
    sim.apply({ do: 'pause', node: l.id, forMs: 20_000 });
    sim.runUntil(40_000);
    const [first, next] = eventsOf(sim, 'elected');
    expect(next.atMs).toBeLessThan(30_000);
    expect(next.term).toBeGreaterThan(first.term);
    const late = eventsOf(sim, 'write').filter((w) => w.node === l.id && w.atMs >= 30_000);
    expect(late[0]).toMatchObject({ token: first.term, result: 'rejected' });
    const down = eventsOf(sim, 'steppedDown').find((e) => e.node === l.id)!;
    expect(down.reason).toBe('session expired');
    // It learned on its first exchange after waking, not before.
    expect(down.atMs).toBeGreaterThanOrEqual(30_000);
    expect(down.atMs - 30_000).toBeLessThan(1_000);
  });

  it('refuses a session timeout outside 2..20 x tickTime, as the ensemble negotiates it', () => {
    expect(() => new Simulation(lab({ zookeeper: { sessionTimeoutMs: 3_000 } }))).toThrow(
      /zookeeper\.sessionTimeoutMs: .*between 2 and 20 x tickTimeMs/,
    );
  });
});

describe('the ensemble', () => {
  it('stops every write without a majority: no new leader until a server returns', () => {
    const sim = new Simulation(lab());
    sim.runUntil(10_000);
    const [l] = leaders(sim);
    sim.apply({ do: 'kill', node: 'z1' });
    sim.apply({ do: 'kill', node: 'z2' });
    sim.apply({ do: 'kill', node: l.id });
    sim.runUntil(40_000);
    expect(eventsOf(sim, 'elected').filter((e) => e.atMs > 10_000)).toEqual([]);
    sim.apply({ do: 'restart', node: 'z1' });
    sim.runUntil(80_000);
    expect(leaders(sim)).toHaveLength(1);
  });
  it('serves no client from a server outside a majority: the leader\u2019s session survives only once a majority is back', () => {
    // The lone server left answers nothing (it has no leader of its own), so the leader cannot
    // renew its session and hears nothing: it is not "survived" while the ensemble has no
    // majority. A majority back together gives every session a full timeout, so the leader's
    // session lives, it reconnects, and it leads on with the same znode and token.
    const sim = new Simulation(lab({ nodes: 3, seed: 1 }));
    sim.runUntil(15_000);
    const [l] = leaders(sim);
    sim.apply({ do: 'kill', node: 'z1' });
    sim.apply({ do: 'kill', node: 'z2' });
    sim.runUntil(40_000);
    expect(eventsOf(sim, 'lost').map((e) => [e.node, e.cause])).toEqual([
      [l.id, 'the ensemble lost its majority'],
    ]);
    expect(eventsOf(sim, 'survived')).toEqual([]);
    sim.apply({ do: 'restart', node: 'z1' });
    sim.runUntil(80_000);
    const survived = eventsOf(sim, 'survived');
    expect(survived.map((e) => e.node)).toEqual([l.id]);
    expect(survived[0].atMs).toBeGreaterThan(40_000);
    expect(eventsOf(sim, 'elected')).toHaveLength(1);
    expect(leaders(sim).map((x) => x.id)).toEqual([l.id]);
  });
});
