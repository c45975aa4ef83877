// What the chain remembers from the event stream: the snapshot cannot say who voted last or what the last
// zombie write was once storage's short `recent` list has moved on, so events fold into this plain record.
import type { SimEvent, StorageWrite } from '../../src/engine';

type EventOf<T extends SimEvent['type']> = Extract<SimEvent, { type: T }>;
export type ElectionMemo = Pick<EventOf<'elected'>, 'node' | 'term' | 'votes' | 'atMs'>;
export type CampaignMemo = Pick<EventOf<'campaign'>, 'node' | 'term' | 'preVote' | 'atMs'>;

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

/**
 * Fold events (oldest first; from `from` on) into a new record, read from the newest end until each thing
 * kept (the latest of its kind) is found: a jump brings minutes of events (200,000), per-write records slow.
 */
export function foldEvents(memory: ChainMemory, events: readonly SimEvent[], from = 0): ChainMemory {
  if (from >= events.length) return memory;
  const m: ChainMemory = { ...memory };
  let campaign = false;
  let election = false;
  let write = false;
  let rejected = false;
  let staleAt = -1;
  for (let i = events.length - 1; i >= from; i--) {
    const ev = events[i];
    if (ev.type === 'campaign') {
      if (!campaign) m.campaign = { node: ev.node, term: ev.term, preVote: ev.preVote, atMs: ev.atMs };
      campaign = true;
    } else if (ev.type === 'elected') {
      if (!election) m.election = { node: ev.node, term: ev.term, votes: [...ev.votes], atMs: ev.atMs };
      election = true;
    } else if (ev.type === 'write') {
      if (!write || (ev.result === 'rejected' && !rejected)) {
        const { type: _type, ...w } = ev;
        if (!write) m.lastWrite = w;
        if (w.result === 'rejected' && !rejected) m.lastRejected = w;
      }
      write = true;
      if (ev.result === 'rejected') rejected = true;
      if (ev.stale && staleAt < 0) staleAt = i;
    }
    if (campaign && election && write && rejected && staleAt >= 0) break;
  }
  // The highest term won, overall and when the last stale write landed (one pass, nothing built).
  let highest = memory.highestElectedTerm;
  for (let i = from; i < events.length; i++) {
    const ev = events[i];
    if (i === staleAt) {
      const { type: _type, ...w } = ev as EventOf<'write'>;
      m.lastStale = { ...w, newerToken: Math.max(highest, w.maxTokenSeen) };
    }
    if (ev.type === 'elected' && ev.term > highest) highest = ev.term;
  }
  m.highestElectedTerm = highest;
  return m;
}

/** The memory after all of `events` (oldest first): what a scene recalls after a jump back. */
export function recallEvents(events: readonly SimEvent[]): ChainMemory {
  return foldEvents(EMPTY_MEMORY, events);
}
