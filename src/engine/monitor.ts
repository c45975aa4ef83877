// The monitor: a fold over the event stream, and nothing else. From what a run reports (who was
// elected, who stepped down, which writes storage accepted) it computes leader_count, the
// failovers, the counters and the invariants that hold for every algorithm: at most one leader
// per epoch, storage's highest token never decreases, and with fencing on no write below it is
// accepted. It reads no engine state, so a run recorded from a real cluster goes through the same
// fold and the same checkers (invariants.ts) as a simulated one.
import { algorithmFor } from './algorithms';
import type { Experiment } from './experiment';
import { allowedBy, checkLeaderOfTerm, writeFindings } from './invariants';
import { markReady } from './leadership';
import type { Failover, InvariantName, SimEvent, Violation } from './types';

/** The invariants every algorithm is held to; the monitor checks these. */
export const GENERIC_INVARIANTS: readonly InvariantName[] = [
  'oneLeaderPerTerm',
  'maxTokenNeverDecreases',
  'fencedWriteAccepted',
  'staleWriteAccepted',
];

const MAX_FAILOVERS = 500;
const MAX_VIOLATIONS = 500;
/** Epochs remembered for the one-leader-per-epoch check (the engine keeps as many). */
const MAX_EPOCHS = 256;

export interface MonitorState {
  safety: { quorum?: boolean; fencing: boolean };
  unsafeByAlgorithm: readonly InvariantName[];
  epochWord: string;
  /** Nodes that believe they lead, in the order they took office. */
  leaders: { node: string; term: number }[];
  /** Nodes paused now: their is-leader gauge cannot be scraped. */
  paused: Set<string>;
  leaderCount: number;
  leaderCountSinceMs: number;
  maxLeaderCount: number;
  msWithoutLeader: number;
  elections: number;
  lastLeader: string;
  leaderTransitions: number;
  fencingRejections: number;
  staleWritesAccepted: number;
  divergentWrites: number;
  clientRedirects: number;
  maxTokenSeen: number;
  highestTokenIssued: number;
  leaderOfTerm: Map<number, string>;
  failovers: Failover[];
  pendingLoss: { atMs: number; from: string; cause: string } | null;
  detectedAtMs: number;
  firstCampaignMs: number;
  violations: Violation[];
  lastEventAtMs: number;
}

export interface MonitorSummary {
  leaderCount: number;
  leaderCountObserved: number;
  leaderTransitions: number;
  fencingRejections: number;
  staleWritesAccepted: number;
  divergentWrites: number;
  clientRedirects: number;
  maxLeaderCount: number;
  msWithoutLeader: number;
  failovers: Failover[];
  violations: Violation[];
}

export function createMonitor(experiment: Pick<Experiment, 'safety' | 'algorithm'>): MonitorState {
  return {
    safety: { quorum: experiment.safety.quorum, fencing: experiment.safety.fencing },
    unsafeByAlgorithm: algorithmFor(experiment.algorithm).unsafeBy ?? [],
    epochWord: algorithmFor(experiment.algorithm).words.epoch,
    leaders: [],
    paused: new Set(),
    leaderCount: 0,
    leaderCountSinceMs: 0,
    maxLeaderCount: 0,
    msWithoutLeader: 0,
    elections: 0,
    lastLeader: '',
    leaderTransitions: 0,
    fencingRejections: 0,
    staleWritesAccepted: 0,
    divergentWrites: 0,
    clientRedirects: 0,
    maxTokenSeen: 0,
    highestTokenIssued: 0,
    leaderOfTerm: new Map(),
    failovers: [],
    pendingLoss: null,
    detectedAtMs: -1,
    firstCampaignMs: -1,
    violations: [],
    lastEventAtMs: 0,
  };
}

function setLeaderCount(s: MonitorState, atMs: number): void {
  const count = s.leaders.length;
  if (count === s.leaderCount) return;
  if (s.leaderCount === 0) s.msWithoutLeader += atMs - s.leaderCountSinceMs;
  s.leaderCount = count;
  s.leaderCountSinceMs = atMs;
  if (count > s.maxLeaderCount) s.maxLeaderCount = count;
}

function violate(s: MonitorState, atMs: number, invariant: InvariantName, detail: string): void {
  if (s.violations.length >= MAX_VIOLATIONS) return;
  s.violations.push({
    atMs,
    invariant,
    detail,
    allowedBy: allowedBy(invariant, s.safety, s.unsafeByAlgorithm),
  });
}

