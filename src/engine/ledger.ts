// The leadership books, kept once: leader_count, time without a leader, leaderships, the epoch
// ledger, the highest token, failovers and violations. The kernel keeps one as the run happens, the
// monitor another from events alone (a real run's); both only through these functions, all bounded.
import type { ClientView, Failover, InvariantName, Violation } from './types';

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

export const noClientWrites = (): ClientView => ({
  errors: 0,
  served: 0,
  waitedMs: 0,
  lastErrorAtMs: -1,
  lastServedAtMs: -1,
});

/** `countsLostWrites`: the algorithm can lose acknowledged writes on a resync (its info's losesWrites). */
export function createLedger(countsLostWrites = false) {
  return {
    /** msWithoutLeader here runs to observedSinceMs; msWithoutLeaderAt gives it now. */
    counters: Object.fromEntries(COUNTER_NAMES.map((name) => [name, 0])) as Counters,
    /** leader_count believed: nodes that think they lead (paused ones included). */
    leaderCount: 0,
    /** leader_count observed, as a dashboard sees it (a paused node fails), since when. */
    observedCount: 0,
    observedSinceMs: 0,
    elections: 0,
    /** When the first leader was elected: start-up, before it, is no outage (-1 until then). */
    startedAtMs: -1,
    /** The first fault since the last election (-1: none): where a failover with no loss begins. */
    faultAtMs: -1,
    /** Who took office last: a transition is a change of holder, as Kubernetes counts leaderTransitions. */
    lastHolder: '',
    /** Who won each recent epoch. */
    leaderOfTerm: new Map<number, string>(),
    highestTokenIssued: 0,
    failovers: [] as Failover[],
    /** The leader of the moment was lost; the next election closes the failover. */
    pendingLoss: null as { atMs: number; from: string; cause: string } | null,
    detectedAtMs: -1,
    /** The first campaign since the last election: where a failover with no loss and no fault begins. */
    firstCampaignMs: -1,
    violations: [] as Violation[],
    /** Writes lost when an old primary resynchronised (Summary.writesLost); null where none can be. */
    writesLost: countsLostWrites ? 0 : null,
    /** What the clients saw (the client view), from a run's first client write on; null before. */
    clients: null as ClientView | null,
  };
}

export type Ledger = ReturnType<typeof createLedger>;

/** A resynchronisation discarded `lost` acknowledged writes (the `resynced` event). */
export function noteWritesLost(l: Ledger, lost: number): void {
  l.writesLost = (l.writesLost ?? 0) + lost;
}

/** A client's write was answered: an error, or served after waiting `waitedMs` since its first try. */
export function noteClientWrite(l: Ledger, atMs: number, result: string, waitedMs: number | undefined): void {
  if (result === 'divergent') l.counters.divergentWrites++;
  else if (result === 'redirected') l.counters.clientRedirects++;
  const k = (l.clients ??= noClientWrites());
  if (result === 'unavailable' || result === 'redirected') {
    k.errors++;
    k.lastErrorAtMs = atMs;
  } else if (waitedMs !== undefined) {
    k.served++;
    k.waitedMs += waitedMs;
    k.lastServedAtMs = atMs;
  }
}

/** leader_count at atMs: the peak follows the believed; time without a leader, observed 0 after start-up. */
export function countLeaders(l: Ledger, atMs: number, believed: number, observed: number): void {
  l.leaderCount = believed;
  if (believed > l.counters.maxLeaderCount) l.counters.maxLeaderCount = believed;
  if (observed === l.observedCount) return;
  if (l.observedCount === 0) l.counters.msWithoutLeader += outageSince(l, atMs);
  l.observedCount = observed;
  l.observedSinceMs = atMs;
}

/** The part of the current stretch at observed 0 that lies after start-up, up to atMs. */
function outageSince(l: Ledger, atMs: number): number {
  if (l.startedAtMs < 0) return 0;
  return atMs - Math.max(l.observedSinceMs, l.startedAtMs);
}

export function msWithoutLeaderAt(l: Ledger, nowMs: number): number {
  return l.counters.msWithoutLeader + (l.observedCount === 0 ? outageSince(l, nowMs) : 0);
}

/** The counters as of nowMs (the time without a leader runs on while there is none). */
export function countersAt(l: Ledger, nowMs: number): Counters {
  return { ...l.counters, msWithoutLeader: msWithoutLeaderAt(l, nowMs) };
}

