// The chain's content as plain data from a snapshot and the folded memory. Pure, so every sentence can be
// unit-tested without rendering, and cheap to compare: the view re-renders only when this model changes.
import {
  algorithmFor,
  majorityOf,
  pageOf,
  type NodeId,
  type NodeView,
  type Snapshot,
} from '../../src/engine';
import { believers } from '../../src/store/select';
import type { ChainMemory } from './chainMemory';
import { deriveWrites, type TokenView, type CompareView, type OutcomeView } from './writesModel';

export type StepId = 1 | 2 | 3 | 4 | 5;
export type Tone = 'good' | 'warn' | 'bad' | 'neutral';

export interface LeaseTiming {
  durationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
}

/** Simulated time between one write's steps 3, 4 and 5 (one engine instant), so the flow reads at 1x. */
export const CASCADE_MS = 150;

export interface Voter {
  id: NodeId;
  voted: boolean;
  leader: boolean;
  witness: boolean;
}

export interface QuorumView {
  state: 'leader' | 'campaign' | 'none' | 'split';
  headline: string;
  /** "3 of 5 votes, term 7", or null when there is nothing to count. */
  votesText: string | null;
  voters: Voter[];
  majorityText: string;
  notes: string[];
  tone: Tone;
}

/** How the run's algorithm elects, as the chain's first step says it. */
export interface Election {
  /** Step 1's title, in full and in the compact strip. */
  title: string;
  short: string;
  /** The algorithm's words: its epoch (term, leaderTransitions...) and its leader (coordinator...). */
  epoch: string;
  leader: string;
  /** Whether nodes vote among themselves, a majority electing (Raft). */
  votes: boolean;
  /** Whether anything needs a majority (of the nodes or of a coordination service's members). */
  hasQuorum: boolean;
  /** Without node votes: what elects, in one line ("the API server's Lease, stored in a 3-member etcd"). */
  how: string;
  /** Why nothing checks a token under it (Redis Sentinel, Pacemaker: algorithms/pages/), or null: storage does. */
  noToken: string | null;
  /** What the leader does when storage refuses its write, in the algorithm's words (algorithms/pages/). */
  fenced: string;
}

/** Raft's: the nodes vote, a majority elects, in its description's words (its rules loaded). */
export function raftElection(): Election {
  const page = pageOf({ algorithm: 'raft' });
  return {
    title: algorithmFor('raft').elects,
    short: page.elect.short,
    epoch: 'term',
    leader: 'leader',
    votes: true,
    hasQuorum: true,
    how: '',
    fenced: page.fenced,
    noToken: null,
  };
}

export interface ChainModel {
  active: StepId;
  quorum: QuorumView;
  token: TokenView;
  compare: CompareView;
  outcome: OutcomeView;
}

/** The leader the chain follows: the snapshot's (the kernel's one rule, leaderAmong). */
export function pickLeader(s: Snapshot): NodeView | null {
  const id = s.leader?.id;
  return id === undefined ? null : (s.nodes.find((n) => n.id === id) ?? null);
}

function pickCampaigner(s: Snapshot, memory: ChainMemory): NodeView | null {
  const running = s.nodes.filter((n) => n.alive && !n.paused && (n.role === 'candidate' || n.preVoting));
  if (!running.length) return null;
  return (
    running.find((n) => n.id === memory.campaign?.node) ?? running.reduce((a, b) => (b.term > a.term ? b : a))
  );
}

function votersOf(s: Snapshot, votes: NodeId[], leaderId: NodeId | null): Voter[] {
  return s.nodes.map((n) => ({
    id: n.id,
    voted: votes.includes(n.id),
    leader: n.id === leaderId,
    witness: n.witness,
  }));
}

const WAITING = 'waiting for an election timeout';
const WAITING_TAKEOVER = 'waiting for a candidate to take over';

/** Why nobody leads: too few nodes up, a partition without a majority side, or a pending timeout. */
function noLeaderReason(s: Snapshot, majority: number, el: Election): string {
  const up = s.nodes.filter((n) => n.alive && !n.paused);
  // Where nodes do not vote, one candidate up is enough to lead.
  if (!el.votes) return up.length ? WAITING_TAKEOVER : 'no candidate is up';
  if (up.length < majority)
    return `only ${up.length} of ${s.nodes.length} nodes are up; a majority needs ${majority}`;
  if (s.partition) {
    const upIds = new Set(up.map((n) => n.id));
    const largest = Math.max(...s.partition.map((g) => g.filter((id) => upIds.has(id)).length));
    if (largest < majority)
      return `no side of the partition holds a majority (${majority} of ${s.nodes.length})`;
  }
  return WAITING;
}

