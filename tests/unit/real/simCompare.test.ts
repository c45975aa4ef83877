// The page's sim-vs-real comparison: the simulator replays the real run's commands at their
// moments on the experiment the real run is closest to, and the two sides are put together.
import { describe, expect, it } from 'vitest';
import { Simulation, type Sample } from '../../../src/engine';
import { compareWithSimulator, stepPath } from '../../../src/app/real/simCompare';
import { DEFAULT_SETTINGS, type RunSettings } from '../../../src/real/model/settings';
import { twinExperiment } from '../../../src/real/model/twin';

const SETTINGS: RunSettings = { ...DEFAULT_SETTINGS, ttlMs: 5000, warmUpMs: 200, writeEveryMs: 300 };

describe('compareWithSimulator', () => {
  const experiment = twinExperiment(SETTINGS);
  // The "real" side here is itself a simulated run with a kill of the leader at 10 s: the same
  // commands replayed must then give the same failover, which pins the replay's moments.
  const realish = new Simulation({ ...experiment, untilMs: 30_000 });
  realish.runUntil(10_000);
  const leader = realish.snapshot().nodes.find((n) => n.role === 'leader')!.id;
  const commands = [
    { atMs: 10_000, command: { do: 'kill' as const, node: leader } },
    { atMs: 12_000, command: { do: 'kill' as const, node: 'c9' } },
  ];
  realish.apply(commands[0].command);
  realish.runUntil(30_000);

  const c = compareWithSimulator(
    experiment,
    commands,
    { samples: realish.samples, failovers: realish.snapshot().failovers, events: realish.events },
    30_000,
  );

  it('replays the commands at their moments: the same failover as the run it came from', () => {
    expect(c.sim.failoverMs).toHaveLength(1);
    expect(c.sim.failoverMs).toEqual(c.real.failoverMs);
    // An etcd session outlives its holder by up to its TTL: the failover is about one TTL.
    expect(c.sim.failoverMs[0]).toBeGreaterThan(3000);
    expect(c.sim.failoverMs[0]).toBeLessThan(7000);
    expect(c.sim.points.at(-1)!.count).toBe(1);
  });

  it("replays a fault on the real leader on the simulator's leader, whatever its name", () => {
    // Say the real run's leader at 10 s had another name: the kill still hits the simulated leader.
    const other = ['n1', 'n2', 'n3'].find((n) => n !== leader)!;
    const renamed = realish.events.map((e) =>
      e.type === 'elected' && e.node === leader ? { ...e, node: other } : e,
    );
    const r = compareWithSimulator(
      experiment,
      [{ atMs: 10_000, command: { do: 'kill', node: other } }],
      { samples: realish.samples, failovers: realish.snapshot().failovers, events: renamed },
      30_000,
    );
    expect(r.sim.failoverMs).toEqual(c.sim.failoverMs);
  });

  it('names each command the simulator cannot replay, and replays the rest', () => {
    expect(c.skipped).toHaveLength(1);
    expect(c.skipped[0]).toMatch(/^12\.0 s kill: invalid command/);
  });

  it('draws leader_count as a step line across the whole window', () => {
    const points = [
      { atMs: 0, count: 0 },
      { atMs: 500, count: 1 },
    ] satisfies Pick<Sample, 'atMs'>[] & { count: number }[];
    expect(stepPath(points, 1000, 100, 20)).toBe('M0.0,20.0H50.0V10.0H100.0');
    expect(stepPath([], 1000, 100, 20)).toBe('');
  });
});
