// The stage's per-frame motion: lease arcs and message dots as shapes, a pure function of the
// frame's snapshot (drawn on the canvas, and written into the SVG for an export). Each test
// first makes sure the case it claims is there (messages in flight, more of them than the cap),
// so that it cannot pass by having nothing to check.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALGORITHMS, Simulation, type Snapshot } from '../../src/engine';
import {
  ARC_R,
  DOT_KINDS,
  DROP_SHOW_MS,
  FAMILY_OF,
  MAX_DOTS,
  frameMotion,
} from '../../scenes/ClusterScene/motion';
import { nodePositions, VIEW_W, VIEW_W_SERVICES } from '../../scenes/ClusterScene/layout';

/** The first moment from `fromMs` on with at least `atLeast` messages in flight. */
function momentWithMessages(sim: Simulation, fromMs: number, atLeast = 1): Snapshot {
  for (let t = fromMs; t < fromMs + 30_000; t += 20) {
    sim.runUntil(t);
    const snap = sim.snapshot();
    if (snap.messages.filter((m) => m.droppedAtMs === undefined).length >= atLeast) return snap;
  }
  throw new Error(`fewer than ${atLeast} messages in flight from ${fromMs} ms on`);
}

describe('frameMotion', () => {
  it('gives each live node an arc around it and each message a dot on its way', () => {
    const sim = new Simulation({ nodes: 5, network: { delayMsMin: 60, delayMsMax: 180 } });
    const snap = momentWithMessages(sim, 20_000, 3);
    const m = frameMotion(snap, sim.experiment.lease);
    const at = nodePositions(snap.nodes.map((n) => n.id));
    expect(m.arcs.length).toBe(5);
    for (const arc of m.arcs) {
      expect(arc.at).toEqual(at[arc.node]);
      expect(arc.fraction).toBeGreaterThan(0);
      expect(arc.fraction).toBeLessThanOrEqual(1);
    }
    const inFlight = snap.messages.filter((x) => x.droppedAtMs === undefined);
    const dots = Object.values(m.dots).flat();
    expect(inFlight.length).toBeGreaterThanOrEqual(3);
    expect(dots.length).toBe(inFlight.length);
    // Every dot lies on the segment between the two ends of a message in flight, where the
    // message's share of its trip puts it.
    for (const d of dots) {
      const on = inFlight.some((msg) => {
        const a = at[msg.from];
        const b = at[msg.to];
        const f = Math.min(
          1,
          Math.max(0, (snap.nowMs - msg.sentAtMs) / Math.max(1, msg.deliverAtMs - msg.sentAtMs)),
        );
        return Math.hypot(a.x + (b.x - a.x) * f - d.x, a.y + (b.y - a.y) * f - d.y) < 1e-6;
      });
      expect(on, `dot at ${d.x.toFixed(1)},${d.y.toFixed(1)} lies on no message's way`).toBe(true);
      expect(d.x).toBeGreaterThanOrEqual(0);
      expect(d.x).toBeLessThanOrEqual(VIEW_W);
      expect([5, 7]).toContain(d.r);
    }
    expect(ARC_R).toBeGreaterThan(0);
  });

  it('draws no arc for a dead node', () => {
    const sim = new Simulation({ nodes: 3, faults: [{ atMs: 5_000, do: 'kill', node: 'n1' }] });
    sim.runUntil(6_000);
    const m = frameMotion(sim.snapshot(), sim.experiment.lease);
    expect(m.arcs.map((a) => a.node)).not.toContain('n1');
    expect(m.arcs.length).toBe(2);
  });

  it('shows exactly MAX_DOTS dots of more messages than that, and a dropped message only for a moment', () => {
    const sim = new Simulation({
      nodes: 7,
      workload: { clients: 400 },
      network: { delayMsMin: 60, delayMsMax: 180 },
    });
    const snap = momentWithMessages(sim, 30_000, 20);
    const live = snap.messages.filter((x) => x.droppedAtMs === undefined);
    // Enough copies of the messages in flight to pass the cap, whatever their number.
    const copies = Math.ceil((MAX_DOTS + 40) / live.length);
    const many = { ...snap, messages: Array.from({ length: copies }, () => live).flat() };
    expect(many.messages.length).toBeGreaterThan(MAX_DOTS);
    const m = frameMotion(many, sim.experiment.lease);
    expect(Object.values(m.dots).flat().length).toBe(MAX_DOTS);
    const dropped = { ...live[0], droppedAtMs: snap.nowMs - 10 };
    const stale = { ...live[0], droppedAtMs: snap.nowMs - DROP_SHOW_MS };
    const d = frameMotion({ ...snap, messages: [dropped, stale] }, sim.experiment.lease);
    expect(d.dots.dropped).toHaveLength(1);
  });
});

