// The lab's scenarios, run headless against the engine: the quorum table, split brain and its
// defences, GC pauses, a slow clock, and what happens with each safety switched off.
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../src/engine';
import { bootToLeader, eventsOf, ids, leaders, nodeView } from '../unit/engine/harness';

const maxLeaderCount = (sim: Simulation) => Math.max(...sim.samples.map((s) => s.leaderCount));
const others = (sim: Simulation, ...not: string[]) =>
  sim
    .snapshot()
    .nodes.map((n) => n.id)
    .filter((id) => !not.includes(id) && id !== 'w');

describe('the quorum table: who can elect after k failures', () => {
  for (let n = 1; n <= 9; n++) {
    it(`${n} node${n > 1 ? 's' : ''}: elects iff the survivors are a majority of ${n}`, () => {
      const majority = Math.floor(n / 2) + 1;
      const row: string[] = [];
      for (let k = 1; k <= n; k++) {
        const { sim, leader } = bootToLeader({ seed: 100 + n * 10 + k, nodes: n, untilMs: 70_000 });
        sim.runUntil(10_000);
        // The leader is always among the failed, so the survivors must elect a new one.
        for (const id of [leader.id, ...others(sim, leader.id)].slice(0, k))
          sim.apply({ do: 'kill', node: id });
        sim.runUntil(70_000);
        const elects = eventsOf(sim, 'elected').some((e) => e.atMs > 10_000);
        row.push(`k=${k}:${elects ? 'elects' : 'none'}`);
        expect(leaders(sim)).toHaveLength(elects ? 1 : 0);
        expect(sim.summary().violations).toEqual([]);
      }
      const expected = Array.from(
        { length: n },
        (_, i) => `k=${i + 1}:${n - (i + 1) >= majority ? 'elects' : 'none'}`,
      );
      expect(row).toEqual(expected);
    });
  }
});

describe('5 nodes split 2|3', () => {
  function split() {
    const { sim, leader } = bootToLeader({ seed: 201, nodes: 5, untilMs: 120_000 });
    sim.runUntil(10_000);
    const [a, ...rest] = others(sim, leader.id);
    const minority = [leader.id, a];
    sim.apply({ do: 'partition', groups: [minority, rest] });
    const lastRenewAtMs = nodeView(sim, leader.id).lastRenewAtMs;
    return { sim, leader, minority, majority: rest, lastRenewAtMs };
  }

  it('elects only on the 3-side; CheckQuorum stops the old leader within two election timeouts', () => {
    const { sim, leader, majority } = split();
    sim.runUntil(60_000);
    const elected = eventsOf(sim, 'elected').filter((e) => e.atMs > 10_000);
    expect(elected.length).toBeGreaterThan(0);
    expect(elected.every((e) => majority.includes(e.node))).toBe(true);

    const down = eventsOf(sim, 'steppedDown').find((e) => e.node === leader.id)!;
    expect(down.reason).toBe('lost contact with a quorum');
    // The check runs every election timeout (1 s) over what the leader heard since the last one.
    expect(down.atMs - 10_000).toBeLessThanOrEqual(2 * 1000);
    const lateWrites = eventsOf(sim, 'write').filter((w) => w.node === leader.id && w.atMs > down.atMs + 10);
    expect(lateWrites).toEqual([]);
    expect(sim.summary().violations).toEqual([]);
  });

  it('has exactly one leader after the partition heals', () => {
    const { sim, majority } = split();
    sim.runUntil(60_000);
    const winner = leaders(sim)[0].id;
    sim.apply({ do: 'heal' });
    sim.runUntil(120_000);
    expect(leaders(sim).map((n) => n.id)).toEqual([winner]);
    expect(majority).toContain(winner);
    for (const n of sim.snapshot().nodes) if (n.id !== winner) expect(n.knownLeader).toBe(winner);
    expect(sim.summary().violations).toEqual([]);
  });
});

describe('even splits and two-node clusters', () => {
  it('4 nodes split 2|2: no side elects', () => {
    const { sim, leader } = bootToLeader({ seed: 202, nodes: 4 });
    sim.runUntil(10_000);
    const [a, b, c] = others(sim, leader.id);
    sim.apply({
      do: 'partition',
      groups: [
        [leader.id, a],
        [b, c],
      ],
    });
    sim.runUntil(90_000);
    expect(eventsOf(sim, 'elected').filter((e) => e.atMs > 10_000)).toEqual([]);
    expect(leaders(sim)).toEqual([]);
    sim.apply({ do: 'heal' });
    sim.runUntil(150_000);
    expect(leaders(sim)).toHaveLength(1);
  });

  it('2 nodes losing one: no leader, whichever was lost', () => {
    for (const lose of ['leader', 'follower']) {
      const { sim, leader } = bootToLeader({ seed: 203, nodes: 2 });
      sim.runUntil(10_000);
      sim.apply({ do: 'kill', node: lose === 'leader' ? leader.id : others(sim, leader.id)[0] });
      sim.runUntil(90_000);
      expect(leaders(sim), lose).toEqual([]);
    }
  });

  it("2 nodes and a witness losing a node: the survivor elects with the witness's vote", () => {
    const { sim, leader } = bootToLeader({ seed: 203, nodes: 2, witness: true });
    sim.runUntil(10_000);
    sim.apply({ do: 'kill', node: leader.id });
    sim.runUntil(90_000);
    const survivor = others(sim, leader.id)[0];
    expect(leaders(sim).map((n) => n.id)).toEqual([survivor]);
    expect(eventsOf(sim, 'elected').at(-1)!.votes.sort()).toEqual([survivor, 'w'].sort());
    expect(nodeView(sim, 'w').role).toBe('follower');
  });
});

