// Same experiment and same commands at the same times give a byte-identical trace; checkpoints
// restore a run exactly (the page scrubs with them).
import { describe, expect, it } from 'vitest';
import { runExperiment, Simulation, type ExperimentInput } from '../../../src/engine';

const busy: ExperimentInput = {
  seed: 77,
  nodes: 5,
  workload: { clients: 30 },
  faults: [
    { atMs: 10_000, do: 'kill', node: 'leader' },
    { atMs: 20_000, do: 'pause', node: 'n2', forMs: 12_000 },
    {
      atMs: 25_000,
      do: 'partition',
      groups: [
        ['n1', 'n2'],
        ['n3', 'n4', 'n5'],
      ],
    },
    { atMs: 40_000, do: 'heal' },
    { atMs: 0, do: 'clockRate', node: 'n3', rate: 0.7 },
  ],
  untilMs: 60_000,
};

describe('determinism', () => {
  it('gives the same trace for the same experiment', () => {
    expect(JSON.stringify(runExperiment(busy))).toBe(JSON.stringify(runExperiment(busy)));
  });

  it('gives a different run for a different seed', () => {
    expect(JSON.stringify(runExperiment({ ...busy, seed: 78 }).events)).not.toBe(
      JSON.stringify(runExperiment(busy).events),
    );
  });

  it('gives the same trace for the same live commands at the same times, however time is advanced', () => {
    const drive = (stride: number) => {
      const sim = new Simulation({ ...busy, faults: [] });
      for (let t = 0; t <= 60_000; t += stride) {
        sim.runUntil(t);
        if (t === 15_000) sim.apply({ do: 'kill', node: 'leader' });
        if (t === 30_000) sim.apply({ do: 'restart', node: 'n1' });
      }
      sim.runUntil(60_000);
      return JSON.stringify(sim.trace());
    };
    expect(drive(1000)).toBe(drive(5000));
  });

  it("keeps the nodes' message delays when clients are added: elections run exactly as without them", () => {
    // Clients' traffic draws its delays from a stream of its own. A kill (no zombie leader whose
    // forwarded client writes storage could reject) leaves the elections to the nodes' messages.
    const run = (clients: number) =>
      runExperiment({
        seed: 5,
        nodes: 5,
        workload: { clients, clientWriteEveryMs: 200 },
        faults: [{ atMs: 20_000, do: 'kill', node: 'leader' }],
        untilMs: 60_000,
      }).events.filter((e) => e.type === 'campaign' || e.type === 'elected' || e.type === 'steppedDown');
    const quiet = run(0);
    expect(quiet.filter((e) => e.type === 'elected').length).toBe(2);
    expect(run(100)).toEqual(quiet);
  });

  it('holds only plain data in traces and snapshots', () => {
    const sim = new Simulation(busy);
    sim.runUntil(30_000);
    const snap = sim.snapshot();
    expect(JSON.parse(JSON.stringify(snap))).toEqual(snap);
    expect(structuredClone(sim.trace())).toEqual(JSON.parse(JSON.stringify(sim.trace())));
  });
});

describe('checkpoints', () => {
  it('restore a run so that it continues exactly as before', () => {
    const sim = new Simulation(busy);
    sim.runUntil(22_000);
    const cp = sim.checkpoint();
    sim.runUntil(60_000);
    const straight = JSON.stringify(sim.trace());
    sim.restore(cp);
    expect(sim.nowMs).toBe(22_000);
    sim.runUntil(60_000);
    expect(JSON.stringify(sim.trace())).toBe(straight);
  });

  it('are not changed by what the simulation does after they were taken', () => {
    const sim = new Simulation(busy);
    sim.runUntil(5000);
    const cp = sim.checkpoint();
    const frozen = JSON.stringify(cp.core.nodes);
    sim.apply({ do: 'kill', node: 'n1' });
    sim.runUntil(30_000);
    expect(JSON.stringify(cp.core.nodes)).toBe(frozen);
    sim.restore(cp);
    expect(sim.snapshot().nodes.find((n) => n.id === 'n1')!.alive).toBe(true);
  });
});
