// Raft's election as etcd's raft library runs it, checked against etcd's own tests (raft_test.go):
// TestLeaderElection's rows with and without PreVote, TestRecvMsgVote's vote table, the vote reply
// carrying the voter's term, CheckQuorum stepping a cut-off leader down, and a follower within an
// election timeout of its leader ignoring a higher-term campaign (TestLeaderSupersedingWithCheckQuorum).
import { describe, expect, it } from 'vitest';
import { Simulation, type ExperimentInput } from '../../../src/engine';
import type { RaftNode } from '../../../src/engine/algorithms/raft';
import type { Core, NodeState } from '../../../src/engine/core';
import { bench, benchNode, deliver, eventsOf, leaders, nodeView } from './harness';

/** A quiet cluster: election timeouts so long nobody campaigns unless a test makes it. */
const quiet = (nodes: number, extra: Partial<ExperimentInput> = {}): ExperimentInput => ({
  seed: 2,
  nodes,
  raft: { heartbeatMs: 100, electionTimeoutMs: 600_000 },
  untilMs: 30_000,
  ...extra,
});

const raftOf = (n: NodeState) => n.p as RaftNode;

describe('TestLeaderElection (etcd raft_test.go)', () => {
  // newNetwork(nil, nil, nil): all up, node 1 campaigns; nopStepper: a node that drops everything
  // (here: killed before the campaign). The last row gives three peers logs further along, in the
  // term node 1 is about to campaign in, so they refuse it.
  const rows: { name: string; nodes: number; down: string[]; further?: boolean; leads: boolean }[] = [
    { name: '3 nodes, all up', nodes: 3, down: [], leads: true },
    { name: '3 nodes, one down', nodes: 3, down: ['n3'], leads: true },
    { name: '3 nodes, two down', nodes: 3, down: ['n2', 'n3'], leads: false },
    { name: '4 nodes, two down', nodes: 4, down: ['n2', 'n3'], leads: false },
    { name: '5 nodes, two down', nodes: 5, down: ['n2', 'n3'], leads: true },
    { name: '5 nodes, three logs further along', nodes: 5, down: [], further: true, leads: false },
  ];
  for (const preVote of [false, true]) {
    for (const row of rows) {
      it(`${row.name}, pre-vote ${preVote ? 'on' : 'off'}`, () => {
        const sim = new Simulation(
          quiet(row.nodes, {
            safety: { preVote },
            faults: [
              ...row.down.map((node) => ({ atMs: 0, do: 'kill' as const, node })),
              { atMs: 10, do: 'campaign' as const, node: 'n1' },
            ],
          }),
          row.further
            ? (c: Core) => {
                // entsWithConfig(1), (1), (1, 1): terms 1, logs at term 1, one of them longer.
                for (const [id, index] of [
                  ['n2', 1],
                  ['n3', 1],
                  ['n4', 2],
                ] as const) {
                  const n = c.nodes.find((x) => x.id === id)!;
                  n.term = 1;
                  raftOf(n).logTerm = 1;
                  raftOf(n).logIndex = index;
                }
              }
            : undefined,
        );
        sim.runUntil(2_000);
        const n1 = nodeView(sim, 'n1');
        if (row.leads) {
          expect(n1).toMatchObject({ role: 'leader', term: 1 });
        } else if (row.further) {
          // The refusals carry term 1: node 1 follows at term 1 (pre-vote or not).
          expect(n1).toMatchObject({ role: 'follower', term: 1, preVoting: false });
        } else if (preVote) {
          // An election that cannot complete leaves a pre-candidate at term 0.
          expect(n1).toMatchObject({ role: 'follower', preVoting: true, term: 0 });
        } else {
          expect(n1).toMatchObject({ role: 'candidate', term: 1 });
        }
      });
    }
  }
});

