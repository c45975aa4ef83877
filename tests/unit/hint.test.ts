// The line under the stage that says what to do next: it names the leader the snapshot has,
// the buttons that exist, and what to watch while there is no leader or two.
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../src/engine';
import { nextHint } from '../../src/app/hint';
import { ALL_COMMANDS } from '../../src/store/backend';

const CAN = { seek: true, step: true, speed: true, replay: true, commands: ALL_COMMANDS };

function at(ms: number, faults: object[] = [], algorithm: 'k8s-lease' | 'raft' = 'k8s-lease') {
  const sim = new Simulation({ algorithm, seed: 1, nodes: 5, faults: faults as never });
  sim.runUntil(ms);
  return { sim, snap: sim.snapshot() };
}

describe('nextHint', () => {
  it('names the leader and the button to press, and changes once it is selected', () => {
    const { sim, snap } = at(8_000);
    const leader = snap.nodes.find((n) => n.role === 'leader')!.id;
    const experiment = sim.experiment;
    expect(nextHint({ snapshot: snap, selected: null, experiment, can: CAN })).toBe(
      `The holder is ${leader}: select it (click it on the stage) and press Pause 30 s or Kill.`,
    );
    expect(nextHint({ snapshot: snap, selected: leader, experiment, can: CAN })).toContain(
      'selected: press Pause 30 s',
    );
  });

  it('says there is no leader while the others wait out the lease, and names none', () => {
    const { sim, snap } = at(12_000, [{ atMs: 8_000, do: 'kill', node: 'leader' }]);
    expect(snap.leaderCount).toBe(0);
    const text = nextHint({ snapshot: snap, selected: null, experiment: sim.experiment, can: CAN });
    expect(text).toBe(
      'No holder: the others wait out the 15 s lease, then elect a new one. Watch leader_count.',
    );
  });

  it("speaks the algorithm's words: Raft's followers wait out an election timeout", () => {
    const { sim, snap } = at(3_000, [], 'raft');
    const leader = snap.nodes.find((n) => n.role === 'leader')!.id;
    expect(nextHint({ snapshot: snap, selected: leader, experiment: sim.experiment, can: CAN })).toBe(
      `The leader is ${leader}, selected: press Pause 4 s or Kill (4 s is longer than the election timeout (1-2 s)).`,
    );
    const bully = new Simulation({ algorithm: 'bully', seed: 1, nodes: 5 });
    expect(
      nextHint({ snapshot: bully.snapshot(), selected: null, experiment: bully.experiment, can: CAN }),
    ).toBe('No coordinator yet: press Play and watch the nodes elect one.');
  });

  it('says a split cannot elect on a minority side only where a quorum exists', () => {
    const bully = new Simulation({
      algorithm: 'bully',
      seed: 1,
      nodes: 5,
      // n1, alone on its side, is dead: one coordinator, and a split.
      faults: [
        { atMs: 50, do: 'kill', node: 'n1' },
        { atMs: 100, do: 'partition', groups: [['n1'], ['n2', 'n3', 'n4', 'n5']] },
      ] as never,
    });
    bully.runUntil(20_000);
    const text = nextHint({
      snapshot: bully.snapshot(),
      selected: null,
      experiment: bully.experiment,
      can: CAN,
    });
    expect(text).toMatch(
      /^The coordinator is n\d, and the network is split: with no quorum, each side can elect its own/,
    );
  });

  it("offers a pause longer than the algorithm's own span: Sentinel's 30 s down-after", () => {
    const redis = new Simulation({ algorithm: 'redis-sentinel', seed: 1, nodes: 3 });
    redis.runUntil(5_000);
    const text = nextHint({
      snapshot: redis.snapshot(),
      selected: 'n1',
      experiment: redis.experiment,
      can: CAN,
    });
    expect(text).toBe(
      'The primary is n1, selected: press Pause 60 s or Kill (60 s is longer than the down-after period (30 s)).',
    );
  });

  it('offers only what the run can do', () => {
    const { sim, snap } = at(8_000);
    const text = nextHint({
      snapshot: snap,
      selected: null,
      experiment: sim.experiment,
      can: { ...CAN, commands: [] },
    });
    expect(text).not.toMatch(/Pause|Kill/);
  });

  it("says what a split does in each algorithm's own terms: Kubernetes' replicas do not vote", () => {
    const { sim, snap } = at(20_000, [
      {
        atMs: 15_000,
        do: 'partition',
        groups: [
          ['n1', 'n2'],
          ['n3', 'n4', 'n5'],
        ],
      },
    ]);
    expect(snap.partition).not.toBeNull();
    const leader = snap.leader!.id;
    expect(nextHint({ snapshot: snap, selected: null, experiment: sim.experiment, can: CAN })).toBe(
      `The holder is ${leader}, and the network is split: replicas do not vote: only a replica that reaches the API server, with a majority of etcd behind it, can renew or take the Lease. Heal ends the split.`,
    );
  });

  it('says STONITH leaves one primary under Pacemaker, not that each side elects its own', () => {
    const sim = new Simulation({
      algorithm: 'pacemaker',
      seed: 1,
      nodes: 3,
      faults: [{ atMs: 5_000, do: 'partition', groups: [['n1'], ['n2', 'n3']] }] as never,
    });
    sim.runUntil(6_000);
    const text = nextHint({ snapshot: sim.snapshot(), selected: null, experiment: sim.experiment, can: CAN });
    expect(text).toBe(
      'The primary is n1, and the network is split: a replica is promoted only once the fence device confirms the old primary is off, so one primary at most remains. Heal ends the split.',
    );
    expect(text).not.toMatch(/each side/);
  });

  it('says Redis has no token when two primaries believe they lead, rather than blame a switch', () => {
    const sim = new Simulation({
      algorithm: 'redis-sentinel',
      seed: 1,
      nodes: 3,
      faults: [{ atMs: 10_000, do: 'isolate', node: 'n1' }] as never,
    });
    sim.runUntil(50_000);
    const snap = sim.snapshot();
    expect(snap.leaderCount).toBe(2);
    const text = nextHint({ snapshot: snap, selected: null, experiment: sim.experiment, can: CAN });
    expect(text).toMatch(
      /^believed leader_count 2: n2 \(epoch 1\) and n1 \(epoch 0\) believe they lead\. Redis Sentinel has no fencing token/,
    );
    expect(text).not.toMatch(/fencing is off/);
  });
});
