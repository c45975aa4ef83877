// The leadership books, kept once: leader_count and the time without a leader, the leaderships and
// their transitions, the epoch ledger behind "at most one leader per epoch", the highest token
// issued, the failover ledger (lost, detected, elected, ready) and the violations. The engine's
// kernel (leadership.ts, storage.ts, clients.ts) keeps one Ledger as the run happens; the monitor
// (monitor.ts) keeps another from the events alone, so a recorded real run gets the same books.
// Both change them only through these functions. Every list has its bound, named here.
import type { Failover, InvariantName, Violation } from './types';

export const MAX_FAILOVERS = 500;
export const MAX_VIOLATIONS = 500;
/** Epochs remembered for the one-leader-per-epoch check. */
export const MAX_EPOCHS = 256;

/** The counters every run keeps, in the order the summary and the snapshot give them. */
export const COUNTER_NAMES = [
  'leaderTransitions',
  'fencingRejections',
  'staleWritesAccepted',
  'divergentWrites',
  'clientRedirects',
  'maxLeaderCount',
  'msWithoutLeader',
] as const;

export type CounterName = (typeof COUNTER_NAMES)[number];
export type Counters = Record<CounterName, number>;

export interface Ledger {
  /** msWithoutLeader here runs to leaderCountSinceMs; msWithoutLeaderAt gives it now. */
  counters: Counters;
  /** leader_count believed: nodes that think they lead. */
  leaderCount: number;
  leaderCountSinceMs: number;
  /** Leaderships taken (the first election included). */
  elections: number;
  /** Who took office last: a transition is a change of holder, as Kubernetes counts leaderTransitions. */
  lastHolder: string;
  /** Who won each recent epoch. */
  leaderOfTerm: Map<number, string>;
  highestTokenIssued: number;
  failovers: Failover[];
  /** The leader of the moment was lost; the next election closes the failover. */
  pendingLoss: { atMs: number; from: string; cause: string } | null;
  detectedAtMs: number;
  firstCampaignMs: number;
  violations: Violation[];
}

export function createLedger(): Ledger {
  return {
    counters: {
      leaderTransitions: 0,
      fencingRejections: 0,
      staleWritesAccepted: 0,
      divergentWrites: 0,
      clientRedirects: 0,
      maxLeaderCount: 0,
      msWithoutLeader: 0,
    },
    leaderCount: 0,
    leaderCountSinceMs: 0,
    elections: 0,
    lastHolder: '',
    leaderOfTerm: new Map(),
    highestTokenIssued: 0,
    failovers: [],
    pendingLoss: null,
    detectedAtMs: -1,
    firstCampaignMs: -1,
    violations: [],
  };
}

/** leader_count changed (or not) at atMs: the time without a leader and the peak follow. */
export function countLeaders(l: Ledger, atMs: number, count: number): void {
  if (count === l.leaderCount) return;
  if (l.leaderCount === 0) l.counters.msWithoutLeader += atMs - l.leaderCountSinceMs;
  l.leaderCount = count;
  l.leaderCountSinceMs = atMs;
  if (count > l.counters.maxLeaderCount) l.counters.maxLeaderCount = count;
}

export function msWithoutLeaderAt(l: Ledger, nowMs: number): number {
  return l.counters.msWithoutLeader + (l.leaderCount === 0 ? nowMs - l.leaderCountSinceMs : 0);
}

/** The counters as of nowMs (the time without a leader runs on while there is none). */
export function countersAt(l: Ledger, nowMs: number): Counters {
  return { ...l.counters, msWithoutLeader: msWithoutLeaderAt(l, nowMs) };
}

/** A campaign: the first after a loss is when the loss was detected. */
export function noteCampaign(l: Ledger, atMs: number): void {
  if (l.pendingLoss && l.detectedAtMs < 0) l.detectedAtMs = atMs;
  if (l.firstCampaignMs < 0) l.firstCampaignMs = atMs;
}

/**
 * `node` took office in epoch `term` as `holder`: the epoch ledger, the highest token, the
 * transitions (a change of holder) and, after the first election, the failover it ends. Check the
 * epoch (checkLeaderOfTerm against previousLeaderOf) before noting it.
 */
export function noteElected(l: Ledger, atMs: number, node: string, term: number, holder: string): void {
  l.leaderOfTerm.set(term, node);
  if (l.leaderOfTerm.size > MAX_EPOCHS) l.leaderOfTerm.delete(l.leaderOfTerm.keys().next().value as number);
  if (term > l.highestTokenIssued) l.highestTokenIssued = term;
  if (l.elections > 0 && l.lastHolder !== holder) l.counters.leaderTransitions++;
  l.elections++;
  l.lastHolder = holder;
  if (l.elections > 1) {
    const loss = l.pendingLoss;
    const lostAtMs = loss ? loss.atMs : l.firstCampaignMs >= 0 ? l.firstCampaignMs : atMs;
    const detectedAtMs = loss ? (l.detectedAtMs >= 0 ? l.detectedAtMs : atMs) : lostAtMs;
    if (l.failovers.length >= MAX_FAILOVERS) l.failovers.shift();
    l.failovers.push({
      lostAtMs,
      detectedAtMs,
      electedAtMs: atMs,
      readyAtMs: -1,
      node,
      term,
      from: loss ? loss.from : null,
      cause: loss ? loss.cause : 'a candidate won while the old leader still believed it led',
    });
  }
  l.pendingLoss = null;
  l.detectedAtMs = -1;
  l.firstCampaignMs = -1;
}

/** Who already won this epoch, if anyone. */
export function previousLeaderOf(l: Ledger, term: number): string | undefined {
  return l.leaderOfTerm.get(term);
}

/** The leader of the moment was lost: a failover begins. */
export function noteLost(l: Ledger, atMs: number, from: string, cause: string): void {
  l.pendingLoss = { atMs, from, cause };
  l.detectedAtMs = -1;
}

/** The lost leader renewed again: it survived, and no failover is recorded. Whether it was lost. */
export function noteSurvived(l: Ledger, node: string): boolean {
  if (!l.pendingLoss || l.pendingLoss.from !== node) return false;
  l.pendingLoss = null;
  l.detectedAtMs = -1;
  return true;
}

/**
 * The failover that brought this leader to office is over once it is ready. Not always the last
 * one: without a quorum a second side can elect while the first side's leader warms up.
 */
export function noteReady(l: Ledger, node: string, term: number, atMs: number): void {
  for (let i = l.failovers.length - 1; i >= 0; i--) {
    const f = l.failovers[i];
    if (f.node === node && f.term === term) {
      if (f.readyAtMs < 0) f.readyAtMs = atMs;
      return;
    }
  }
}

export function noteViolation(
  l: Ledger,
  atMs: number,
  invariant: InvariantName,
  detail: string,
  allowedBy: Violation['allowedBy'],
): void {
  if (l.violations.length < MAX_VIOLATIONS) l.violations.push({ atMs, invariant, detail, allowedBy });
}

/** Copies of the ledgers (for a summary or a snapshot that outlives the run's next step). */
export function failoversOf(l: Ledger): Failover[] {
  return l.failovers.map((f) => ({ ...f }));
}

export function violationsOf(l: Ledger): Violation[] {
  return l.violations.map((v) => ({ ...v }));
}