describe('TestRecvMsgVote and TestRecvMsgPreVote (etcd raft_test.go)', () => {
  // The voter's log ends at (index 2, term 2); its term is max(2, the candidate's log term).
  const rows: [
    state: 'follower' | 'leader' | 'candidate' | 'preCandidate',
    index: number,
    logTerm: number,
    votedFor: string | null,
    reject: boolean,
  ][] = [
    ['follower', 0, 0, null, true],
    ['follower', 0, 1, null, true],
    ['follower', 0, 2, null, true],
    ['follower', 0, 3, null, false],
    ['follower', 1, 0, null, true],
    ['follower', 1, 1, null, true],
    ['follower', 1, 2, null, true],
    ['follower', 1, 3, null, false],
    ['follower', 2, 0, null, true],
    ['follower', 2, 1, null, true],
    ['follower', 2, 2, null, false],
    ['follower', 2, 3, null, false],
    ['follower', 3, 0, null, true],
    ['follower', 3, 1, null, true],
    ['follower', 3, 2, null, false],
    ['follower', 3, 3, null, false],
    ['follower', 3, 2, 'n2', false],
    ['follower', 3, 2, 'n1', true],
    ['leader', 3, 3, 'n1', true],
    ['preCandidate', 3, 3, 'n1', true],
    ['candidate', 3, 3, 'n1', true],
  ];
  for (const type of ['requestVote', 'preVote'] as const) {
    rows.forEach(([state, index, logTerm, votedFor, reject], i) => {
      it(`#${i} ${type}: ${state}, candidate log (${index}, ${logTerm}), voted for ${votedFor ?? 'nobody'}`, () => {
        const b = bench({ ...quiet(3) });
        const n1 = benchNode(b, 'n1');
        const term = Math.max(2, logTerm);
        n1.term = term;
        n1.p.logTerm = 2;
        n1.p.logIndex = 2;
        n1.p.votedFor = votedFor;
        n1.role = state === 'leader' ? 'leader' : state === 'candidate' ? 'candidate' : 'follower';
        n1.p.preVoting = state === 'preCandidate';
        const replies = deliver(b, 'n2', 'n1', {
          type,
          term,
          body: { logIndex: index, logTerm, transfer: false },
        });
        expect(replies).toHaveLength(1);
        expect(replies[0]).toMatchObject({
          type: type === 'preVote' ? 'preVoteReply' : 'vote',
          granted: !reject,
        });
      });
    });
  }
});

describe('vote replies', () => {
  it('carry the voter\u2019s own term when they refuse, and the request\u2019s term when they grant', () => {
    const b = bench(quiet(3));
    const n1 = benchNode(b, 'n1');
    n1.term = 7;
    // A request from an older term is refused with the voter's term (7): the candidate learns it is behind.
    const [stale] = deliver(b, 'n2', 'n1', {
      type: 'preVote',
      term: 5,
      body: { logIndex: 0, logTerm: 0, transfer: false },
    });
    expect(stale).toMatchObject({ type: 'preVoteReply', term: 7, granted: false });
    // A pre-vote for a future term is granted with that term, and the voter's term does not move.
    const [future] = deliver(b, 'n2', 'n1', {
      type: 'preVote',
      term: 9,
      body: { logIndex: 0, logTerm: 0, transfer: false },
    });
    expect(future).toMatchObject({ type: 'preVoteReply', term: 9, granted: true });
    expect(n1.term).toBe(7);
    // A real vote request from a higher term moves the voter there, and is granted at it.
    const [vote] = deliver(b, 'n2', 'n1', {
      type: 'requestVote',
      term: 8,
      body: { logIndex: 0, logTerm: 0, transfer: false },
    });
    expect(vote).toMatchObject({ type: 'vote', term: 8, granted: true });
    expect(n1.term).toBe(8);
    expect(n1.p.votedFor).toBe('n2');
    // One vote per term: a second candidate in term 8 is refused, with the voter's term.
    const [second] = deliver(b, 'n3', 'n1', {
      type: 'requestVote',
      term: 8,
      body: { logIndex: 0, logTerm: 0, transfer: false },
    });
    expect(second).toMatchObject({ type: 'vote', term: 8, granted: false });
  });
});

