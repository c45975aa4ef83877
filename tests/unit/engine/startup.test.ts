// Failover measured from the fault, and start-up as its own phase: the first election is no
// outage (no time without a leader, no failover), time without a leader is what the dashboard
// pages on (the observed leader_count at 0), and a failover with no loss noticed begins at the
// fault that led to it.
import { describe, expect, it } from 'vitest';
import { runExperiment, Simulation } from '../../../src/engine';
import { findScenario } from '../../../src/scenario/catalog';
import { pageSpans } from '../../../scenes/MetricLineScene/leaderLines';

describe('start-up', () => {
  it('is no outage: a steady run has no time without a leader and no failover, and its snapshot says when it started', () => {
    const sim = new Simulation({ seed: 1, untilMs: 1 });
    expect(sim.snapshot().startedAtMs).toBe(-1);
    sim.runUntil(60_000);
    const first = sim.events.find((e) => e.type === 'elected')!;
    expect(sim.snapshot().startedAtMs).toBe(first.atMs);
    expect(first.atMs).toBeGreaterThan(0);
    expect(sim.summary().msWithoutLeader).toBe(0);
    expect(sim.summary().failovers).toEqual([]);
  });

  it('kill the leader at 10 s: time without a leader runs from the kill to the next election, nothing before', () => {
    const t = runExperiment({
      seed: 1,
      untilMs: 40_000,
      faults: [{ atMs: 10_000, do: 'kill', node: 'leader' }],
    });
    const [f] = t.summary.failovers;
    expect(f.lostAtMs).toBe(10_000);
    expect(t.summary.msWithoutLeader).toBe(f.electedAtMs - 10_000);
  });

  it('a paused leader is no leader to the dashboard: its pause counts, as the chart pages it', () => {
    const t = runExperiment({
      seed: 1,
      untilMs: 60_000,
      faults: [{ atMs: 10_000, do: 'pause', node: 'leader', forMs: 400 }],
    });
    // Survived (Raft's election timeout is longer), yet nothing answered for 400 ms.
    expect(t.summary.failovers).toEqual([]);
    expect(t.summary.msWithoutLeader).toBe(400);
  });

  it("Bully's split: the failover of the side without its coordinator begins at the partition, not at start-up", () => {
    const s = findScenario('bully-split-2-3')!;
    const partition = s.experiment.faults!.find((f) => f.do === 'partition')!;
    const t = runExperiment(s.experiment);
    const [f] = t.summary.failovers;
    expect(f.lostAtMs).toBe(partition.atMs);
    expect(f.detectedAtMs).toBeGreaterThan(partition.atMs);
  });

  it('pages nothing on the chart before the first leader', () => {
    const points = [
      { atMs: 0, value: 0 },
      { atMs: 5_500, value: 1 },
      { atMs: 10_000, value: 0 },
      { atMs: 15_000, value: 1 },
    ];
    expect(pageSpans(points, 5_500)).toEqual([{ kind: 'no-leader', startMs: 10_000, endMs: 15_000 }]);
    expect(pageSpans(points.slice(0, 1).concat({ atMs: 3_000, value: 0 }), -1)).toEqual([]);
  });
});
