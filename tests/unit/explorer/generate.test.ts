// The fault-schedule generator and its fault space: schedules the engine accepts under every
// algorithm, only the faults, nodes and services the setup's algorithm has, drawn from the seed alone.
import { describe, expect, it } from 'vitest';
import { ALGORITHM_KINDS, parseExperiment, type Experiment } from '../../../src/engine';
import { scheduleAt } from '../../../src/explorer/generate';
import { EXPLORER_FAULT_KINDS, withSchedule, type Schedule } from '../../../src/explorer/schedule';
import { faultSpace, GRID_MS, type SpaceOptions } from '../../../src/explorer/space';

function spaceOf(setup: unknown, options: SpaceOptions = {}) {
  const r = faultSpace(setup, options);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r;
}

function schedules(setup: unknown, count: number, options: SpaceOptions = {}): [Experiment, Schedule[]] {
  const { setup: e, space } = spaceOf(setup, options);
  return [e, Array.from({ length: count }, (_, i) => scheduleAt(space, 42, i))];
}

const named = (s: Schedule) =>
  s.faults.flatMap((f) => [
    ...('node' in f ? [f.node] : []),
    ...(f.do === 'partition' ? f.groups.flat() : []),
  ]);

/** Each endpoint a fault of this kind named, over the schedules. */
function namedBy(drawn: Schedule[], kind: string): Set<string> {
  return new Set(
    drawn.flatMap((s) => s.faults.flatMap((f) => (f.do === kind && 'node' in f ? [f.node] : []))),
  );
}

const sorted = (xs: Iterable<string>) => [...xs].sort();

