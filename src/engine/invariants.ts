// The safety invariants, as pure functions over the engine's ledgers and one transition, called on
// every election, vote, term change and storage write (Raft's own votes and terms by Raft only);
// the property tests, the fuzzers, the monitor and the page's safety banner read what they find.
import type { InvariantName, Violation } from './types';

export interface ElectionCheck {
  term: number;
  node: string;
  /** The votes it won with, for algorithms that vote; null for those that do not (Bully, Ring). */
  votes: string[] | null;
  majority: number;
  voterCount: number;
  previousLeaderOfTerm: string | undefined;
  /** What the algorithm calls an epoch (checkLeaderOfTerm). */
  word?: string;
}

type Found = { invariant: InvariantName; detail: string };

/** At most one leader per epoch: every algorithm promises this, or (without a quorum) breaks it by design. */
export function checkLeaderOfTerm(
  node: string,
  term: number,
  previousLeaderOfTerm: string | undefined,
  word = 'term',
): Found | null {
  return previousLeaderOfTerm !== undefined && previousLeaderOfTerm !== node
    ? {
        invariant: 'oneLeaderPerTerm',
        detail: `${node} and ${previousLeaderOfTerm} both won ${word} ${term}`,
      }
    : null;
}

export function checkElection(x: ElectionCheck): Found[] {
  const found: Found[] = [];
  const twice = checkLeaderOfTerm(x.node, x.term, x.previousLeaderOfTerm, x.word);
  if (twice) found.push(twice);
  if (x.votes !== null && x.votes.length < x.majority) {
    found.push({
      invariant: 'leaderHasMajority',
      detail: `quorum is off: ${x.node} won term ${x.term} with ${x.votes.length} of ${x.voterCount} votes (a majority is ${x.majority})`,
    });
  }
  // Tokens of successive leaderships need not increase: Raft lets a slow candidate win an older
  // term after a newer one was won elsewhere (its writes carry the older term, and fencing stops
  // them). 'tokensIncrease' is no longer checked; the name stays for traces written before.
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

/**
 * A write's findings, or null (`fencing` undefined: no token check). Storage checks thousands of
 * writes a simulated second, almost all fine: fields as arguments, the common case allocates nothing.
 */
export function writeFindings(
  node: string,
  token: number,
  accepted: boolean,
  fencing: boolean | undefined,
  maxTokenBefore: number,
  maxTokenAfter: number,
  highestTokenIssued: number,
): Found[] | null {
  let found: Found[] | null = null;
  if (maxTokenAfter < maxTokenBefore) {
    (found ??= []).push({
      invariant: 'maxTokenNeverDecreases',
      detail: `storage's maxTokenSeen went from ${maxTokenBefore} to ${maxTokenAfter}`,
    });
  }
  if (fencing && accepted && token < maxTokenBefore) {
    (found ??= []).push({
      invariant: 'fencedWriteAccepted',
      detail: `${node}'s write with token ${token} was accepted after token ${maxTokenBefore}`,
    });
  }
  // Stale: accepted, with no token check, although a newer leadership has been issued.
  if (accepted && !fencing && token < highestTokenIssued) {
    (found ??= []).push({
      invariant: 'staleWriteAccepted',
      detail: `${fencing === false ? 'fencing is off: ' : ''}${node}'s write with token ${token} was accepted after token ${highestTokenIssued} was issued`,
    });
  }
  return found;
}

/** Invariants that only hold because a safety switch is on; the page shows them as the hazard. */
export const ALLOWED_WHEN_OFF: Record<'quorum' | 'fencing', InvariantName[]> = {
  quorum: ['oneLeaderPerTerm', 'leaderHasMajority'],
  fencing: ['staleWriteAccepted'],
};

/** What allowed it: a switch that was off, the algorithm itself (unsafeByAlgorithm), or null: a bug. */
export function allowedBy(
  invariant: InvariantName,
  safety: { quorum?: boolean; fencing?: boolean },
  unsafeByAlgorithm: readonly InvariantName[] = [],
): Violation['allowedBy'] {
  if (unsafeByAlgorithm.includes(invariant)) return 'algorithm';
  if (safety.quorum === false && ALLOWED_WHEN_OFF.quorum.includes(invariant)) return 'quorum';
  if (safety.fencing === false && ALLOWED_WHEN_OFF.fencing.includes(invariant)) return 'fencing';
  return null;
}

export const INVARIANT_TITLES = {
  oneLeaderPerTerm: 'At most one leader per term',
  termsNeverDecrease: 'Terms never decrease',
  oneVotePerTerm: 'At most one vote per node per term',
  leaderHasMajority: 'A leader has a strict majority of configured voters',
  maxTokenNeverDecreases: "Storage's max token never decreases",
  fencedWriteAccepted: 'With fencing on, no write below the max token is accepted',
  tokensIncrease: 'Tokens of successive leaderships strictly increase (no longer checked)',
  staleWriteAccepted: 'No stale write accepted',
};

/** A fenced register's counts: the simulator's storage and the real run's. */
export interface FencedRegister {
  maxTokenSeen: number;
  accepted: number;
  rejected: number;
}

/** The storage rule the lab teaches, simulated and real: fencing on, accept iff token >= highest seen. */
export function admitWrite(s: FencedRegister, fencing: boolean | undefined, token: number): boolean {
  const accepted = !fencing || token >= s.maxTokenSeen;
  if (accepted) {
    s.accepted++;
    if (token > s.maxTokenSeen) s.maxTokenSeen = token;
  } else {
    s.rejected++;
  }
  return accepted;
}
