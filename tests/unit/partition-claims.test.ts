// The setup picker says of each algorithm whether it is safe under a partition (picker.ts,
// `partition`). Each claim is checked here against the algorithm's own run: five nodes, the
// leader cut off on the small side of a 2|3 split (its services, where it has them, on the large
// side; storage reachable from both, as a shared database is), and the other way round. Safe
// means storage never takes a write from an old leader once a new leader's write has landed; the
// reasons the picker gives are checked where they name something a run shows.
import { describe, expect, it } from 'vitest';
import '../../src/engine/algorithms/all';
import {
  ALGORITHM_KINDS,
  algorithmFor,
  Simulation,
  type AlgorithmKind,
  type ExperimentInput,
} from '../../src/engine';
import { ALGORITHM_CHOICES, pickerLine } from '../../src/engine/algorithms/picker';

const SPLIT_MS = 30_000;
const HEAL_MS = 150_000;
const END_MS = 180_000;

interface Split {
  leader: string;
  /** The nodes whose writes storage accepted during the split, in turn (a repeat means two leaders wrote). */
  writers: string[];
  sim: Simulation;
  /** The nodes that believe they lead midway through the split, and the small side's nodes. */
  leadersDuring: string[];
  small: string[];
}

function setup(kind: AlgorithmKind): ExperimentInput {
  // Redis has no token for storage to check (its description says so): the lab's check is off,
  // as in its preset.
  return {
    algorithm: kind,
    seed: 1,
    nodes: 5,
    ...(kind === 'redis-sentinel' ? { safety: { fencing: false } } : {}),
  };
}

function split(kind: AlgorithmKind, leaderSide: 'small' | 'large'): Split {
  const probe = new Simulation(setup(kind));
  probe.runUntil(SPLIT_MS);
  const leader = probe.snapshot().leader?.id;
  if (!leader) throw new Error(`${kind}: no leader at ${SPLIT_MS} ms (reproduce with seed=1)`);
  const nodes = probe.snapshot().nodes.map((n) => n.id);
  const others = nodes.filter((n) => n !== leader);
  const small = leaderSide === 'small' ? [leader, others[0]] : [others[0], others[1]];
  const large = nodes.filter((n) => !small.includes(n));
  const services = (algorithmFor(kind).services ?? []).map((s) => s.id);
  const sim = new Simulation({
    ...setup(kind),
    faults: [
      { atMs: SPLIT_MS, do: 'partition', groups: [small, [...large, ...services]] },
      { atMs: HEAL_MS, do: 'heal' },
    ],
  });
  sim.runUntil((SPLIT_MS + HEAL_MS) / 2);
  const leadersDuring = sim
    .snapshot()
    .nodes.filter((n) => n.alive && n.role === 'leader')
    .map((n) => n.id);
  sim.runUntil(END_MS);
  const writers: string[] = [];
  for (const ev of sim.events)
    if (ev.type === 'write' && ev.result === 'accepted' && ev.atMs >= SPLIT_MS && ev.atMs < HEAL_MS)
      if (writers[writers.length - 1] !== ev.node) writers.push(ev.node);
  return { leader, writers, sim, leadersDuring, small };
}

/** Storage took an old leader's write after a newer leader's had landed. */
const twoLeadersWrote = (writers: readonly string[]) => writers.some((n, i) => writers.indexOf(n) < i);

describe("the picker's partition claims hold in the algorithm's own runs", () => {
  it.each(ALGORITHM_KINDS)('%s', (kind) => {
    const { safe } = ALGORITHM_CHOICES[kind].partition;
    const runs = [split(kind, 'small'), split(kind, 'large')];
    const broken = runs.some((r) => twoLeadersWrote(r.writers));
    expect(broken, `${kind}: writers ${runs.map((r) => r.writers.join(',')).join(' | ')}`).toBe(!safe);
    expect(pickerLine(kind).partition).toMatch(
      safe ? /^Safe under a partition: / : /^Not safe under a partition: /,
    );
  });

  it('Kubernetes: the cut-off holder stops acting at RenewDeadline, before another replica takes the Lease', () => {
    const { leader, sim } = split('k8s-lease', 'small');
    const { renewDeadlineMs, retryPeriodMs } = sim.experiment.lease!;
    const stop = sim.events.find(
      (ev) => ev.type === 'steppedDown' && ev.node === leader && ev.atMs > SPLIT_MS,
    );
    expect(stop).toMatchObject({ reason: 'renew deadline passed' });
    // Its last renewal was before the split; client-go checks the deadline every RetryPeriod.
    expect(stop!.atMs).toBeLessThanOrEqual(SPLIT_MS + renewDeadlineMs + retryPeriodMs);
    const accepted = sim.events.flatMap((ev) =>
      ev.type === 'write' && ev.result === 'accepted' ? [{ node: ev.node, atMs: ev.atMs }] : [],
    );
    const lastOld = Math.max(...accepted.filter((w) => w.node === leader).map((w) => w.atMs));
    const firstNew = Math.min(
      ...accepted.filter((w) => w.node !== leader && w.atMs > SPLIT_MS).map((w) => w.atMs),
    );
    expect(lastOld).toBeLessThan(stop!.atMs);
    expect(firstNew).toBeGreaterThan(stop!.atMs);
  });

  it('Redis Sentinel: the cut-off primary keeps taking writes, and loses them when it rejoins', () => {
    const { leader, writers, sim } = split('redis-sentinel', 'small');
    expect(writers[0]).toBe(leader);
    expect(writers.filter((n) => n === leader).length).toBeGreaterThan(1);
    expect(sim.summary().writesLost ?? 0).toBeGreaterThan(0);
  });

  it('Bully and the Ring: each side elects its own, and storage takes both', () => {
    for (const kind of ['bully', 'ring'] as const) {
      for (const side of ['small', 'large'] as const) {
        const { leadersDuring, small, writers } = split(kind, side);
        expect(leadersDuring.length, `${kind}, leader on the ${side} side`).toBe(2);
        expect(leadersDuring.filter((n) => small.includes(n)).length).toBe(1);
        expect(twoLeadersWrote(writers)).toBe(true);
      }
    }
  });
});
