// The read model: a run's sample, summary and snapshot, built from its ledger and what its backend
// knows: the simulator's kernel ledger, or a real run's monitor (real/model/fold.ts,
// store/backends/liveRecording.ts). So every backend reads the same, and a field added here is added for all.
import { leaderOf } from './leadership';
import { countersAt, failoversOf, msWithoutLeaderAt, violationsOf, type Ledger } from './ledger';
import type { ClientView, Sample, Snapshot, Summary } from './types';

/** How far back "now" reaches for the clients: the last second, as a rate per second reads it. */
export const CLIENT_NOW_MS = 1000;

/** What the clients see now: writes served in the last second, else only failures, else nothing sent. */
export type ClientsNow = 'served' | 'unavailable' | 'idle';

export function clientsNow(v: ClientView, nowMs: number): ClientsNow {
  const recent = (atMs: number) => atMs >= 0 && nowMs - atMs < CLIENT_NOW_MS;
  return recent(v.lastServedAtMs) ? 'served' : recent(v.lastErrorAtMs) ? 'unavailable' : 'idle';
}

export interface WatchCounts {
  notifications: number;
  reads: number;
}

export interface SampleParts {
  leaderCountObserved: number;
  maxTerm: number;
  maxTokenSeen: number;
  renewalLatencyMs: number;
  /** Only where they are counted, so that every other run's samples stay as they were. */
  watch?: WatchCounts;
}

export function sampleOf(l: Ledger, atMs: number, p: SampleParts): Sample {
  const k = l.counters;
  const s: Sample = {
    atMs,
    leaderCount: l.leaderCount,
    leaderCountObserved: p.leaderCountObserved,
    maxTerm: p.maxTerm,
    maxTokenSeen: p.maxTokenSeen,
    fencingRejections: k.fencingRejections,
    staleWritesAccepted: k.staleWritesAccepted,
    divergentWrites: k.divergentWrites,
    leaderTransitions: k.leaderTransitions,
    renewalLatencyMs: p.renewalLatencyMs,
    msWithoutLeader: msWithoutLeaderAt(l, atMs),
    clientRedirects: k.clientRedirects,
  };
  if (p.watch) {
    s.watchNotifications = p.watch.notifications;
    s.watchReads = p.watch.reads;
  }
  if (l.clients) {
    s.clientErrors = l.clients.errors;
    s.clientServed = l.clients.served;
    s.clientWaitedMs = l.clients.waitedMs;
  }
  return s;
}

export interface SummaryParts {
  eventsDropped: number;
  watch: WatchCounts;
  electionMessages: number;
}

export function summaryOf(l: Ledger, atMs: number, p: SummaryParts): Summary {
  return {
    ...countersAt(l, atMs),
    failovers: failoversOf(l),
    violations: violationsOf(l),
    eventsDropped: p.eventsDropped,
    elections: l.elections,
    watchNotifications: p.watch.notifications,
    watchReads: p.watch.reads,
    electionMessages: p.electionMessages,
    ...(l.writesLost !== null ? { writesLost: l.writesLost } : {}),
  };
}

/** What snapshotOf works out itself; the backend gives the rest. */
type FromLedger = 'leaderCount' | 'leader' | 'startedAtMs' | 'highestTokenIssued' | 'counters';
export type SnapshotParts = Omit<Snapshot, FromLedger | 'violations' | 'failovers' | 'writesLost'>;

export function snapshotOf(l: Ledger, p: SnapshotParts): Snapshot {
  return {
    nowMs: p.nowMs,
    seed: p.seed,
    nodes: p.nodes,
    messages: p.messages,
    storage: p.storage,
    partition: p.partition,
    safety: p.safety,
    clients: l.clients ? { ...p.clients, view: { ...l.clients } } : p.clients,
    leaderCount: l.leaderCount,
    leaderCountObserved: p.leaderCountObserved,
    leader: leaderOf(p.nodes),
    startedAtMs: l.startedAtMs,
    services: p.services,
    highestTokenIssued: l.highestTokenIssued,
    counters: countersAt(l, p.nowMs),
    violations: violationsOf(l),
    failovers: failoversOf(l),
    eventCount: p.eventCount,
    ...(l.writesLost !== null ? { writesLost: l.writesLost } : {}),
    ...(p.queue ? { queue: p.queue } : {}),
  };
}
