// Elections over time: boot, randomized timeouts, split votes, pre-vote, and a paused candidate.
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../../src/engine';
import { bootToLeader, eventsOf, leaders, nodeView, stepUntil } from './harness';

describe('boot', () => {
  it('elects a leader within about 2 s: short randomized first timeouts', () => {
    const firsts: number[] = [];
    for (let nodes = 1; nodes <= 9; nodes++) {
      for (let seed = 1; seed <= 40; seed++) {
        const sim = new Simulation({ seed, nodes, untilMs: 10_000 });
        sim.runUntil(10_000);
        const elected = eventsOf(sim, 'elected');
        expect(elected.length, `seed ${seed}, ${nodes} nodes`).toBeGreaterThan(0);
        firsts.push(elected[0].atMs);
      }
    }
    expect(Math.max(...firsts)).toBeLessThan(6000);
    expect(firsts.filter((t) => t <= 2200).length / firsts.length).toBeGreaterThanOrEqual(0.95);
  });

  it('draws first timeouts at random: the first campaign time varies with the seed', () => {
    const times = new Set<number>();
    for (let seed = 1; seed <= 30; seed++) {
      const sim = new Simulation({ seed, untilMs: 5000 });
      sim.runUntil(5000);
      const first = eventsOf(sim, 'campaign')[0];
      expect(first.atMs).toBeGreaterThanOrEqual(150);
      expect(first.atMs).toBeLessThanOrEqual(150 + 2000);
      times.add(first.atMs);
    }
    expect(times.size).toBeGreaterThan(20);
  });

  it('elects a single node alone: it is a majority of one', () => {
    const sim = new Simulation({ nodes: 1, untilMs: 5000 });
    sim.runUntil(5000);
    expect(eventsOf(sim, 'elected')).toEqual([expect.objectContaining({ node: 'n1', votes: ['n1'] })]);
  });
});

describe('majority of the configured voters', () => {
  it('is never a majority of the live nodes: 2 alive of 5 never elect, however long they try', () => {
    const sim = new Simulation({
      seed: 12,
      faults: ['n3', 'n4', 'n5'].map((node) => ({ atMs: 0, do: 'kill' as const, node })),
      untilMs: 120_000,
    });
    sim.runUntil(120_000);
    expect(eventsOf(sim, 'campaign').length).toBeGreaterThan(10);
    expect(eventsOf(sim, 'elected')).toEqual([]);
  });

  it('counts the witness as a voter but never lets it campaign or lead', () => {
    const sim = new Simulation({
      seed: 13,
      nodes: 4,
      witness: true,
      faults: [20_000, 45_000, 70_000].map((atMs) => ({ atMs, do: 'kill' as const, node: 'leader' })),
      untilMs: 100_000,
    });
    sim.runUntil(100_000);
    // 5 voters, majority 3. Boot, then a new leader after each of the first two kills (4, then
    // 3 voters left); after the third only one node and the witness remain: no leader.
    const elected = eventsOf(sim, 'elected');
    expect(elected.length).toBe(3);
    expect(elected.some((e) => e.votes.includes('w'))).toBe(true);
    expect(elected.every((e) => e.votes.length >= 3)).toBe(true);
    expect([...eventsOf(sim, 'campaign'), ...elected].filter((e) => e.node === 'w')).toEqual([]);
    expect(leaders(sim)).toEqual([]);
  });
});

