// The invariant checkers are pure functions; the engine, the property tests and the page's safety
// banner all rely on them, so each must both catch its case and stay quiet otherwise.
import { describe, expect, it } from 'vitest';
import { allowedBy, checkElection, checkTerm, checkVote } from '../../../src/engine/invariants';
import { checkWrite } from '../../engineChecks';

const election = {
  term: 3,
  node: 'n1',
  votes: ['n1', 'n2', 'n3'],
  majority: 3,
  voterCount: 5,
  previousLeaderOfTerm: undefined,
};
const write = {
  node: 'n1',
  token: 5,
  accepted: true,
  fencing: true,
  maxTokenBefore: 5,
  maxTokenAfter: 5,
  highestTokenIssued: 5,
};

const names = (found: { invariant: string }[]) => found.map((f) => f.invariant);

describe('checkElection', () => {
  it('passes a majority win in a new, higher term', () => {
    expect(checkElection(election)).toEqual([]);
  });

  it('flags a second leader in a term', () => {
    expect(names(checkElection({ ...election, previousLeaderOfTerm: 'n4' }))).toEqual(['oneLeaderPerTerm']);
    // The same node winning its own term again is not a second leader.
    expect(checkElection({ ...election, previousLeaderOfTerm: 'n1' })).toEqual([]);
  });

  it('flags a win without a majority of the configured voters', () => {
    expect(names(checkElection({ ...election, votes: ['n1', 'n2'] }))).toEqual(['leaderHasMajority']);
  });

  it('does not flag a term won after a later one was: Raft allows it, and fencing stops its writes', () => {
    expect(checkElection({ ...election, term: 2 })).toEqual([]);
  });

  it('names the epoch in the algorithm\u2019s own word', () => {
    expect(checkElection({ ...election, previousLeaderOfTerm: 'n4', word: 'epoch' })[0].detail).toBe(
      'n1 and n4 both won epoch 3',
    );
  });
});

describe('checkTerm and checkVote', () => {
  it('flags a term that goes down, and only that', () => {
    expect(checkTerm('n1', 4, 3)?.invariant).toBe('termsNeverDecrease');
    expect(checkTerm('n1', 4, 4)).toBeNull();
    expect(checkTerm('n1', 4, 5)).toBeNull();
  });

  it('flags a second, different vote in the same term', () => {
    expect(checkVote('n1', 3, 'n3', { term: 3, for: 'n2' })?.invariant).toBe('oneVotePerTerm');
    expect(checkVote('n1', 3, 'n2', { term: 3, for: 'n2' })).toBeNull();
    expect(checkVote('n1', 4, 'n3', { term: 3, for: 'n2' })).toBeNull();
  });
});

describe('checkWrite', () => {
  it('passes a write at the current token', () => {
    expect(checkWrite(write)).toEqual([]);
  });

  it('flags a max token that goes down', () => {
    expect(names(checkWrite({ ...write, maxTokenAfter: 4 }))).toEqual(['maxTokenNeverDecreases']);
  });

  it('flags a write below the max token accepted with fencing on', () => {
    expect(names(checkWrite({ ...write, token: 4 }))).toEqual(['fencedWriteAccepted']);
    expect(checkWrite({ ...write, token: 4, accepted: false })).toEqual([]);
  });

  it('flags a stale write only when fencing is off and the token is below the highest issued', () => {
    expect(names(checkWrite({ ...write, fencing: false, token: 4 }))).toEqual(['staleWriteAccepted']);
    expect(names(checkWrite({ ...write, fencing: false, token: 5, highestTokenIssued: 6 }))).toEqual([
      'staleWriteAccepted',
    ]);
    expect(checkWrite({ ...write, fencing: false })).toEqual([]);
  });
});

describe('allowedBy', () => {
  it('names the switched-off safety that allows a hazard, and null for a bug', () => {
    const on = { quorum: true, fencing: true };
    expect(allowedBy('oneLeaderPerTerm', { ...on, quorum: false })).toBe('quorum');
    expect(allowedBy('leaderHasMajority', { ...on, quorum: false })).toBe('quorum');
    expect(allowedBy('staleWriteAccepted', { ...on, fencing: false })).toBe('fencing');
    expect(allowedBy('oneLeaderPerTerm', on)).toBeNull();
    expect(allowedBy('oneVotePerTerm', { quorum: false, fencing: false })).toBeNull();
    expect(allowedBy('termsNeverDecrease', { quorum: false, fencing: false })).toBeNull();
  });
});