export function deriveQuorum(
  s: Snapshot,
  memory: ChainMemory,
  leader: NodeView | null,
  el: Election = raftElection(),
): QuorumView {
  const size = s.nodes.length;
  const majority = majorityOf(size);
  const epochOf = (n: NodeView) => `${el.epoch} ${n.term}`;
  // Where nodes do not vote, what elects is a service (its majority) or nothing at all.
  const majorityText = el.votes ? `majority: ${majority} of ${size}` : el.how;
  const leaders = believers(s);
  const campaigner = pickCampaigner(s, memory);

  // Split brain is what an election without a majority allows: Raft with quorum off, or an
  // algorithm with none. Elsewhere a second leader is a paused one, told below as a zombie.
  const noMajority = el.votes ? !s.safety.quorum : !el.hasQuorum;
  if (leaders.length > 1 && noMajority) {
    const ids = leaders.map((n) => `${n.id} (${epochOf(n)})`).join(', ');
    const plural = el.leader === 'leader' ? 'leaders' : `${el.leader}s`;
    return {
      state: 'split',
      headline: `${leaders.length} ${plural} at once: split brain`,
      votesText: null,
      voters: el.votes ? votersOf(s, [], null) : [],
      majorityText,
      notes: [
        el.votes ? `quorum is off: ${ids} each act as leader` : `no quorum: ${ids} each act as ${el.leader}`,
      ],
      tone: 'bad',
    };
  }

  if (campaigner && (!leader || leader.paused)) {
    const pre = campaigner.preVoting;
    const term = pre ? campaigner.term + 1 : campaigner.term;
    const reason = noLeaderReason(s, majority, el);
    const notes = leader ? [`${leader.id} (${epochOf(leader)}) is paused and silent`] : [];
    // A campaign that cannot win (a minority side, too few nodes up) must say so.
    if (!leader && reason !== WAITING && reason !== WAITING_TAKEOVER) notes.push(reason);
    return {
      state: 'campaign',
      headline: !el.votes
        ? `${campaigner.id} campaigns to become ${el.leader}`
        : pre
          ? `${campaigner.id} asks for pre-votes for term ${term}`
          : `${campaigner.id} campaigns for term ${term}`,
      votesText: el.votes
        ? `${campaigner.votes.length} of ${size} ${pre ? 'pre-votes' : 'votes'} so far, needs ${majority}`
        : null,
      voters: el.votes ? votersOf(s, campaigner.votes, null) : [],
      majorityText,
      notes,
      tone: 'warn',
    };
  }

  if (leader) {
    const e = memory.election;
    const votes = !el.votes
      ? []
      : e && e.node === leader.id && e.term === leader.term
        ? e.votes
        : leader.votes;
    const notes = leaders
      .filter((n) => n !== leader)
      .map(
        (n) =>
          `${n.id} still believes it ${el.votes ? `leads term ${n.term}` : `is ${el.leader}, ${epochOf(n)}`}${n.paused ? ' (paused)' : ''}`,
      );
    if (leader.paused) notes.unshift(`${leader.id} is paused: frozen mid-lease`);
    if (votes.length && votes.length < majority) notes.push(`won without a majority: quorum is off`);
    return {
      state: 'leader',
      headline: el.votes
        ? `${leader.id} leads term ${leader.term}`
        : `${leader.id} is ${el.leader}, ${epochOf(leader)}`,
      votesText: votes.length
        ? `${votes.length} of ${size} votes, term ${leader.term}`
        : el.votes
          ? `term ${leader.term}`
          : null,
      voters: el.votes ? votersOf(s, votes, leader.id) : [],
      majorityText,
      notes,
      tone: notes.length ? 'warn' : 'good',
    };
  }

  const last = memory.election;
  return {
    state: 'none',
    headline: `No ${el.leader}`,
    votesText: last ? `last elected: ${last.node}, ${el.epoch} ${last.term}` : null,
    voters: el.votes ? votersOf(s, [], null) : [],
    majorityText,
    notes: [noLeaderReason(s, majority, el)],
    tone: 'bad',
  };
}

/** Renewals this late mean the lease, not the write path, is where the story is. */
function leaseIsAtStake(s: Snapshot, leader: NodeView, lease: LeaseTiming | undefined): boolean {
  return leader.paused || (lease !== undefined && s.nowMs - leader.lastRenewAtMs > 2 * lease.retryPeriodMs);
}

/** The step matching the most recent relevant activity; ties go to the later step. */
export function activeStep(
  s: Snapshot,
  memory: ChainMemory,
  leader: NodeView | null,
  lease: LeaseTiming | undefined,
): StepId {
  const electing = s.nodes.some((n) => n.alive && !n.paused && (n.role === 'candidate' || n.preVoting));
  if (!leader || (electing && leader.paused)) return 1;
  if (leaseIsAtStake(s, leader, lease)) return 2;
  const seen: [StepId, number][] = [
    [1, Math.max(memory.election?.atMs ?? -1, memory.campaign?.atMs ?? -1)],
    [2, leader.lastRenewAtMs],
  ];
  for (const m of s.messages) {
    if (m.type === 'write' && m.to === 'storage' && m.droppedAtMs === undefined) seen.push([3, m.sentAtMs]);
  }
  const w = memory.lastWrite?.atMs ?? -1;
  if (w >= 0) seen.push([3, w], [4, w + CASCADE_MS], [5, w + 2 * CASCADE_MS]);
  let best: [StepId, number] = [1, -1];
  for (const entry of seen) {
    if (entry[1] <= s.nowMs && entry[1] >= best[1]) best = entry;
  }
  return best[0];
}

export function deriveChain(
  s: Snapshot,
  memory: ChainMemory,
  lease: LeaseTiming | undefined,
  election: Election = raftElection(),
): ChainModel {
  const leader = pickLeader(s);
  return {
    active: activeStep(s, memory, leader, lease),
    quorum: deriveQuorum(s, memory, leader, election),
    ...deriveWrites(s, memory, leader, election),
  };
}