describe('split votes', () => {
  // Two candidates in the same term, each with half of the survivors: nobody can win that term.
  function splitVote(seed: number) {
    const { sim, leader } = bootToLeader({ seed, network: { delayMsMin: 5, delayMsMax: 5 } });
    sim.runUntil(5000);
    const [a, b, c, d] = sim
      .snapshot()
      .nodes.map((n) => n.id)
      .filter((id) => id !== leader.id);
    const term = nodeView(sim, a).term;
    sim.apply({ do: 'kill', node: leader.id });
    sim.apply({
      do: 'partition',
      groups: [
        [a, c],
        [b, d],
      ],
    });
    sim.apply({ do: 'campaign', node: a, transfer: true });
    sim.apply({ do: 'campaign', node: b, transfer: true });
    sim.runUntil(5100);
    sim.apply({ do: 'heal' });
    return { sim, a, b, splitTerm: term + 1 };
  }

  it('leave the split term without a leader and resolve in a later term', () => {
    const resolvedAt = new Set<number>();
    for (let seed = 1; seed <= 12; seed++) {
      const { sim, splitTerm } = splitVote(seed);
      expect(
        stepUntil(sim, () => leaders(sim).length > 0, 60_000),
        `seed ${seed}`,
      ).toBe(true);
      const after = eventsOf(sim, 'elected').filter((e) => e.atMs > 5000);
      expect(
        after.every((e) => e.term > splitTerm),
        `seed ${seed}`,
      ).toBe(true);
      sim.runUntil(sim.nowMs + 20_000);
      expect(leaders(sim), `seed ${seed}`).toHaveLength(1);
      expect(sim.summary().violations).toEqual([]);
      resolvedAt.add(after[0].atMs);
    }
    // Randomized timeouts: the seeds do not all resolve at the same moment.
    expect(resolvedAt.size).toBeGreaterThan(6);
  });

  it('ends at the first randomized timeout: one node campaigns alone and the other candidate follows it', () => {
    for (let seed = 1; seed <= 12; seed++) {
      const { sim } = splitVote(seed);
      expect(
        stepUntil(sim, () => leaders(sim).length > 0, 60_000),
        `seed ${seed}`,
      ).toBe(true);
      const winner = leaders(sim)[0];
      // Between the heal and the election only the winner campaigned: timeouts drawn in [et, 2et)
      // on every reset rarely fire together.
      const campaigns = eventsOf(sim, 'campaign').filter((e) => e.atMs > 5100);
      expect(new Set(campaigns.map((e) => e.node)), `seed ${seed}`).toEqual(new Set([winner.id]));
    }
  });
});

describe('pre-vote', () => {
  function isolatedFollower(preVote: boolean) {
    const { sim, leader } = bootToLeader({ seed: 11, safety: { preVote } });
    sim.runUntil(5000);
    const lonely = sim.snapshot().nodes.find((n) => n.id !== leader.id)!;
    sim.apply({ do: 'isolate', node: lonely.id });
    sim.runUntil(65_000);
    return { sim, leader, lonely, termAfter: nodeView(sim, lonely.id).term };
  }

  it('keeps an isolated node from raising its term', () => {
    const { sim, lonely, termAfter } = isolatedFollower(true);
    expect(termAfter).toBe(lonely.term);
    expect(eventsOf(sim, 'campaign').filter((e) => e.node === lonely.id && e.preVote).length).toBeGreaterThan(
      5,
    );
    // Rejoining, it does not disturb the leader.
    const transitions = sim.summary().leaderTransitions;
    sim.apply({ do: 'heal' });
    sim.runUntil(90_000);
    expect(sim.summary().leaderTransitions).toBe(transitions);
  });

  it('lets an isolated node raise its term on every timeout when it is off', () => {
    const { lonely, termAfter } = isolatedFollower(false);
    expect(termAfter).toBeGreaterThan(lonely.term + 5);
  });
});

describe('a candidate paused while its votes arrive', () => {
  // Raft lets a slow candidate win an older term after a newer one was won elsewhere: the votes it
  // was granted are still valid for its term. At most one leader per term still holds, its writes
  // carry the older term, and storage rejects them.
  it('may win an older term after a later one was won; storage rejects its writes', () => {
    let late = 0;
    for (let seed = 1; seed <= 20; seed++) {
      const { sim } = bootToLeader({ seed, network: { delayMsMin: 20, delayMsMax: 60 } });
      sim.runUntil(10_000);
      sim.apply({ do: 'kill', node: 'leader' });
      const campaigning = () => eventsOf(sim, 'campaign').find((e) => e.atMs > 10_000 && !e.preVote);
      expect(stepUntil(sim, () => campaigning() !== undefined, 40_000)).toBe(true);
      const slow = campaigning()!;
      sim.apply({ do: 'pause', node: slow.node, forMs: 6000 });
      sim.runUntil(40_000);
      expect(sim.summary().violations, `seed ${seed}`).toEqual([]);
      const elected = eventsOf(sim, 'elected').filter((e) => e.atMs > 10_000);
      const older = elected.filter((e, i) => elected.slice(0, i).some((x) => x.term > e.term));
      for (const o of older) {
        late++;
        const writes = eventsOf(sim, 'write').filter((w) => w.node === o.node && w.token === o.term);
        expect(writes.length, `seed ${seed}`).toBeGreaterThan(0);
        expect(
          writes.every((w) => w.result === 'rejected'),
          `seed ${seed}`,
        ).toBe(true);
      }
    }
    expect(late).toBeGreaterThan(0);
  });
});
