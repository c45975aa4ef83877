// What the chain remembers from the event stream. The snapshot alone cannot say who voted in
// the last election or what the last zombie write was once storage's short `recent` list has
// moved on, so the scene folds engine events into this small, plain record.
import type { NodeId, SimEvent, StorageWrite } from '../../src/engine';

export interface ElectionMemo {
  node: NodeId;
  term: number;
  votes: NodeId[];
  atMs: number;
}

export interface CampaignMemo {
  node: NodeId;
  term: number;
  preVote: boolean;
  atMs: number;
}

/** A stale write, with the newest token issued when it landed (what it should have lost to). */
export type StaleMemo = StorageWrite & { newerToken: number };

export interface ChainMemory {
  election: ElectionMemo | null;
  campaign: CampaignMemo | null;
  lastWrite: StorageWrite | null;
  lastRejected: StorageWrite | null;
  lastStale: StaleMemo | null;
  /** Highest term anyone won: the newest fencing token issued, as far as the events tell. */
  highestElectedTerm: number;
}

export const EMPTY_MEMORY: ChainMemory = {
  election: null,
  campaign: null,
  lastWrite: null,
  lastRejected: null,
  lastStale: null,
  highestElectedTerm: 0,
};

/** Fold events (oldest first) into the memory; returns a new record, the input is untouched. */
export function foldEvents(memory: ChainMemory, events: readonly SimEvent[]): ChainMemory {
  if (!events.length) return memory;
  const m: ChainMemory = { ...memory };
  for (const ev of events) {
    if (ev.type === 'campaign') {
      m.campaign = { node: ev.node, term: ev.term, preVote: ev.preVote, atMs: ev.atMs };
    } else if (ev.type === 'elected') {
      m.election = { node: ev.node, term: ev.term, votes: [...ev.votes], atMs: ev.atMs };
      if (ev.term > m.highestElectedTerm) m.highestElectedTerm = ev.term;
    } else if (ev.type === 'write') {
      const { type: _type, ...write } = ev;
      m.lastWrite = write;
      if (write.result === 'rejected') m.lastRejected = write;
      if (write.stale)
        m.lastStale = { ...write, newerToken: Math.max(m.highestElectedTerm, write.maxTokenSeen) };
    }
  }
  return m;
}

/**
 * The memory after all of `events` (oldest first), as foldEvents(EMPTY_MEMORY, events) gives it,
 * read from the newest end: after a jump back the scene recalls from up to 200,000 kept events,
 * and this touches only the few it keeps (one pass without allocation for the highest term).
 */
export function recallEvents(events: readonly SimEvent[]): ChainMemory {
  const m: ChainMemory = { ...EMPTY_MEMORY };
  let staleAt = -1;
  for (let i = events.length - 1; i >= 0; i--) {
    const ev = events[i];
    if (ev.type === 'campaign') {
      if (!m.campaign) m.campaign = { node: ev.node, term: ev.term, preVote: ev.preVote, atMs: ev.atMs };
    } else if (ev.type === 'elected') {
      if (!m.election) m.election = { node: ev.node, term: ev.term, votes: [...ev.votes], atMs: ev.atMs };
    } else if (ev.type === 'write') {
      if (!m.lastWrite || (ev.result === 'rejected' && !m.lastRejected) || (ev.stale && staleAt < 0)) {
        const { type: _type, ...write } = ev;
        if (!m.lastWrite) m.lastWrite = write;
        if (write.result === 'rejected' && !m.lastRejected) m.lastRejected = write;
        if (write.stale && staleAt < 0) staleAt = i;
      }
    }
    if (m.campaign && m.election && m.lastWrite && m.lastRejected && staleAt >= 0) break;
  }
  // The highest term won, overall and as it stood when the last stale write landed.
  let highest = 0;
  for (let i = 0; i < events.length; i++) {
    const ev = events[i];
    if (i === staleAt) {
      const { type: _type, ...write } = ev as Extract<SimEvent, { type: 'write' }>;
      m.lastStale = { ...write, newerToken: Math.max(highest, write.maxTokenSeen) };
    }
    if (ev.type === 'elected' && ev.term > highest) highest = ev.term;
  }
  m.highestElectedTerm = highest;
  return m;
}