/** Fold one event into the monitor's state (events must come in the order they happened). */
export function observe(s: MonitorState, ev: SimEvent): void {
  const at = ev.atMs;
  s.lastEventAtMs = at;
  switch (ev.type) {
    case 'fault': {
      const f = ev.fault;
      if (ev.skipped) return;
      if (f.do === 'safety') {
        if (f.quorum !== undefined) s.safety.quorum = f.quorum;
        if (f.fencing !== undefined) s.safety.fencing = f.fencing;
      } else if (f.do === 'pause' && ev.target) s.paused.add(ev.target);
      else if ((f.do === 'resume' || f.do === 'kill') && ev.target) s.paused.delete(ev.target);
      return;
    }
    case 'resumed':
      s.paused.delete(ev.node);
      return;
    case 'campaign':
      if (s.pendingLoss && s.detectedAtMs < 0) s.detectedAtMs = at;
      if (s.firstCampaignMs < 0) s.firstCampaignMs = at;
      return;
    case 'elected': {
      const twice = checkLeaderOfTerm(ev.node, ev.term, s.leaderOfTerm.get(ev.term), s.epochWord);
      if (twice) violate(s, at, twice.invariant, twice.detail);
      s.leaderOfTerm.set(ev.term, ev.node);
      if (s.leaderOfTerm.size > MAX_EPOCHS)
        s.leaderOfTerm.delete(s.leaderOfTerm.keys().next().value as number);
      if (ev.term > s.highestTokenIssued) s.highestTokenIssued = ev.term;
      const holder = ev.holder ?? ev.node;
      if (s.elections > 0 && s.lastLeader !== holder) s.leaderTransitions++;
      s.elections++;
      s.lastLeader = holder;
      s.leaders.push({ node: ev.node, term: ev.term });
      noteElected(s, at, ev.node, ev.term);
      setLeaderCount(s, at);
      return;
    }
    case 'steppedDown': {
      const i = s.leaders.findIndex((l) => l.node === ev.node);
      if (i >= 0) s.leaders.splice(i, 1);
      setLeaderCount(s, at);
      return;
    }
    case 'lost':
      s.pendingLoss = { atMs: at, from: ev.node, cause: ev.cause };
      s.detectedAtMs = -1;
      return;
    case 'survived':
      if (s.pendingLoss && s.pendingLoss.from === ev.node) {
        s.pendingLoss = null;
        s.detectedAtMs = -1;
      }
      return;
    case 'ready':
      markReady(s.failovers, ev.node, ev.term, at);
      return;
    case 'write': {
      const accepted = ev.result === 'accepted';
      if (!accepted) s.fencingRejections++;
      if (ev.stale) s.staleWritesAccepted++;
      const before = s.maxTokenSeen;
      const found = writeFindings(
        ev.node,
        ev.token,
        accepted,
        s.safety.fencing,
        before,
        ev.maxTokenSeen,
        s.highestTokenIssued,
      );
      s.maxTokenSeen = ev.maxTokenSeen;
      if (found) for (const f of found) violate(s, at, f.invariant, f.detail);
      return;
    }
    case 'clientWrite':
      if (ev.result === 'divergent') s.divergentWrites++;
      else if (ev.result === 'redirected') s.clientRedirects++;
      return;
    default:
      return;
  }
}

function noteElected(s: MonitorState, at: number, node: string, term: number): void {
  if (s.elections > 1) {
    const loss = s.pendingLoss;
    const lostAtMs = loss ? loss.atMs : s.firstCampaignMs >= 0 ? s.firstCampaignMs : at;
    const detectedAtMs = loss ? (s.detectedAtMs >= 0 ? s.detectedAtMs : at) : lostAtMs;
    if (s.failovers.length >= MAX_FAILOVERS) s.failovers.shift();
    s.failovers.push({
      lostAtMs,
      detectedAtMs,
      electedAtMs: at,
      readyAtMs: -1,
      node,
      term,
      from: loss ? loss.from : null,
      cause: loss ? loss.cause : 'a candidate won while the old leader still believed it led',
    });
  }
  s.pendingLoss = null;
  s.detectedAtMs = -1;
  s.firstCampaignMs = -1;
}

export type MonitorCounts = Omit<MonitorSummary, 'failovers' | 'violations'>;

/** The summary's numbers without its ledgers (nothing copied): for a sample taken often. */
export function monitorCounts(s: MonitorState, nowMs: number): MonitorCounts {
  return {
    leaderCount: s.leaderCount,
    leaderCountObserved: s.leaders.filter((l) => !s.paused.has(l.node)).length,
    leaderTransitions: s.leaderTransitions,
    fencingRejections: s.fencingRejections,
    staleWritesAccepted: s.staleWritesAccepted,
    divergentWrites: s.divergentWrites,
    clientRedirects: s.clientRedirects,
    maxLeaderCount: s.maxLeaderCount,
    msWithoutLeader: s.msWithoutLeader + (s.leaderCount === 0 ? nowMs - s.leaderCountSinceMs : 0),
  };
}

/** What the monitor has seen, as of nowMs. */
export function monitorSummary(s: MonitorState, nowMs: number): MonitorSummary {
  return {
    ...monitorCounts(s, nowMs),
    failovers: s.failovers.map((f) => ({ ...f })),
    violations: s.violations.map((v) => ({ ...v })),
  };
}

/** Fold a whole event list (a trace's events, from the start of the run). */
export function monitorEvents(
  experiment: Pick<Experiment, 'safety' | 'algorithm'>,
  events: readonly SimEvent[],
  nowMs: number,
): MonitorSummary {
  const s = createMonitor(experiment);
  for (const ev of events) observe(s, ev);
  return monitorSummary(s, nowMs);
}
