// The monitor: a fold over the event stream. From what a run reports it computes leader_count, the
// failovers, the counters and the invariants that hold for every algorithm. It reads no engine
// state, so a run recorded from a real cluster gets the same fold and checkers as a simulated one.
import { algorithmFor } from './algorithms';
import type { Experiment } from './experiment';
import { allowedBy, checkLeaderOfTerm, writeFindings } from './invariants';
import {
  causesFailover,
  countLeaders,
  countersAt,
  createLedger,
  noteWritesLost,
  noteCampaign,
  noteClientWrite,
  noteElected,
  noteFault,
  noteLost,
  noteReady,
  noteSurvived,
  noteViolation,
  previousLeaderOf,
  type Counters,
} from './ledger';
import type { InvariantName, SimEvent } from './types';

export type MonitorCounts = Counters & { leaderCount: number; leaderCountObserved: number };

export function createMonitor(experiment: Pick<Experiment, 'safety' | 'algorithm'>) {
  const alg = algorithmFor(experiment.algorithm);
  return {
    safety: { quorum: experiment.safety.quorum, fencing: experiment.safety.fencing },
    unsafeByAlgorithm: alg.unsafeBy ?? [],
    epochWord: alg.words.epoch,
    /** The same books the engine keeps (ledger.ts), kept from the events. */
    books: createLedger(alg.losesWrites === true),
    /** Nodes that believe they lead, in the order they took office. */
    leaders: [] as { node: string; term: number }[],
    /** Nodes paused now: their is-leader gauge cannot be scraped. */
    paused: new Set<string>(),
    maxTokenSeen: 0,
    lastEventAtMs: 0,
  };
}

export type MonitorState = ReturnType<typeof createMonitor>;

function violate(s: MonitorState, atMs: number, invariant: InvariantName, detail: string): void {
  noteViolation(s.books, atMs, invariant, detail, allowedBy(invariant, s.safety, s.unsafeByAlgorithm));
}

/** Fold one event into the monitor's state (in the order they happened). */
export function observe(s: MonitorState, ev: SimEvent): void {
  const at = ev.atMs;
  s.lastEventAtMs = at;
  switch (ev.type) {
    case 'fault': {
      const f = ev.fault;
      if (ev.skipped) return;
      if (causesFailover(f)) noteFault(s.books, at);
      if (f.do === 'safety') {
        if (f.quorum !== undefined) s.safety.quorum = f.quorum;
        if (f.fencing !== undefined) s.safety.fencing = f.fencing;
      } else if (f.do === 'pause' && ev.target) s.paused.add(ev.target);
      else if ((f.do === 'resume' || f.do === 'kill') && ev.target) s.paused.delete(ev.target);
      return countLeaders(s.books, at, s.leaders.length, observedCount(s));
    }
    case 'resumed':
      s.paused.delete(ev.node);
      return countLeaders(s.books, at, s.leaders.length, observedCount(s));
    case 'campaign':
      return noteCampaign(s.books, at);
    case 'elected': {
      const twice = checkLeaderOfTerm(ev.node, ev.term, previousLeaderOf(s.books, ev.term), s.epochWord);
      if (twice) violate(s, at, twice.invariant, twice.detail);
      noteElected(s.books, at, ev.node, ev.term, ev.holder ?? ev.node);
      s.leaders.push({ node: ev.node, term: ev.term });
      return countLeaders(s.books, at, s.leaders.length, observedCount(s));
    }
    case 'steppedDown': {
      const i = s.leaders.findIndex((l) => l.node === ev.node);
      if (i >= 0) s.leaders.splice(i, 1);
      return countLeaders(s.books, at, s.leaders.length, observedCount(s));
    }
    case 'lost':
      return noteLost(s.books, at, ev.node, ev.cause);
    case 'survived':
      return void noteSurvived(s.books, ev.node);
    case 'ready':
      return noteReady(s.books, ev.node, ev.term, at);
    case 'write': {
      const accepted = ev.result === 'accepted';
      if (!accepted) s.books.counters.fencingRejections++;
      if (ev.stale) s.books.counters.staleWritesAccepted++;
      const found = writeFindings(
        ev.node,
        ev.token,
        accepted,
        s.safety.fencing,
        s.maxTokenSeen,
        ev.maxTokenSeen,
        s.books.highestTokenIssued,
      );
      s.maxTokenSeen = ev.maxTokenSeen;
      if (found) for (const f of found) violate(s, at, f.invariant, f.detail);
      return;
    }
    case 'resynced':
      return noteWritesLost(s.books, ev.lost);
    case 'clientWrite':
      return noteClientWrite(s.books, at, ev.result, ev.waitedMs);
    default:
      return;
  }
}

/** Leaders whose is-leader gauge a scrape reaches: the paused ones fail it. */
function observedCount(s: MonitorState): number {
  let count = 0;
  for (const l of s.leaders) if (!s.paused.has(l.node)) count++;
  return count;
}

/** The summary's numbers without its ledgers (nothing copied): for a sample taken often. */
export function monitorCounts(s: MonitorState, nowMs: number): MonitorCounts {
  return {
    leaderCount: s.books.leaderCount,
    leaderCountObserved: observedCount(s),
    ...countersAt(s.books, nowMs),
  };
}
