// Vote rules, one exchange at a time: a node fed a single message by the real rule code.
import { describe, expect, it } from 'vitest';
import { onElectionTimer, startElection } from '../../../src/engine/algorithms/raft';
import { bench, benchNode, deliver, type Bench, flat } from './harness';

const noPreVote = { safety: { preVote: false } };

function reply(b: Bench, from: string, to: string, term: number, transfer = false) {
  const sent = deliver(b, from, to, { type: 'requestVote', term, transfer });
  expect(sent).toHaveLength(1);
  return sent[0];
}

describe('one vote per term', () => {
  it('grants the first candidate and refuses a second one in the same term', () => {
    const b = bench();
    expect(reply(b, 'n2', 'n1', 1)).toMatchObject({ type: 'vote', term: 1, granted: true });
    expect(reply(b, 'n3', 'n1', 1)).toMatchObject({ type: 'vote', term: 1, granted: false });
    expect(benchNode(b, 'n1').p.votedFor).toBe('n2');
    expect(b.c.violations).toEqual([]);
  });

  it('grants a repeat request from the candidate it already voted for', () => {
    const b = bench();
    reply(b, 'n2', 'n1', 1);
    expect(reply(b, 'n2', 'n1', 1)).toMatchObject({ granted: true });
    expect(b.c.violations).toEqual([]);
  });

  it('votes again in a later term, for whoever asks first there', () => {
    const b = bench({ lease: { jitterMs: 0 } });
    reply(b, 'n2', 'n1', 1);
    // Past the time a voter backs its candidate (2 x RetryPeriod + jitter), a new term is open.
    b.c.nowMs = 4000;
    expect(reply(b, 'n3', 'n1', 2)).toMatchObject({ term: 2, granted: true });
    expect(flat(benchNode(b, 'n1'))).toMatchObject({ term: 2, votedFor: 'n3' });
  });

  it('never votes for another candidate in the term it campaigns in', () => {
    const b = bench(noPreVote);
    startElection(b.c, b.out, benchNode(b, 'n1'), false);
    expect(flat(benchNode(b, 'n1'))).toMatchObject({ role: 'candidate', term: 1, votedFor: 'n1' });
    expect(reply(b, 'n2', 'n1', 1)).toMatchObject({ granted: false });
  });
});

describe('a majority of the configured voters', () => {
  it('makes a candidate leader on the vote that completes a majority of all voters, not before', () => {
    const b = bench({ ...noPreVote, nodes: 5 });
    const n1 = benchNode(b, 'n1');
    startElection(b.c, b.out, n1, false);
    deliver(b, 'n2', 'n1', { type: 'vote', term: 1, granted: true });
    expect(n1.role).toBe('candidate');
    deliver(b, 'n3', 'n1', { type: 'vote', term: 1, granted: false });
    expect(n1.role).toBe('candidate');
    deliver(b, 'n4', 'n1', { type: 'vote', term: 1, granted: true });
    expect(n1.role).toBe('leader');
    expect(b.out.events.filter((e) => e.type === 'elected')).toEqual([
      expect.objectContaining({ node: 'n1', term: 1, votes: ['n1', 'n2', 'n4'] }),
    ]);
  });

  it('counts the witness as a voter: 2 nodes + witness need 2 votes of 3', () => {
    const b = bench({ ...noPreVote, nodes: 2, witness: true });
    const n1 = benchNode(b, 'n1');
    startElection(b.c, b.out, n1, false);
    expect(n1.role).toBe('candidate');
    expect(reply(b, 'n1', 'w', 1)).toMatchObject({ granted: true });
    deliver(b, 'w', 'n1', { type: 'vote', term: 1, granted: true });
    expect(n1.role).toBe('leader');
  });

  it('counts the same voter once however many times its vote arrives', () => {
    const b = bench({ ...noPreVote, nodes: 5 });
    const n1 = benchNode(b, 'n1');
    startElection(b.c, b.out, n1, false);
    for (let i = 0; i < 3; i++) deliver(b, 'n2', 'n1', { type: 'vote', term: 1, granted: true });
    expect(n1.role).toBe('candidate');
  });
});