/** A campaign: the first after a loss (or, without one, after a fault) is when it was detected. */
export function noteCampaign(l: Ledger, atMs: number): void {
  if ((l.pendingLoss || l.faultAtMs >= 0) && l.detectedAtMs < 0) l.detectedAtMs = atMs;
  if (l.firstCampaignMs < 0) l.firstCampaignMs = atMs;
}

/** Whether a fault can begin a failover (a manual write changes no leadership). */
export function causesFailover(fault: { do: string }): boolean {
  return fault.do !== 'write';
}

/** A fault was applied: the first since the last election is where a failover with no loss begins. */
export function noteFault(l: Ledger, atMs: number): void {
  if (l.faultAtMs < 0) l.faultAtMs = atMs;
}

/** `node` took office in epoch `term` as `holder`; check the epoch (checkLeaderOfTerm) before noting it. */
export function noteElected(l: Ledger, atMs: number, node: string, term: number, holder: string): void {
  l.leaderOfTerm.set(term, node);
  if (l.leaderOfTerm.size > MAX_EPOCHS) l.leaderOfTerm.delete(l.leaderOfTerm.keys().next().value as number);
  if (term > l.highestTokenIssued) l.highestTokenIssued = term;
  if (l.elections > 0 && l.lastHolder !== holder) l.counters.leaderTransitions++;
  l.elections++;
  l.lastHolder = holder;
  if (l.startedAtMs < 0) l.startedAtMs = atMs;
  // A failover begins at the loss of the leader; with none noticed (the old leader still believes
  // it leads: a split brain, a flapping lease), at the first fault since the last election, or
  // else at the first campaign since it. Start-up (the first election) is none.
  const loss = l.pendingLoss;
  if (l.elections > 1) {
    const fault = l.faultAtMs >= 0;
    const lostAtMs = loss?.atMs ?? (fault ? l.faultAtMs : l.firstCampaignMs >= 0 ? l.firstCampaignMs : atMs);
    const detectedAtMs = loss || fault ? (l.detectedAtMs >= 0 ? l.detectedAtMs : atMs) : lostAtMs;
    if (l.failovers.length >= MAX_FAILOVERS) l.failovers.shift();
    l.failovers.push({
      lostAtMs,
      detectedAtMs,
      electedAtMs: atMs,
      readyAtMs: -1,
      node,
      term,
      from: loss ? loss.from : null,
      // With no loss noticed, why it won, as true of the moment: another node still believed it
      // led, or none did (the last one left office unnoticed). leaderCount is still the count before.
      cause: loss ? loss.cause : l.leaderCount > 0 ? WON_BESIDE_A_LEADER : WON_WITH_NO_LEADER,
    });
  }
  l.pendingLoss = null;
  l.detectedAtMs = -1;
  l.faultAtMs = -1;
  l.firstCampaignMs = -1;
}

/** A failover's cause when no loss was noticed (`from` null), said of the node that won. */
export const WON_BESIDE_A_LEADER = 'won while another node still believed it led';
const WON_WITH_NO_LEADER = 'won with no leader in office';

export function previousLeaderOf(l: Ledger, term: number): string | undefined {
  return l.leaderOfTerm.get(term);
}

export function noteLost(l: Ledger, atMs: number, from: string, cause: string): void {
  l.pendingLoss = { atMs, from, cause };
  l.detectedAtMs = -1;
}

/** The lost leader renewed again: it survived, and no failover is recorded. Whether it was lost. */
export function noteSurvived(l: Ledger, node: string): boolean {
  if (!l.pendingLoss || l.pendingLoss.from !== node) return false;
  l.pendingLoss = null;
  l.detectedAtMs = -1;
  // The fault cost nothing: a later failover begins at a later fault.
  l.faultAtMs = -1;
  return true;
}

/** Its failover ends once it is ready: not always the last one (without a quorum, two sides elect). */
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

/** Copies, for a summary or a snapshot that outlives the run's next step. */
export function failoversOf(l: Ledger): Failover[] {
  return l.failovers.map((f) => ({ ...f }));
}

export function violationsOf(l: Ledger): Violation[] {
  return l.violations.map((v) => ({ ...v }));
}