describe('kill and restart', () => {
  it('never lets a node vote twice in a term, killed and restarted right after its vote', () => {
    let restartedBetweenRequests = 0;
    for (const seed of [301, 302, 303, 304]) {
      const { sim } = bootToLeader({ seed, untilMs: 200_000 });
      for (let round = 1; round <= 8; round++) {
        sim.runUntil(round * 20_000);
        // Two candidates in the same term: every voter gets two requests, milliseconds apart.
        const [a, b] = ids(5)
          .filter((id) => nodeView(sim, id).alive)
          .slice(round % 3, (round % 3) + 2);
        const term = Math.max(nodeView(sim, a).term, nodeView(sim, b).term) + 1;
        if (nodeView(sim, a).term !== nodeView(sim, b).term) continue;
        sim.apply({ do: 'campaign', node: a, transfer: true });
        sim.apply({ do: 'campaign', node: b, transfer: true });
        const done = new Set([a, b]);
        for (let ms = 1; ms <= 12; ms++) {
          sim.runUntil(sim.nowMs + 1);
          for (const n of sim.snapshot().nodes) {
            if (done.has(n.id) || n.term !== term || n.votedFor === null) continue;
            // It has just voted; the rival's request may still be on its way.
            done.add(n.id);
            sim.apply({ do: 'kill', node: n.id });
            sim.apply({ do: 'restart', node: n.id });
            restartedBetweenRequests++;
          }
        }
      }
      sim.runUntil(200_000);
      expect(sim.summary().violations, `seed ${seed}`).toEqual([]);
      expect(leaders(sim), `seed ${seed}`).toHaveLength(1);
    }
    expect(restartedBetweenRequests).toBeGreaterThan(30);
  });
});

describe('GC pause of the holder (Kubernetes Lease)', () => {
  const paused = (forMs: number, fencing = true) => {
    const sim = new Simulation({
      algorithm: 'k8s-lease',
      seed: 61,
      nodes: 3,
      safety: { fencing },
      faults: [{ atMs: 20_000, do: 'pause', node: 'leader', forMs }],
      untilMs: 80_000,
    });
    sim.runUntil(19_999);
    const zombie = leaders(sim)[0];
    sim.runUntil(80_000);
    const resumedAtMs = 20_000 + forMs;
    const zombieWrites = eventsOf(sim, 'write').filter((w) => w.node === zombie.id && w.atMs >= resumedAtMs);
    return { sim, zombie, resumedAtMs, zombieWrites };
  };

  it('of 5 s: the holder survives, no transition', () => {
    const { sim, zombie } = paused(5000);
    expect(sim.summary().leaderTransitions).toBe(0);
    expect(eventsOf(sim, 'steppedDown')).toEqual([]);
    expect(leaders(sim).map((n) => n.id)).toEqual([zombie.id]);
    expect(sim.summary().fencingRejections).toBe(0);
    expect(sim.summary().failovers).toEqual([]);
  });

  it("of 30 s: another replica takes the Lease, and the zombie's writes are rejected by fencing", () => {
    const { sim, zombie, resumedAtMs, zombieWrites } = paused(30_000);
    const elected = eventsOf(sim, 'elected').filter((e) => e.atMs > 20_000);
    expect(elected).toHaveLength(1);
    expect(elected[0].atMs).toBeLessThan(resumedAtMs);
    // While paused it still believes it leads: two alive nodes believe they lead; observed, one.
    expect(maxLeaderCount(sim)).toBe(2);
    const during = sim.samples.filter((x) => x.atMs > elected[0].atMs && x.atMs < resumedAtMs);
    expect(during.every((x) => x.leaderCount === 2 && x.leaderCountObserved === 1)).toBe(true);
    // On resume it sends the write it had checked before the pause, with its old token.
    expect(zombieWrites[0]).toMatchObject({
      token: zombie.term,
      kind: 'leader',
      result: 'rejected',
      maxTokenSeen: elected[0].term,
    });
    expect(sim.summary()).toMatchObject({ staleWritesAccepted: 0, violations: [] });
    // It acts until its renew round fails, RenewDeadline after it began on waking.
    const down = eventsOf(sim, 'steppedDown').find((e) => e.node === zombie.id)!;
    expect(down.reason).toBe('renew deadline passed');
    expect(down.atMs - resumedAtMs).toBeGreaterThan(9_000);
    expect(down.atMs - resumedAtMs).toBeLessThanOrEqual(10_500);
    expect(leaders(sim).map((n) => n.id)).toEqual([elected[0].node]);
    expect(sim.summary().failovers).toEqual([
      expect.objectContaining({ lostAtMs: 20_000, from: zombie.id, cause: 'paused' }),
    ]);
  });

  it("of 30 s without fencing: the zombie's writes are accepted and flagged stale", () => {
    const { sim, zombie, zombieWrites } = paused(30_000, false);
    expect(zombieWrites[0]).toMatchObject({ token: zombie.term, result: 'accepted', stale: true });
    expect(sim.summary().staleWritesAccepted).toBeGreaterThanOrEqual(1);
    expect(sim.summary().fencingRejections).toBe(0);
    const v = sim.summary().violations;
    expect(v.length).toBeGreaterThan(0);
    expect(v.every((x) => x.invariant === 'staleWriteAccepted' && x.allowedBy === 'fencing')).toBe(true);
  });
});