describe('terms', () => {
  it('turns a leader into a follower at the higher term it sees in a heartbeat', () => {
    const b = bench();
    const n1 = benchNode(b, 'n1');
    Object.assign(n1, { role: 'leader', term: 3 });
    deliver(b, 'n2', 'n1', { type: 'heartbeat', term: 4, round: 1 });
    expect(flat(n1)).toMatchObject({ role: 'follower', term: 4, votedFor: null });
    expect(b.out.events).toContainEqual(
      expect.objectContaining({ type: 'steppedDown', node: 'n1', reason: 'saw higher term' }),
    );
  });

  it('turns a leader into a follower at the higher term in an ack', () => {
    const b = bench();
    const n1 = benchNode(b, 'n1');
    Object.assign(n1, { role: 'leader', term: 3 });
    deliver(b, 'n2', 'n1', { type: 'ack', term: 7, round: 1, granted: false });
    expect(n1).toMatchObject({ role: 'follower', term: 7 });
  });

  it('turns a candidate into a follower at the higher term in a vote reply', () => {
    const b = bench(noPreVote);
    const n1 = benchNode(b, 'n1');
    startElection(b.c, b.out, n1, false);
    deliver(b, 'n2', 'n1', { type: 'vote', term: 5, granted: false });
    expect(flat(n1)).toMatchObject({ role: 'follower', term: 5, votedFor: null });
  });

  it('turns a candidate into a follower at the higher term of a vote request, and votes', () => {
    const b = bench(noPreVote);
    const n1 = benchNode(b, 'n1');
    startElection(b.c, b.out, n1, false);
    expect(reply(b, 'n2', 'n1', 2)).toMatchObject({ term: 2, granted: true });
    expect(flat(n1)).toMatchObject({ role: 'follower', term: 2, votedFor: 'n2' });
  });

  it('lets a leader ignore a higher-term vote request while it leads, unless it is a transfer', () => {
    const b = bench();
    const n1 = benchNode(b, 'n1');
    Object.assign(n1, { role: 'leader', term: 3 });
    expect(reply(b, 'n2', 'n1', 4)).toMatchObject({ granted: false });
    expect(n1).toMatchObject({ role: 'leader', term: 3 });
    expect(reply(b, 'n2', 'n1', 4, true)).toMatchObject({ granted: true });
    expect(flat(n1)).toMatchObject({ role: 'follower', term: 4, votedFor: 'n2' });
  });

  it('changes nothing on a message with a lower term, and answers with its own term', () => {
    for (const role of ['follower', 'candidate', 'leader'] as const) {
      const b = bench();
      const n1 = benchNode(b, 'n1');
      Object.assign(n1, { role, term: 5, votedFor: role === 'follower' ? 'n3' : 'n1', knownLeader: 2 });
      const before = structuredClone(n1);
      const answers = [
        ...deliver(b, 'n2', 'n1', { type: 'requestVote', term: 4 }),
        ...deliver(b, 'n2', 'n1', { type: 'requestVote', term: 4, transfer: true }),
        ...deliver(b, 'n2', 'n1', { type: 'heartbeat', term: 4, round: 9 }),
        ...deliver(b, 'n2', 'n1', { type: 'vote', term: 4, granted: true }),
        ...deliver(b, 'n2', 'n1', { type: 'ack', term: 4, round: 1, granted: true }),
        ...deliver(b, 'n2', 'n1', { type: 'preVote', term: 4 }),
      ];
      expect(n1, role).toEqual(before);
      expect(
        answers.map((m) => [m.type, m.granted]),
        role,
      ).toEqual([
        ['vote', false],
        ['vote', false],
        ['ack', false],
        ['preVoteReply', false],
      ]);
      expect(
        answers.slice(0, 3).every((m) => m.term === 5),
        role,
      ).toBe(true);
    }
  });
});

