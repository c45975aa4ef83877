// The znode queue scene's model from fixed runs: game days 18a (watch the predecessor) and 18b
// (watch the leader, the herd effect), seed 1, nine candidates, the leader killed at 15 s.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Simulation, type Snapshot } from '../../src/engine';
import { parseScenario } from '../../src/scenario/schema';
import { queueModel } from '../../scenes/ZnodeQueueScene/queueModel';

function simOf(file: string): Simulation {
  const r = parseScenario(
    JSON.parse(readFileSync(new URL(`../../scenes/scenarios/${file}`, import.meta.url), 'utf8')),
  );
  if (!r.ok) throw new Error(`${file} does not validate`);
  return new Simulation(r.scenario.experiment);
}

function at(sim: Simulation, ms: number): { s: Snapshot; m: ReturnType<typeof queueModel> } {
  sim.runUntil(ms);
  const s = sim.snapshot();
  if (!s.queue) throw new Error('a ZooKeeper run without a queue view');
  return { s, m: queueModel(s.queue, s.nodes, s.messages, s.nowMs) };
}

describe('znode queue model', () => {
  it('watch the predecessor: a chain of arrows, one notification and one read per failover', () => {
    const sim = simOf('18a-zookeeper-watch-predecessor.json');
    const { m } = at(sim, 14_000);
    expect(m.rows.map((r) => r.owner)).toEqual(['n2', 'n1', 'n6', 'n9', 'n5', 'n3', 'n4', 'n7', 'n8']);
    expect(m.rows.map((r) => r.number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(m.rows[0].leads).toBe(true);
    expect(m.rows[0].name).toBe('/election/n_0000000001');
    expect(m.arrows).toEqual(Array.from({ length: 8 }, (_, i) => ({ from: i + 1, to: i })));
    expect(m.outside).toEqual([]);
    // The killed leader's znode stays; its session runs down on the ensemble's clock.
    const dead = at(sim, 20_000).m;
    expect(dead.rows[0]).toMatchObject({ owner: 'n2', leads: true, ownerDown: 'dead', sessionLeftMs: 3870 });
    expect(dead.rows.slice(1).every((r) => r.sessionLeftMs > 6000 && r.ownerDown === null)).toBe(true);
    const end = at(sim, 35_000);
    expect(end.m.rows[0]).toMatchObject({ owner: 'n1', leads: true });
    expect(end.m.arrows).toHaveLength(7);
    expect(end.s.queue).toMatchObject({ watch: 'predecessor', watchNotifications: 1, watchReads: 1 });
  });

  it('watch the leader: eight arrows to one znode, eight notifications in flight at once', () => {
    const sim = simOf('18b-zookeeper-herd-effect.json');
    const { m } = at(sim, 14_000);
    expect(m.arrows).toEqual(Array.from({ length: 8 }, (_, i) => ({ from: i + 1, to: 0 })));
    // Just after the expiry: the herd is being told (four notifications still on their way).
    const herd = at(sim, 24_000);
    expect(herd.m.rows.filter((r) => r.notified).map((r) => r.owner)).toEqual(['n9', 'n5', 'n7', 'n8']);
    expect(herd.m.notifiedNow).toBe(4);
    expect(herd.m.arrows).toEqual([]);
    const end = at(sim, 35_000);
    expect(end.m.arrows).toEqual(Array.from({ length: 7 }, (_, i) => ({ from: i + 1, to: 0 })));
    expect(end.s.queue).toMatchObject({ watch: 'leader', watchNotifications: 8, watchReads: 8 });
  });

  it("etcd's election keys are the same queue, by create revision, each watching its predecessor", () => {
    const sim = new Simulation({ algorithm: 'etcd-election', seed: 1, nodes: 5, untilMs: 20_000 });
    sim.runUntil(12_000);
    const s = sim.snapshot();
    const m = queueModel(s.queue!, s.nodes, s.messages, s.nowMs);
    expect(s.queue).toMatchObject({ path: 'election/', numberName: 'create revision', watchReads: null });
    expect(m.rows.map((r) => r.number)).toEqual([2, 3, 4, 5, 6]);
    expect(m.rows.every((r) => r.token === r.number)).toBe(true);
    expect(m.arrows).toEqual(Array.from({ length: 4 }, (_, i) => ({ from: i + 1, to: i })));
  });

  it('other algorithms have no queue', () => {
    expect(
      new Simulation({ algorithm: 'raft', seed: 1, nodes: 3, untilMs: 1000 }).snapshot().queue,
    ).toBeUndefined();
  });
});