describe('a holder whose clock runs at half speed, cut off from the API server', () => {
  const slowHolder = (fencing: boolean) => {
    const sim = new Simulation({
      algorithm: 'k8s-lease',
      seed: 62,
      nodes: 3,
      safety: { fencing },
      untilMs: 80_000,
    });
    sim.runUntil(5000);
    const holder = leaders(sim)[0];
    sim.apply({ do: 'clockRate', node: holder.id, rate: 0.5 });
    sim.runUntil(10_000);
    sim.apply({ do: 'isolate', node: holder.id });
    sim.runUntil(80_000);
    const elected = eventsOf(sim, 'elected').find((e) => e.atMs > 10_000)!;
    const down = eventsOf(sim, 'steppedDown').find((e) => e.node === holder.id)!;
    return { sim, holder, elected, down };
  };

  it('keeps believing it leads after another took the Lease: its round lasts 20 s of real time; fencing rejects its writes', () => {
    const { sim, holder, elected, down } = slowHolder(true);
    expect(down.atMs).toBeGreaterThan(elected.atMs);
    expect(down.reason).toBe('renew deadline passed');
    expect(maxLeaderCount(sim)).toBe(2);
    const afterElection = eventsOf(sim, 'write').filter(
      (w) => w.node === holder.id && w.atMs > elected.atMs + 200,
    );
    expect(afterElection.length).toBeGreaterThan(0);
    expect(afterElection.every((w) => w.result === 'rejected')).toBe(true);
    expect(sim.summary().violations).toEqual([]);
  });

  it('without fencing, its writes after the takeover are accepted as stale until it stops', () => {
    const { sim, holder, elected, down } = slowHolder(false);
    const stale = eventsOf(sim, 'write').filter((w) => w.node === holder.id && w.stale);
    expect(stale.length).toBeGreaterThan(0);
    expect(stale.every((w) => w.atMs > elected.atMs && w.atMs <= down.atMs + 200)).toBe(true);
  });
});

describe('quorum switched off', () => {
  it('lets both sides of a partition elect: two leaders, violations allowed by quorum', () => {
    const { sim, leader } = bootToLeader({ seed: 63, safety: { quorum: false }, untilMs: 60_000 });
    sim.runUntil(10_000);
    const [a, b, c, d] = others(sim, leader.id);
    sim.apply({
      do: 'partition',
      groups: [
        [leader.id, a, b],
        [c, d],
      ],
    });
    sim.runUntil(60_000);
    const minorityWins = eventsOf(sim, 'elected').filter((e) => e.atMs > 10_000 && [c, d].includes(e.node));
    expect(minorityWins.length).toBeGreaterThan(0);
    expect(sim.snapshot().leaderCount).toBe(2);
    expect(maxLeaderCount(sim)).toBe(2);
    const v = sim.summary().violations;
    expect(v.map((x) => x.invariant)).toContain('leaderHasMajority');
    expect(v.every((x) => x.allowedBy === 'quorum')).toBe(true);
  });

  it('with quorum on, the same partition leaves the 2-side without a leader', () => {
    const { sim, leader } = bootToLeader({ seed: 63, untilMs: 60_000 });
    sim.runUntil(10_000);
    const [a, b, c, d] = others(sim, leader.id);
    sim.apply({
      do: 'partition',
      groups: [
        [leader.id, a, b],
        [c, d],
      ],
    });
    sim.runUntil(60_000);
    expect(leaders(sim).map((n) => n.id)).toEqual([leader.id]);
    expect(sim.summary().violations).toEqual([]);
  });
});