describe('message dots by family', () => {
  it('gives every kind of message the family its algorithm names, the same under every algorithm', () => {
    const seen = new Map<string, string>();
    for (const alg of Object.values(ALGORITHMS)) {
      for (const k of alg.messages) {
        expect(FAMILY_OF[k.type], `${alg.kind} ${k.type}`).toBe(k.family);
        expect(seen.get(k.type) ?? k.family, `${k.type} is one family everywhere`).toBe(k.family);
        seen.set(k.type, k.family);
        expect(DOT_KINDS).toContain(k.family);
      }
    }
    expect(seen.size).toBeGreaterThan(15);
    expect(FAMILY_OF.write).toBe('write');
    expect(FAMILY_OF.writeRejected).toBe('reject');
  });

  it('puts a Raft vote request among the requests and a heartbeat among the heartbeats', () => {
    const sim = new Simulation({ nodes: 5, network: { delayMsMin: 60, delayMsMax: 180 } });
    const snap = momentWithMessages(sim, 20_000, 3);
    const m = frameMotion(snap, sim.experiment.lease);
    const heartbeats = snap.messages.filter((x) => x.type === 'heartbeat' && x.droppedAtMs === undefined);
    expect(heartbeats.length).toBeGreaterThan(0);
    expect(m.dots.heartbeat.length).toBe(heartbeats.length);
    expect(m.dots.request).toHaveLength(snap.messages.filter((x) => FAMILY_OF[x.type] === 'request').length);
  });

  it("draws a Kubernetes lab's messages to and from its API server and etcd members where they sit", () => {
    const sim = new Simulation({ algorithm: 'k8s-lease', nodes: 3 });
    let snap: Snapshot | null = null;
    // A moment with a store write between the API server and a member in flight.
    for (let t = 5_000; t < 40_000 && !snap; t += 10) {
      sim.runUntil(t);
      const s = sim.snapshot();
      if (s.messages.some((x) => x.type === 'storeOp' && x.droppedAtMs === undefined)) snap = s;
    }
    expect(snap, 'a store write in flight').not.toBeNull();
    const s = snap as Snapshot;
    const at = nodePositions(
      s.nodes.map((n) => n.id),
      s.services,
    );
    for (const id of ['api', 'm1', 'm2', 'm3']) {
      expect(at[id], id).toBeDefined();
      expect(at[id].x).toBeLessThanOrEqual(VIEW_W_SERVICES);
      // Right of the ring's nodes, apart from all of them.
      for (const n of s.nodes)
        expect(Math.hypot(at[id].x - at[n.id].x, at[id].y - at[n.id].y)).toBeGreaterThan(80);
    }
    const m = frameMotion(s, sim.experiment.lease);
    const ops = s.messages.filter((x) => x.type === 'storeOp' && x.droppedAtMs === undefined);
    // storeOp is the store's proposal: drawn in the heartbeat family, on the API server-member line.
    for (const op of ops) {
      const a = at[op.from];
      const b = at[op.to];
      const f = Math.min(1, Math.max(0, (s.nowMs - op.sentAtMs) / Math.max(1, op.deliverAtMs - op.sentAtMs)));
      const want = { x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f };
      expect(m.dots.heartbeat.some((d) => Math.hypot(d.x - want.x, d.y - want.y) < 1e-6)).toBe(true);
    }
    expect(ops[0].from).toBe('api');
  });
});

describe("the motion worker's script", () => {
  /** The files a module's value imports reach (type-only imports are erased from the build). */
  function reached(file: string, seen = new Set<string>()): Set<string> {
    if (seen.has(file)) return seen;
    seen.add(file);
    const src = readFileSync(file, 'utf8');
    for (const m of src.matchAll(/^import (?!type )[^;]*? from '(\.[^']+)';/gms)) {
      const base = resolve(dirname(file), m[1]);
      const next = [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`].find((f) => {
        try {
          readFileSync(f);
          return true;
        } catch {
          return false;
        }
      });
      if (next) reached(next, seen);
    }
    return seen;
  }

  it('reaches no engine code: the algorithms would ride along into the worker', () => {
    const files = [...reached(resolve('scenes/ClusterScene/motionWorker.ts'))].map((f) =>
      f.slice(resolve('.').length + 1),
    );
    expect(files).toContain('scenes/ClusterScene/shapes.ts');
    expect(files.filter((f) => f.startsWith('src/engine/'))).toEqual([]);
  });
});