describe('the fault-schedule generator', () => {
  it.each<[string, object]>([
    ...ALGORITHM_KINDS.map((algorithm): [string, object] => [algorithm, { algorithm }]),
    ['raft with a witness', { nodes: 4, witness: true }],
    ['bully, 6 nodes', { algorithm: 'bully', nodes: 6 }],
    ['ring, 3 nodes', { algorithm: 'ring', nodes: 3 }],
    ['raft, one node', { nodes: 1 }],
    ['k8s-lease, 2 nodes', { algorithm: 'k8s-lease', nodes: 2 }],
  ])('draws schedules the engine accepts (%s)', (_name, setup) => {
    const [e, drawn] = schedules(setup, 300);
    for (const s of drawn) {
      const parsed = parseExperiment(withSchedule(e, s));
      expect(parsed.ok ? [] : parsed.errors).toEqual([]);
      expect(s.faults.length).toBeGreaterThan(0);
      expect(s.faults.length).toBeLessThanOrEqual(6);
      for (const f of s.faults) {
        expect(EXPLORER_FAULT_KINDS).toContain(f.do);
        expect(f.atMs % GRID_MS).toBe(0);
        expect(f.atMs).toBeLessThan(120_000);
        if (f.do === 'pause') expect(f.forMs! % GRID_MS).toBe(0);
      }
      expect(s.faults.map((f) => f.atMs)).toEqual([...s.faults.map((f) => f.atMs)].sort((a, b) => a - b));
    }
  });

  it('uses every kind, the leader, storage placement and a witness where the setup has them', () => {
    const [, drawn] = schedules({ nodes: 4, witness: true }, 300);
    const kinds = new Set(drawn.flatMap((s) => s.faults.map((f) => f.do)));
    expect(sorted(kinds)).toEqual(sorted(EXPLORER_FAULT_KINDS));
    expect(sorted(new Set(drawn.flatMap(named)))).toEqual(['leader', 'n1', 'n2', 'n3', 'n4', 'storage', 'w']);
    // The witness never campaigns, and a restart never aims at the leader (it is alive).
    expect(namedBy(drawn, 'campaign')).not.toContain('w');
    expect(namedBy(drawn, 'campaign')).not.toContain('leader');
    expect(namedBy(drawn, 'restart')).not.toContain('leader');
  });

  it('never names a node the setup does not have', () => {
    const [, drawn] = schedules({ algorithm: 'bully', nodes: 3 }, 300);
    expect(new Set(drawn.flatMap(named))).toEqual(new Set(['leader', 'n1', 'n2', 'n3', 'storage']));
  });

  it.each([
    ['k8s-lease', ['api', 'm1', 'm2', 'm3']],
    ['etcd-election', ['m1', 'm2', 'm3']],
    ['zookeeper', ['z1', 'z2', 'z3']],
  ])(
    "under %s, kills, restarts, isolates and partitions the algorithm's services, and does nothing else to them",
    (algorithm, services) => {
      const [, drawn] = schedules({ algorithm, nodes: 3 }, 400);
      const nodes = ['n1', 'n2', 'n3'];
      for (const kind of ['kill', 'restart', 'isolate'])
        expect(sorted(namedBy(drawn, kind)), kind).toEqual(
          sorted([...nodes, ...services, ...(kind === 'restart' ? [] : ['leader'])]),
        );
      for (const kind of ['pause', 'resume', 'stop', 'clockRate', 'campaign'])
        for (const s of services) expect(namedBy(drawn, kind), kind).not.toContain(s);
      const inGroups = new Set(
        drawn.flatMap((s) => s.faults.flatMap((f) => (f.do === 'partition' ? f.groups.flat() : []))),
      );
      expect(sorted(inGroups)).toEqual(sorted([...nodes, 'storage', ...services]));
    },
  );

  it('draws a leadership transfer only where the algorithm has one (Raft), and a plain campaign everywhere', () => {
    for (const algorithm of ALGORITHM_KINDS) {
      const [, drawn] = schedules({ algorithm }, 300);
      const campaigns = drawn.flatMap((s) => s.faults.filter((f) => f.do === 'campaign'));
      expect(campaigns.length, algorithm).toBeGreaterThan(0);
      expect(
        campaigns.some((f) => f.transfer === true),
        algorithm,
      ).toBe(algorithm === 'raft');
      expect(
        campaigns.some((f) => f.transfer === undefined),
        algorithm,
      ).toBe(true);
    }
  });

  it('never draws a safety switch or a forced write: the setup keeps its switches', () => {
    for (const algorithm of ALGORITHM_KINDS) {
      const [, drawn] = schedules({ algorithm, safety: { fencing: false } }, 300);
      const kinds = new Set(drawn.flatMap((s) => s.faults.map((f) => f.do as string)));
      expect(kinds.has('safety') || kinds.has('write'), algorithm).toBe(false);
    }
  });

  it('asks the engine which faults the algorithm accepts', () => {
    // Bully has no witness: the engine rejects a fault aimed at one, so the space leaves it out.
    expect(spaceOf({ algorithm: 'bully' }).space.nodes).toEqual(['n1', 'n2', 'n3', 'n4', 'n5']);
    expect(spaceOf({ witness: true, nodes: 2 }).space.nodes).toEqual(['n1', 'n2', 'w']);
    const raft = spaceOf({ witness: true, nodes: 2 }).space;
    expect(raft).toMatchObject({ services: [], placeable: ['storage'], transfer: true });
    expect(raft.targets.campaign).toEqual(['n1', 'n2']);
    // Kubernetes: the API server and its store can be killed, restarted, isolated and placed in a
    // group, not paused, stopped or given a clock; a campaign is never a transfer.
    const k8s = spaceOf({ algorithm: 'k8s-lease', nodes: 2 }).space;
    expect(k8s).toMatchObject({
      nodes: ['n1', 'n2'],
      services: ['api', 'm1', 'm2', 'm3'],
      placeable: ['storage', 'api', 'm1', 'm2', 'm3'],
      transfer: false,
    });
    expect(k8s.targets.kill).toEqual(['n1', 'n2', 'api', 'm1', 'm2', 'm3']);
    expect(k8s.targets.pause).toEqual(['n1', 'n2']);
    expect(k8s.targets.clockRate).toEqual(['n1', 'n2']);
    expect(k8s.leaderKinds).not.toContain('restart');
  });

  it('draws only the kinds asked for, over the horizon asked for', () => {
    const [, drawn] = schedules({}, 100, { kinds: ['partition', 'heal'], horizonMs: 30_000, maxFaults: 2 });
    for (const s of drawn) {
      expect(s.horizonMs).toBe(30_000);
      expect(s.faults.length).toBeLessThanOrEqual(2);
      for (const f of s.faults) {
        expect(['partition', 'heal']).toContain(f.do);
        expect(f.atMs).toBeLessThan(30_000);
      }
    }
  });

  it('draws schedule i of a seed the same every time, alone or in a sequence', () => {
    const { space } = spaceOf({});
    const alone = scheduleAt(space, 5, 17);
    expect(scheduleAt(space, 5, 17)).toEqual(alone);
    expect(scheduleAt(space, 5, 18)).not.toEqual(alone);
    expect(scheduleAt(space, 6, 17)).not.toEqual(alone);
  });

  it('keeps clock rates within the band the engine assumes', () => {
    const [, drawn] = schedules({}, 300);
    const rates = drawn.flatMap((s) => s.faults.flatMap((f) => (f.do === 'clockRate' ? [f.rate] : [])));
    expect(rates.length).toBeGreaterThan(0);
    expect(Math.max(...rates) / Math.min(...rates)).toBeLessThan(3);
  });
});
