// The run's state, folded from its events as they come: who believes it leads (leader_count
// counts every candidate that believes so, a stopped one included, as the engine does), the
// storage's counters, failovers (measured like the engine's: from the moment the leader was lost
// to a new leader's election and readiness), and the samples, summary and final state of the
// trace. Pure: the run feeds it events and asks it for numbers.
import { allowedBy } from '../engine/invariants';
import type { Failover, Sample, Summary, Trace, Violation } from '../engine';
import type { KeepAliveReport, MemberRole, RealEvent, RealFaultEvent } from './events';

const MAX_FAILOVERS = 1000;
const MAX_VIOLATIONS = 1000;

export interface HostState {
  id: string;
  role: 'follower' | 'candidate' | 'leader';
  /** Token of its current campaign or leadership (its key's create revision). */
  token: number;
  ready: boolean;
  candidateAlive: boolean;
  candidatePaused: boolean;
  memberAlive: boolean;
  memberPaused: boolean;
  memberRole: MemberRole | 'down';
  memberTerm: number;
  /** The raft leader this host's member knows. */
  memberLeader: string | null;
  lastRenewAtMs: number;
  renewRttMs: number;
}

export class RunFold {
  readonly hosts: HostState[];
  highestTokenIssued = 0;
  maxTokenSeen = 0;
  accepted = 0;
  rejected = 0;
  staleWritesAccepted = 0;
  leaderTransitions = 0;
  maxLeaderCount = 0;
  readonly failovers: Failover[] = [];
  readonly violations: Violation[] = [];
  private elections = 0;
  private pendingLoss: { atMs: number; from: string; cause: string } | null = null;
  private msWithoutLeader = 0;
  private leaderlessSinceMs = 0;

  constructor(
    hostIds: string[],
    private readonly safety: { quorum: boolean; fencing: boolean },
    private readonly keepAliveEveryMs: number,
  ) {
    this.hosts = hostIds.map((id) => ({
      id,
      role: 'follower',
      token: 0,
      ready: false,
      candidateAlive: false,
      candidatePaused: false,
      memberAlive: false,
      memberPaused: false,
      memberRole: 'down',
      memberTerm: 0,
      memberLeader: null,
      lastRenewAtMs: -1,
      renewRttMs: 0,
    }));
  }

  host(id: string): HostState | undefined {
    return this.hosts.find((h) => h.id === id);
  }

  /** The candidate that believes it leads with the newest token, stopped or not. */
  topLeader(): HostState | null {
    let top: HostState | null = null;
    for (const h of this.hosts) {
      if (h.candidateAlive && h.role === 'leader' && (!top || h.token > top.token)) top = h;
    }
    return top;
  }

  leaderCount(): number {
    return this.hosts.filter((h) => h.candidateAlive && h.role === 'leader').length;
  }

  /** What a scrape of each candidate's is-leader gauge sees: a stopped candidate fails it. */
  leaderCountObserved(): number {
    return this.hosts.filter((h) => h.candidateAlive && !h.candidatePaused && h.role === 'leader').length;
  }

  setFencing(on: boolean): void {
    this.safety.fencing = on;
  }

  apply(e: RealEvent): void {
    const before = this.leaderCount();
    this.fold(e);
    this.leaderCountChanged(before, e.atMs);
  }

  keepAlive(k: KeepAliveReport): void {
    const h = this.host(k.node);
    if (!h) return;
    h.lastRenewAtMs = k.atMs;
    h.renewRttMs = k.rttMs;
  }

  private fold(e: RealEvent): void {
    switch (e.type) {
      case 'fault':
        return this.onFault(e);
      case 'campaign': {
        const h = this.host(e.node);
        if (h) Object.assign(h, { role: 'candidate', token: e.term, ready: false });
        return;
      }
      case 'elected': {
        const h = this.host(e.node);
        if (!h) return;
        Object.assign(h, { role: 'leader', token: e.term, ready: false, lastRenewAtMs: e.atMs });
        if (e.term > this.highestTokenIssued) this.highestTokenIssued = e.term;
        if (this.elections > 0) {
          this.leaderTransitions++;
          this.closeFailover(e.atMs, e.node, e.term);
        }
        this.elections++;
        this.pendingLoss = null;
        return;
      }
      case 'ready': {
        const h = this.host(e.node);
        if (h) h.ready = true;
        const f = this.failovers[this.failovers.length - 1];
        if (f && f.node === e.node && f.term === e.term && f.readyAtMs < 0) f.readyAtMs = e.atMs;
        return;
      }
      case 'steppedDown': {
        const h = this.host(e.node);
        if (!h) return;
        this.markLoss(h, e.atMs, e.reason);
        Object.assign(h, { role: 'follower', ready: false });
        return;
      }
      case 'session': {
        // A leader whose lease survived (a short pause, a healed cut): nothing was lost.
        if (e.state === 'renewed' && this.pendingLoss?.from === e.node) this.pendingLoss = null;
        return;
      }
      case 'write':
        this.maxTokenSeen = Math.max(this.maxTokenSeen, e.maxTokenSeen);
        if (e.result === 'accepted') this.accepted++;
        else this.rejected++;
        if (e.stale) this.staleWritesAccepted++;
        return;
      case 'violation':
        if (this.violations.length < MAX_VIOLATIONS) {
          this.violations.push({ ...e, allowedBy: allowedBy(e.invariant, this.safety) });
        }
        return;
      case 'member': {
        const h = this.host(hostOfMember(e.member));
        if (h) Object.assign(h, { memberRole: e.role, memberTerm: e.term });
        return;
      }
      case 'memberLeader': {
        const h = this.host(hostOfMember(e.member));
        if (h) h.memberLeader = e.leader === null ? null : hostOfMember(e.leader);
        return;
      }
      case 'process':
        return this.onProcess(e);
    }
  }