describe('CheckQuorum', () => {
  it('steps a leader down after an election timeout without hearing from a quorum (TestLeaderStepdownWhenQuorumLost)', () => {
    const sim = new Simulation({
      seed: 4,
      nodes: 3,
      raft: { heartbeatMs: 100, electionTimeoutMs: 1_000 },
      untilMs: 20_000,
    });
    sim.runUntil(5_000);
    const [leader] = leaders(sim);
    sim.apply({ do: 'isolate', node: leader.id });
    sim.runUntil(7_100);
    const down = eventsOf(sim, 'steppedDown').filter((e) => e.node === leader.id);
    expect(down).toEqual([expect.objectContaining({ reason: 'lost contact with a quorum' })]);
    // Between one and two election timeouts after the cut: the check runs every election timeout.
    expect(down[0].atMs - 5_000).toBeGreaterThan(0);
    expect(down[0].atMs - 5_000).toBeLessThanOrEqual(2_000);
  });

  it('keeps a cut-off leader believing it leads without CheckQuorum, until it hears a higher term', () => {
    const sim = new Simulation({
      seed: 4,
      nodes: 3,
      raft: { heartbeatMs: 100, electionTimeoutMs: 1_000 },
      safety: { checkQuorum: false },
      untilMs: 40_000,
    });
    sim.runUntil(5_000);
    const [leader] = leaders(sim);
    sim.apply({ do: 'isolate', node: leader.id });
    sim.runUntil(20_000);
    // The other two elected a leader of a newer term; the old one still believes it leads.
    expect(
      leaders(sim)
        .map((l) => l.id)
        .sort(),
    ).toHaveLength(2);
    expect(nodeView(sim, leader.id).role).toBe('leader');
    sim.apply({ do: 'heal' });
    sim.runUntil(22_000);
    expect(leaders(sim)).toHaveLength(1);
    const down = eventsOf(sim, 'steppedDown').filter((e) => e.node === leader.id);
    expect(down).toEqual([expect.objectContaining({ reason: 'saw higher term' })]);
  });

  it('lets a follower within an election timeout of its leader ignore a higher-term campaign (TestLeaderSupersedingWithCheckQuorum)', () => {
    const b = bench(quiet(3));
    const n2 = benchNode(b, 'n2');
    n2.knownLeader = 0;
    n2.p.lastResetLocalMs = b.c.nowMs;
    n2.term = 1;
    // In lease: no reply at all, and the term does not move.
    expect(
      deliver(b, 'n3', 'n2', {
        type: 'requestVote',
        term: 2,
        body: { logIndex: 0, logTerm: 0, transfer: false },
      }),
    ).toEqual([]);
    expect(n2.term).toBe(1);
    // A leadership transfer forces its way through.
    expect(
      deliver(b, 'n3', 'n2', {
        type: 'requestVote',
        term: 2,
        body: { logIndex: 0, logTerm: 0, transfer: true },
      }),
    ).toEqual([expect.objectContaining({ type: 'vote', granted: true, term: 2 })]);
  });
});

describe('timing', () => {
  it('draws every election timeout in [et, 2et): the first elections come between 1 and 2 s at etcd\u2019s defaults', () => {
    const firsts: number[] = [];
    for (let seed = 1; seed <= 60; seed++) {
      const sim = new Simulation({ seed, nodes: 3, untilMs: 5_000 });
      sim.runUntil(5_000);
      firsts.push(eventsOf(sim, 'campaign')[0].atMs);
    }
    expect(Math.min(...firsts)).toBeGreaterThanOrEqual(1_000);
    expect(Math.max(...firsts)).toBeLessThan(2_000);
    expect(new Set(firsts).size).toBeGreaterThan(40);
  });

  it('lets a restarted node vote at once (its term and vote were persisted)', () => {
    const sim = new Simulation({ seed: 9, nodes: 3, untilMs: 30_000 });
    sim.runUntil(5_000);
    const [leader] = leaders(sim);
    const follower = sim.snapshot().nodes.find((n) => n.id !== leader.id)!;
    sim.apply({ do: 'kill', node: follower.id });
    sim.runUntil(6_000);
    sim.apply({ do: 'restart', node: follower.id });
    sim.apply({ do: 'kill', node: leader.id });
    sim.runUntil(10_000);
    // The third node can win only with the restarted node's vote.
    const elected = eventsOf(sim, 'elected').filter((e) => e.atMs > 6_000);
    expect(elected).toHaveLength(1);
    expect(elected[0].votes).toContain(follower.id);
  });
});
