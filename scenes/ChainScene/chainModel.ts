// The chain's content as plain data, derived from a snapshot and the folded event memory. Pure,
// so every sentence the scene shows can be unit-tested without rendering anything, and cheap
// to compare: the view re-renders only when this model changes, not on every frame.
import type { NodeId, NodeView, Snapshot } from '../../src/engine';
import { formatSeconds } from '../../src/store/format';
import type { ChainMemory } from './chainMemory';
import { deriveWrites, type TokenView, type CompareView, type OutcomeView } from './writesModel';

export type StepId = 1 | 2 | 3 | 4 | 5;
export type Tone = 'good' | 'warn' | 'bad' | 'neutral';

export interface LeaseTiming {
  durationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
}

/**
 * Simulated time between a write's token reaching storage (step 3), its comparison (4) and its
 * result (5). All three happen at one engine instant; spacing them makes the flow readable at 1x.
 */
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

export interface ChainModel {
  active: StepId;
  quorum: QuorumView;
  leaderId: NodeId | null;
  token: TokenView;
  compare: CompareView;
  outcome: OutcomeView;
}

export function majorityOf(size: number): number {
  return Math.floor(size / 2) + 1;
}

/** The leader the chain follows: the highest-term live leader (a paused zombie loses ties). */
export function pickLeader(s: Snapshot): NodeView | null {
  let best: NodeView | null = null;
  for (const n of s.nodes) {
    if (!n.alive || n.role !== 'leader') continue;
    if (!best || n.term > best.term || (n.term === best.term && best.paused && !n.paused)) best = n;
  }
  return best;
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

/** Why nobody leads: too few nodes up, a partition without a majority side, or a pending timeout. */
function noLeaderReason(s: Snapshot, majority: number): string {
  const up = s.nodes.filter((n) => n.alive && !n.paused);
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

export function deriveQuorum(s: Snapshot, memory: ChainMemory, leader: NodeView | null): QuorumView {
  const size = s.nodes.length;
  const majority = majorityOf(size);
  const majorityText = `majority: ${majority} of ${size}`;
  const leaders = s.nodes.filter((n) => n.alive && n.role === 'leader');
  const campaigner = pickCampaigner(s, memory);

  if (leaders.length > 1 && !s.safety.quorum) {
    const ids = leaders.map((n) => `${n.id} (term ${n.term})`).join(', ');
    return {
      state: 'split',
      headline: `${leaders.length} leaders at once: split brain`,
      votesText: null,
      voters: votersOf(s, [], null),
      majorityText,
      // Raft's teaching switch, or an algorithm with no quorum to switch (Bully, Redis's servers).
      notes: [
        `${s.safety.quorum === false ? 'quorum is off' : 'no quorum among the nodes'}: ${ids} each act as leader`,
      ],
      tone: 'bad',
    };
  }

  if (campaigner && (!leader || leader.paused)) {
    const pre = campaigner.preVoting;
    const term = pre ? campaigner.term + 1 : campaigner.term;
    const reason = noLeaderReason(s, majority);
    const notes = leader ? [`${leader.id} (term ${leader.term}) is paused and silent`] : [];
    // A campaign that cannot win (a minority side, too few nodes up) must say so.
    if (!leader && reason !== WAITING) notes.push(reason);
    return {
      state: 'campaign',
      headline: pre
        ? `${campaigner.id} asks for pre-votes for term ${term}`
        : `${campaigner.id} campaigns for term ${term}`,
      votesText: `${campaigner.votes.length} of ${size} ${pre ? 'pre-votes' : 'votes'} so far, needs ${majority}`,
      voters: votersOf(s, campaigner.votes, null),
      majorityText,
      notes,
      tone: 'warn',
    };
  }

  if (leader) {
    const e = memory.election;
    const votes = e && e.node === leader.id && e.term === leader.term ? e.votes : leader.votes;
    const notes = leaders
      .filter((n) => n !== leader)
      .map((n) => `${n.id} still believes it leads term ${n.term}${n.paused ? ' (paused)' : ''}`);
    if (leader.paused) notes.unshift(`${leader.id} is paused: frozen mid-lease`);
    if (votes.length && votes.length < majority) notes.push(`won without a majority: quorum is off`);
    return {
      state: 'leader',
      headline: `${leader.id} leads term ${leader.term}`,
      votesText: votes.length
        ? `${votes.length} of ${size} votes, term ${leader.term}`
        : `term ${leader.term}`,
      voters: votersOf(s, votes, leader.id),
      majorityText,
      notes,
      tone: notes.length ? 'warn' : 'good',
    };
  }

  const last = memory.election;
  return {
    state: 'none',
    headline: 'No leader',
    votesText: last ? `last elected: ${last.node}, term ${last.term}` : null,
    voters: votersOf(s, [], null),
    majorityText,
    notes: [noLeaderReason(s, majority)],
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

export function deriveChain(s: Snapshot, memory: ChainMemory, lease: LeaseTiming | undefined): ChainModel {
  const leader = pickLeader(s);
  return {
    active: activeStep(s, memory, leader, lease),
    quorum: deriveQuorum(s, memory, leader),
    leaderId: leader ? leader.id : null,
    ...deriveWrites(s, memory, leader),
  };
}

/** "10 s" for whole seconds, "7.5 s" otherwise: lease settings read as people type them. */
export function formatSpan(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : formatSeconds(ms);
}