// A term must never be won after a later term was (fencing tokens follow terms). Votes can reach a
// candidate late, most of all when it was paused while they arrived, so a candidate counts votes
// for one RetryPeriod only, and a voter backs the candidate it voted for longer than that.
describe('late votes', () => {
  it("counts a vote only within RetryPeriod of the campaign, by the candidate's own clock", () => {
    for (const [rate, atMs, wins] of [
      [1, 1999, true],
      [1, 2000, false],
      [0.5, 3999, true],
      [0.5, 4000, false],
    ] as const) {
      const b = bench({ ...noPreVote, nodes: 3 });
      const n1 = benchNode(b, 'n1');
      n1.clockRate = rate;
      startElection(b.c, b.out, n1, false);
      b.c.nowMs = atMs;
      deliver(b, 'n2', 'n1', { type: 'vote', term: 1, granted: true });
      expect(n1.role, `rate ${rate} at ${atMs} ms`).toBe(wins ? 'leader' : 'candidate');
    }
  });

  it('backs the candidate it voted for: no vote or pre-vote for anyone else in a later term meanwhile', () => {
    const b = bench({ lease: { jitterMs: 500 } });
    reply(b, 'n2', 'n1', 1);
    b.c.nowMs = 2 * 2000 + 500 - 1;
    expect(reply(b, 'n3', 'n1', 2)).toMatchObject({ granted: false });
    expect(reply(b, 'n3', 'n1', 2, true)).toMatchObject({ granted: false });
    expect(deliver(b, 'n3', 'n1', { type: 'preVote', term: 2 })).toEqual([
      expect.objectContaining({ granted: false }),
    ]);
    // Refused without adopting the term, so the backed candidate's round is undisturbed.
    expect(flat(benchNode(b, 'n1'))).toMatchObject({ term: 1, votedFor: 'n2' });
    // The backed candidate itself may go on to a later term.
    expect(deliver(b, 'n2', 'n1', { type: 'preVote', term: 2 })).toEqual([
      expect.objectContaining({ granted: true }),
    ]);
  });

  it('is free again 2 x RetryPeriod + jitter after the vote, by its own clock', () => {
    const b = bench({ lease: { jitterMs: 500 } });
    reply(b, 'n2', 'n1', 1);
    b.c.nowMs = 4500;
    expect(reply(b, 'n3', 'n1', 2)).toMatchObject({ granted: true });
  });

  it('does not campaign itself while it backs another candidate', () => {
    const b = bench({ lease: { jitterMs: 0 } });
    const n1 = benchNode(b, 'n1');
    reply(b, 'n2', 'n1', 1);
    b.c.nowMs = 3000;
    n1.p.electionDeadlineLocalMs = 0;
    onElectionTimer(b.c, b.out, n1);
    expect(b.out.events.filter((e) => e.type === 'campaign')).toEqual([]);
    expect(n1.p.electionTimerAtMs).toBe(4000);
    b.c.nowMs = 4000;
    onElectionTimer(b.c, b.out, n1);
    expect(b.out.events.filter((e) => e.type === 'campaign')).toEqual([
      expect.objectContaining({ node: 'n1' }),
    ]);
  });
});

describe('backing ends when a leader is heard', () => {
  it('lets a voter that heard the winner lead vote in a leadership transfer right away', () => {
    const b = bench();
    reply(b, 'n2', 'n1', 1);
    deliver(b, 'n2', 'n1', { type: 'heartbeat', term: 1, round: 1 });
    b.c.nowMs = 100;
    // In the lease, a plain request is refused but a transfer is not, and backing no longer binds.
    expect(reply(b, 'n3', 'n1', 2)).toMatchObject({ granted: false });
    expect(reply(b, 'n3', 'n1', 2, true)).toMatchObject({ granted: true });
  });
});
