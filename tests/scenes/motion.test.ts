// The stage's per-frame motion: lease arcs and message dots as shapes, a pure function of the
// frame's snapshot (drawn on the canvas, and written into the SVG for an export).
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../src/engine';
import { ARC_R, DROP_SHOW_MS, MAX_DOTS, frameMotion } from '../../scenes/ClusterScene/motion';
import { nodePositions } from '../../scenes/ClusterScene/layout';

describe('frameMotion', () => {
  it('gives each live node an arc around it and each message a dot on its way', () => {
    const sim = new Simulation({ nodes: 5, network: { delayMsMin: 60, delayMsMax: 180 } });
    sim.runUntil(20_000);
    const snap = sim.snapshot();
    const m = frameMotion(snap, sim.experiment.lease);
    const at = nodePositions(snap.nodes.map((n) => n.id));
    expect(m.arcs.length).toBe(5);
    for (const arc of m.arcs) {
      expect(arc.at).toEqual(at[arc.node]);
      expect(arc.fraction).toBeGreaterThan(0);
      expect(arc.fraction).toBeLessThanOrEqual(1);
    }
    const dots = Object.values(m.dots).flat();
    expect(dots.length).toBe(snap.messages.filter((x) => x.droppedAtMs === undefined).length);
    // Every dot lies on the segment between the two ends of its message.
    for (const d of dots) {
      expect(d.x).toBeGreaterThanOrEqual(0);
      expect(d.x).toBeLessThanOrEqual(640);
      expect([5, 7]).toContain(d.r);
    }
    expect(ARC_R).toBeGreaterThan(0);
  });

  it('draws no arc for a dead node', () => {
    const sim = new Simulation({ nodes: 3, faults: [{ atMs: 5_000, do: 'kill', node: 'n1' }] });
    sim.runUntil(6_000);
    const m = frameMotion(sim.snapshot(), sim.experiment.lease);
    expect(m.arcs.map((a) => a.node)).not.toContain('n1');
  });

  it('shows at most MAX_DOTS dots, and a dropped message only for a moment', () => {
    const sim = new Simulation({
      nodes: 7,
      workload: { clients: 400 },
      network: { delayMsMin: 60, delayMsMax: 180 },
    });
    sim.runUntil(30_000);
    const snap = sim.snapshot();
    const many = { ...snap, messages: Array.from({ length: 3 }, () => snap.messages).flat() };
    const m = frameMotion(many, sim.experiment.lease);
    expect(Object.values(m.dots).flat().length).toBeLessThanOrEqual(MAX_DOTS);
    const dropped = { ...snap.messages[0], droppedAtMs: snap.nowMs - 10 };
    const stale = { ...snap.messages[0], droppedAtMs: snap.nowMs - DROP_SHOW_MS };
    const d = frameMotion({ ...snap, messages: [dropped, stale] }, sim.experiment.lease);
    expect(d.dots.dropped).toHaveLength(1);
  });
});
