// Term and vote are persisted: they survive kill and restart, so a node can never vote twice in a
// term however often it dies.
import { describe, expect, it } from 'vitest';
import { bootToLeader, nodeView } from './harness';

const steadyNet = { network: { delayMsMin: 5, delayMsMax: 5 } };

describe('kill and restart', () => {
  it('brings a node back as a follower at its persisted term and vote', () => {
    const { sim, leader } = bootToLeader({ seed: 3, ...steadyNet });
    sim.runUntil(5000);
    const follower = sim.snapshot().nodes.find((n) => n.id !== leader.id && n.votedFor !== null);
    if (!follower) throw new Error('expected a follower that voted at boot');
    sim.apply({ do: 'kill', node: follower.id });
    sim.runUntil(8000);
    sim.apply({ do: 'restart', node: follower.id });
    expect(nodeView(sim, follower.id)).toMatchObject({
      alive: true,
      role: 'follower',
      term: follower.term,
      votedFor: follower.votedFor,
    });
  });

  it('brings a killed leader back as a follower, not a leader, at its term', () => {
    const { sim, leader } = bootToLeader({ seed: 4, ...steadyNet });
    sim.runUntil(5000);
    sim.apply({ do: 'kill', node: leader.id });
    sim.apply({ do: 'restart', node: leader.id });
    expect(nodeView(sim, leader.id)).toMatchObject({
      role: 'follower',
      term: leader.term,
      votedFor: leader.id,
    });
  });

  it('never lets a node vote twice in a term when it is killed right after voting', () => {
    const { sim, leader } = bootToLeader({ seed: 5, ...steadyNet });
    const [a, b, v, ...rest] = sim
      .snapshot()
      .nodes.map((n) => n.id)
      .filter((id) => id !== leader.id);
    sim.runUntil(5000);
    const term = nodeView(sim, a).term;

    // b hears nothing of a's campaign, so it later campaigns in the very same term.
    sim.apply({ do: 'isolate', node: b });
    sim.apply({ do: 'campaign', node: a, transfer: true });
    sim.runUntil(5006);
    expect(nodeView(sim, v)).toMatchObject({ term: term + 1, votedFor: a });

    sim.apply({ do: 'kill', node: v });
    sim.apply({ do: 'restart', node: v });
    sim.apply({
      do: 'partition',
      groups: [
        [b, v],
        [a, leader.id, ...rest],
      ],
    });
    sim.apply({ do: 'campaign', node: b, transfer: true });
    expect(nodeView(sim, b)).toMatchObject({ role: 'candidate', term: term + 1 });
    sim.runUntil(5100);

    expect(nodeView(sim, v).votedFor).toBe(a);
    expect(nodeView(sim, b).votes).not.toContain(v);
    expect(sim.summary().violations).toEqual([]);
  });
});
