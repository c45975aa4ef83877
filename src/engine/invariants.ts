// The safety invariants, as pure functions over the engine's ledgers and one transition. The
// engine calls them on every election, vote, term change and storage write; the property tests,
// the fuzzers and the page's safety banner all read the violations they produce.
import type { InvariantName, Violation } from './types';

export interface ElectionCheck {
  term: number;
  node: string;
  votes: string[];
  majority: number;
  voterCount: number;
  /** Who already won this term, if anyone. */
  previousLeaderOfTerm: string | undefined;
  lastElectedTerm: number;
}

type Found = { invariant: InvariantName; detail: string };

export function checkElection(x: ElectionCheck): Found[] {
  const found: Found[] = [];
  if (x.previousLeaderOfTerm !== undefined && x.previousLeaderOfTerm !== x.node) {
    found.push({
      invariant: 'oneLeaderPerTerm',
      detail: `${x.node} and ${x.previousLeaderOfTerm} both won term ${x.term}`,
    });
  }
  if (x.votes.length < x.majority) {
    found.push({
      invariant: 'leaderHasMajority',
      detail: `quorum is off: ${x.node} won term ${x.term} with ${x.votes.length} of ${x.voterCount} votes (a majority is ${x.majority})`,
    });
  }
  if (x.term <= x.lastElectedTerm && x.previousLeaderOfTerm === undefined) {
    found.push({
      invariant: 'tokensIncrease',
      detail: `${x.node} won term ${x.term} after term ${x.lastElectedTerm} was already issued`,
    });
  }
  return found;
}

export function checkTerm(node: string, before: number, after: number): Found | null {
  return after < before
    ? { invariant: 'termsNeverDecrease', detail: `${node}'s term went from ${before} to ${after}` }
    : null;
}

export function checkVote(
  node: string,
  term: number,
  candidate: string,
  ledger: { term: number; for: string },
): Found | null {
  return ledger.term === term && ledger.for !== candidate
    ? {
        invariant: 'oneVotePerTerm',
        detail: `${node} voted for ${ledger.for} and then for ${candidate} in term ${term}`,
      }
    : null;
}

export interface WriteCheck {
  node: string;
  token: number;
  accepted: boolean;
  fencing: boolean;
  maxTokenBefore: number;
  maxTokenAfter: number;
  highestTokenIssued: number;
}

/** A write is stale when storage accepts it although a newer leadership has been issued. */
export function isStaleWrite(x: Pick<WriteCheck, 'accepted' | 'fencing' | 'token' | 'highestTokenIssued'>): boolean {
  return x.accepted && !x.fencing && x.token < x.highestTokenIssued;
}

export function checkWrite(x: WriteCheck): Found[] {
  const found: Found[] = [];
  if (x.maxTokenAfter < x.maxTokenBefore) {
    found.push({
      invariant: 'maxTokenNeverDecreases',
      detail: `storage's maxTokenSeen went from ${x.maxTokenBefore} to ${x.maxTokenAfter}`,
    });
  }
  if (x.fencing && x.accepted && x.token < x.maxTokenBefore) {
    found.push({
      invariant: 'fencedWriteAccepted',
      detail: `${x.node}'s write with token ${x.token} was accepted after token ${x.maxTokenBefore}`,
    });
  }
  if (isStaleWrite(x)) {
    found.push({
      invariant: 'staleWriteAccepted',
      detail: `fencing is off: ${x.node}'s write with token ${x.token} was accepted after token ${x.highestTokenIssued} was issued`,
    });
  }
  return found;
}

/** Invariants that only hold because a safety switch is on; the page shows them as the hazard. */
export const ALLOWED_WHEN_OFF: Record<'quorum' | 'fencing', InvariantName[]> = {
  quorum: ['oneLeaderPerTerm', 'leaderHasMajority', 'tokensIncrease'],
  fencing: ['staleWriteAccepted'],
};

/** Which switched-off safety allowed this violation, or null when it is a bug in safe mode. */
export function allowedBy(
  invariant: InvariantName,
  safety: { quorum: boolean; fencing: boolean },
): Violation['allowedBy'] {
  if (!safety.quorum && ALLOWED_WHEN_OFF.quorum.includes(invariant)) return 'quorum';
  if (!safety.fencing && ALLOWED_WHEN_OFF.fencing.includes(invariant)) return 'fencing';
  return null;
}

export const INVARIANT_TITLES: Record<InvariantName, string> = {
  oneLeaderPerTerm: 'At most one leader per term',
  termsNeverDecrease: 'Terms never decrease',
  oneVotePerTerm: 'At most one vote per node per term',
  leaderHasMajority: 'A leader has a strict majority of configured voters',
  maxTokenNeverDecreases: "Storage's max token never decreases",
  fencedWriteAccepted: 'With fencing on, no write below the max token is accepted',
  tokensIncrease: 'Tokens of successive leaderships strictly increase',
  staleWriteAccepted: 'No stale write accepted',
};
