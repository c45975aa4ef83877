// Steps 3 to 5 of the chain (the token, storage's comparison, the two outcomes): pure, from the snapshot.
import type { NodeId, NodeView, Snapshot, StorageWrite } from '../../src/engine';
import { formatSeconds } from '../../src/store/format';
import type { ChainMemory } from './chainMemory';
import type { Election } from './chainModel';

export interface TokenView {
  /** The token a write sent now would carry: the leader's term. */
  current: number | null;
  holder: NodeId | null;
  latest: { node: NodeId; token: number; kind: StorageWrite['kind'] } | null;
  highestIssued: number;
  /** What the token is, in the algorithm's words (term, leaderTransitions, revision...). */
  epoch: string;
}

export interface Comparison {
  key: string;
  node: NodeId;
  token: number;
  verdict: 'yes' | 'no' | 'unchecked';
  stale: boolean;
  /** "token 3 >= 4? no" */
  text: string;
}

/** The chain's words for writes, from the algorithm's description (its Election). */
export type WriteWords = Pick<Election, 'fenced' | 'noToken' | 'epoch'>;

export interface CompareView {
  /** Why nothing checks a token (Redis Sentinel), or null. */
  noToken: string | null;
  /** Storage's token check: on, off, or undefined where the algorithm has no token (Redis). */
  fencing: boolean | undefined;
  maxTokenSeen: number;
  latest: Comparison | null;
  /** Newest first, the latest included. */
  history: Comparison[];
}

export interface Alert {
  key: string;
  headline: string;
  detail: string;
}

export interface OutcomeView {
  accepted: number;
  rejected: number;
  staleAccepted: number;
  latest: StorageWrite['result'] | null;
  zombie: Alert | null;
  stale: Alert | null;
  /** Acknowledged writes lost when an old primary resynced (Snapshot.writesLost), or null: none can be. */
  writesLost: number | null;
}

export const HISTORY_LENGTH = 4;

/**
 * Storage's max token just before write i of `recent`: only writes move it, so it is the previous write's
 * max (0 before the first). For the oldest kept write it is at most its own max after (a safe answer).
 */
export function maxBefore(recent: readonly StorageWrite[], i: number, totalWrites: number): number {
  if (i > 0) return recent[i - 1].maxTokenSeen;
  if (totalWrites <= recent.length) return 0;
  const w = recent[i];
  return w.result === 'accepted' && w.token >= w.maxTokenSeen ? w.token : w.maxTokenSeen;
}

export function compareWrite(w: StorageWrite, before: number, fencing: boolean | undefined): Comparison {
  const base = { key: `${w.atMs}:${w.node}:${w.token}`, node: w.node, token: w.token, stale: w.stale };
  if (w.result === 'rejected')
    return { ...base, verdict: 'no', text: `token ${w.token} >= ${w.maxTokenSeen}? no` };
  // An accepted token below the max can only mean that nothing compared it.
  if (fencing && w.token >= before)
    return { ...base, verdict: 'yes', text: `token ${w.token} >= ${before}? yes` };
  const text =
    w.token < before
      ? `token ${w.token} < ${before}: accepted unchecked`
      : `token ${w.token}: accepted unchecked`;
  return { ...base, verdict: 'unchecked', text: w.stale ? `${text} (stale)` : text };
}

function comparisons(s: Snapshot): Comparison[] {
  const recent = s.storage.recent;
  const total = s.storage.accepted + s.storage.rejected;
  const out: Comparison[] = [];
  for (let i = recent.length - 1; i >= 0 && out.length < HISTORY_LENGTH; i--) {
    const c = compareWrite(recent[i], maxBefore(recent, i, total), s.safety.fencing);
    // Client writes can share a millisecond, node and token: the storage's serial number keys them.
    out.push({ ...c, key: `${c.key}:${total - (recent.length - 1 - i)}` });
  }
  return out;
}

/** The refusal, and what the writer's election makes of it (`fenced`): under most, nothing, said so. */
function zombieAlert(w: StorageWrite | null, fenced: string): Alert | null {
  if (!w) return null;
  return {
    key: `${w.atMs}:${w.node}:${w.token}`,
    headline: `ZOMBIE WRITE REJECTED: ${w.node} token ${w.token} < ${w.maxTokenSeen}`,
    detail: `at ${formatSeconds(w.atMs)}: storage refuses ${w.node}'s write, naming token ${w.maxTokenSeen}; ${fenced}`,
  };
}

function staleAlert(w: ChainMemory['lastStale'], noToken: string | null): Alert | null {
  if (!w) return null;
  const why =
    w.newerToken > w.token ? `${w.node} token ${w.token} < ${w.newerToken}` : `${w.node} token ${w.token}`;
  return {
    key: `${w.atMs}:${w.node}:${w.token}`,
    headline: 'STALE WRITE ACCEPTED: lost update',
    detail: `${why} accepted at ${formatSeconds(w.atMs)} ${noToken ? `unchecked: ${noToken.split(':')[0]}` : 'because fencing is off'}`,
  };
}

export function deriveWrites(
  s: Snapshot,
  memory: ChainMemory,
  leader: NodeView | null,
  words: WriteWords,
): { token: TokenView; compare: CompareView; outcome: OutcomeView } {
  const recent = s.storage.recent;
  const last = recent.length ? recent[recent.length - 1] : memory.lastWrite;
  const history = comparisons(s);
  return {
    token: {
      current: leader ? leader.term : null,
      holder: leader ? leader.id : null,
      latest: last ? { node: last.node, token: last.token, kind: last.kind } : null,
      highestIssued: s.highestTokenIssued,
      epoch: words.epoch,
    },
    compare: {
      noToken: words.noToken,
      fencing: s.safety.fencing,
      maxTokenSeen: s.storage.maxTokenSeen,
      latest: history[0] ?? null,
      history,
    },
    outcome: {
      accepted: s.storage.accepted,
      rejected: s.storage.rejected,
      staleAccepted: s.counters.staleWritesAccepted,
      latest: last ? last.result : null,
      zombie: zombieAlert(memory.lastRejected, words.fenced),
      stale: staleAlert(memory.lastStale, words.noToken),
      writesLost: s.writesLost ?? null,
    },
  };
}