  private onProcess(e: Extract<RealEvent, { type: 'process' }>): void {
    const h = this.host(e.node);
    if (!h) return;
    const alive = e.state !== 'exited';
    if (e.part === 'candidate') {
      h.candidateAlive = alive;
      h.candidatePaused = e.state === 'stopped';
      if (!alive) Object.assign(h, { role: 'follower', ready: false });
    } else {
      h.memberAlive = alive;
      h.memberPaused = e.state === 'stopped';
      if (!alive) Object.assign(h, { memberRole: 'down', memberLeader: null });
    }
  }

  private onFault(e: RealFaultEvent): void {
    const f = e.fault;
    const top = this.topLeader();
    if (!top || e.skipped) return;
    if (f.do === 'partition') {
      const side = f.groups.find((g) => g.includes(top.id));
      const majority = Math.floor(this.hosts.length / 2) + 1;
      const sideSize = side ? side.filter((x) => x !== 'storage').length : this.restSize(f.groups);
      if (sideSize < majority) this.markLoss(top, e.atMs, 'partitioned');
      return;
    }
    if (e.target !== top.id) return;
    const part = 'part' in f ? f.part : undefined;
    if (f.do === 'kill')
      this.markLoss(top, e.atMs, part === 'member' ? 'its etcd member was killed' : 'killed');
    if (f.do === 'pause')
      this.markLoss(top, e.atMs, part === 'member' ? 'its etcd member was paused' : 'paused');
    if (f.do === 'isolate') this.markLoss(top, e.atMs, 'partitioned');
  }

  private restSize(groups: string[][]): number {
    const named = new Set(groups.flat());
    return this.hosts.filter((h) => !named.has(h.id)).length;
  }

  private markLoss(h: HostState, atMs: number, cause: string): void {
    if (this.pendingLoss || h.role !== 'leader' || this.topLeader() !== h) return;
    this.pendingLoss = { atMs, from: h.id, cause };
  }

  private closeFailover(atMs: number, node: string, term: number): void {
    const loss = this.pendingLoss;
    if (this.failovers.length >= MAX_FAILOVERS) this.failovers.shift();
    this.failovers.push({
      lostAtMs: loss ? loss.atMs : atMs,
      // etcd's recipe has no separate detection: the waiting candidate learns of the loss from
      // the watch on its predecessor's key, and leads as soon as no older key is left.
      detectedAtMs: atMs,
      electedAtMs: atMs,
      readyAtMs: -1,
      node,
      term,
      from: loss ? loss.from : null,
      cause: loss ? loss.cause : 'a candidate won while the old leader still believed it led',
    });
  }

  private leaderCountChanged(before: number, atMs: number): void {
    const after = this.leaderCount();
    if (after > this.maxLeaderCount) this.maxLeaderCount = after;
    if (before === 0 && after > 0) this.msWithoutLeader += atMs - this.leaderlessSinceMs;
    if (before > 0 && after === 0) this.leaderlessSinceMs = atMs;
  }

  msWithoutLeaderAt(atMs: number): number {
    return this.msWithoutLeader + (this.leaderCount() === 0 ? Math.max(0, atMs - this.leaderlessSinceMs) : 0);
  }

  sample(atMs: number): Sample {
    const top = this.topLeader();
    let renewalLatencyMs = 0;
    if (top && top.lastRenewAtMs >= 0) {
      const overdue = atMs - top.lastRenewAtMs - this.keepAliveEveryMs;
      renewalLatencyMs = Math.max(top.renewRttMs, overdue);
    }
    return {
      atMs,
      leaderCount: this.leaderCount(),
      leaderCountObserved: this.leaderCountObserved(),
      maxTerm: this.highestTokenIssued,
      maxTokenSeen: this.maxTokenSeen,
      fencingRejections: this.rejected,
      staleWritesAccepted: this.staleWritesAccepted,
      divergentWrites: 0,
      leaderTransitions: this.leaderTransitions,
      renewalLatencyMs,
      msWithoutLeader: this.msWithoutLeaderAt(atMs),
      clientRedirects: 0,
    };
  }

  summary(atMs: number, eventsDropped: number): Summary {
    return {
      leaderTransitions: this.leaderTransitions,
      fencingRejections: this.rejected,
      staleWritesAccepted: this.staleWritesAccepted,
      divergentWrites: 0,
      clientRedirects: 0,
      maxLeaderCount: this.maxLeaderCount,
      msWithoutLeader: this.msWithoutLeaderAt(atMs),
      failovers: this.failovers.map((f) => ({ ...f })),
      violations: this.violations.map((v) => ({ ...v })),
      eventsDropped,
      elections: this.elections,
      // A real run's messages are etcd's own and are not counted here.
      electionMessages: 0,
      watchNotifications: 0,
      watchReads: 0,
    };
  }

  final(): Trace['final'] {
    return {
      nodes: this.hosts.map((h) => ({
        id: h.id,
        role: h.role,
        term: h.token,
        votedFor: null,
        alive: h.candidateAlive,
        paused: h.candidatePaused,
        clockRate: 1,
      })),
      storage: { maxTokenSeen: this.maxTokenSeen, accepted: this.accepted, rejected: this.rejected },
    };
  }
}

/** Member mK runs on host nK. */
export function hostOfMember(member: string): string {
  return `n${member.slice(1)}`;
}
