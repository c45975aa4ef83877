// The run's state, folded from its events, and the one translation of a real run's events into the engine's:
// each becomes the engine events it amounts to, observed by the engine's monitor (engine/monitor.ts), so
// leader_count, failovers, storage counters and the invariants come from the same fold and checkers as a
// simulated run's, and the page shows the same events (liveRecording.ts). What only a real cluster has stays
// here: each host's etcd member (role, term, leader), its processes and the leader's renewal latency. Pure.
import { createMonitor, monitorCounts, observe, type MonitorState } from '../../engine/monitor';
import { majorityOf } from '../../engine/algorithms/kit';
import { leaderAmong } from '../../engine/leadership';
import { sampleOf, summaryOf } from '../../engine/readModel';
import type { Failover, Fault, Sample, SimEvent, StepDownReason, Summary, Trace } from '../../engine';
import type { Part, RealFault } from './commands';
import type { KeepAliveReport, MemberRole, RealEvent, RealFaultEvent } from './events';
import { TWIN_ALGORITHM } from './twin';

export interface HostState {
  id: string;
  role: 'follower' | 'candidate' | 'leader';
  /** Token of its current campaign or leadership (its key's create revision). */
  token: number;
  ready: boolean;
  candidateAlive: boolean;
  candidatePaused: boolean;
  /** When its candidate was stopped (SIGSTOP), while it is; else -1. */
  pausedAtMs: number;
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
  /** The engine's monitor, fed the engine events each real event amounts to. */
  readonly monitor: MonitorState;
  /** Writes the storage accepted (the monitor counts only the rejected ones). */
  accepted = 0;

  constructor(
    hostIds: string[],
    safety: { quorum: boolean; fencing: boolean },
    private readonly keepAliveEveryMs: number,
  ) {
    this.monitor = createMonitor({
      algorithm: TWIN_ALGORITHM,
      safety: { quorum: safety.quorum, fencing: safety.fencing, followersReject: true },
    });
    this.hosts = hostIds.map((id) => ({
      id,
      role: 'follower',
      token: 0,
      ready: false,
      candidateAlive: false,
      candidatePaused: false,
      pausedAtMs: -1,
      memberAlive: false,
      memberPaused: false,
      memberRole: 'down',
      memberTerm: 0,
      memberLeader: null,
      lastRenewAtMs: -1,
      renewRttMs: 0,
    }));
  }

  get highestTokenIssued(): number {
    return this.monitor.books.highestTokenIssued;
  }
  get failovers(): readonly Failover[] {
    return this.monitor.books.failovers;
  }

  /** The storage's counters, as the run's state, its trace and the page's snapshot give them. */
  storage() {
    const rejected = this.monitor.books.counters.fencingRejections;
    return { maxTokenSeen: this.monitor.maxTokenSeen, accepted: this.accepted, rejected };
  }

  host(id: string): HostState | undefined {
    return this.hosts.find((h) => h.id === id);
  }

  /** The candidate that believes it leads with the newest token, stopped or not (the kernel's rule). */
  topLeader(): HostState | null {
    const running = this.hosts.map((h) => ({ alive: h.candidateAlive, role: h.role, term: h.token, h }));
    return leaderAmong(running)?.h ?? null;
  }

  /** leader_count: every candidate that believes it leads, a stopped one included (the monitor's). */
  leaderCount(): number {
    return this.monitor.books.leaderCount;
  }

  /** What a scrape of each candidate's is-leader gauge sees: a stopped candidate fails it. */
  leaderCountObserved(): number {
    return monitorCounts(this.monitor, this.monitor.lastEventAtMs).leaderCountObserved;
  }

  /** Fold one event; returns the engine events it amounts to, in order, as the monitor observed them. */
  apply(e: RealEvent): SimEvent[] {
    const fed: SimEvent[] = [];
    this.fold(e, (ev) => {
      observe(this.monitor, ev);
      fed.push(ev);
    });
    return fed;
  }

  keepAlive(k: KeepAliveReport): void {
    const h = this.host(k.node);
    if (!h) return;
    h.lastRenewAtMs = k.atMs;
    h.renewRttMs = k.rttMs;
  }

  private fold(e: RealEvent, feed: (ev: SimEvent) => void): void {
    // The host the event is about: its candidate's, or its member's (mK's host is nK).
    const h = this.host('node' in e ? e.node : 'member' in e ? hostOfMember(e.member) : '');
    switch (e.type) {
      case 'fault':
        return this.onFault(e, feed);
      case 'campaign':
        if (h) Object.assign(h, { role: 'candidate', token: e.term, ready: false });
        return feed(e);
      case 'elected':
        if (h) Object.assign(h, { role: 'leader', token: e.term, ready: false, lastRenewAtMs: e.atMs });
        return feed(e);
      case 'ready':
        if (h) h.ready = true;
        return feed(e);
      case 'steppedDown':
        if (!h || h.role !== 'leader') return;
        this.markLoss(h, e.atMs, e.reason, feed);
        Object.assign(h, { role: 'follower', ready: false });
        return feed({ ...e, reason: stepDownReason(e.reason) });
      case 'session':
        // A leader whose lease survived (a short pause, a healed cut): nothing was lost.
        if (h && e.state === 'renewed' && this.monitor.books.pendingLoss?.from === e.node)
          feed({ atMs: e.atMs, type: 'survived', node: e.node, term: h.token });
        return;
      case 'write':
        if (e.result === 'accepted') this.accepted++;
        return feed(e);
      case 'violation':
        // Shown as reported. The monitor counts none, so none twice: it runs writeFindings on the write.
        return feed(e);
      case 'member':
        if (h) Object.assign(h, { memberRole: e.role, memberTerm: e.term });
        return;
      case 'memberLeader':
        if (h) h.memberLeader = e.leader === null ? null : hostOfMember(e.leader);
        return;
      case 'process':
        return this.onProcess(e, feed);
    }
  }

  /**
   * A candidate's process. Its stop comes with the command that stopped it (its fault event, the engine's
   * pause: the observed leader_count leaves a stopped leader out); its continue is the engine's resumed; an
   * exit while it believes it leads is the engine's kill: the leader lost, then stepped down. A stopped
   * candidate that exits with no kill command (the run's end) is killed, to the engine: paused no longer.
   */
  private onProcess(e: Extract<RealEvent, { type: 'process' }>, feed: (ev: SimEvent) => void): void {
    const h = this.host(e.node);
    if (!h) return;
    const alive = e.state !== 'exited';
    if (e.part === 'member') {
      h.memberAlive = alive;
      h.memberPaused = e.state === 'stopped';
      if (!alive) Object.assign(h, { memberRole: 'down', memberLeader: null });
      return;
    }
    const wasPaused = h.candidatePaused;
    if (!alive && h.role === 'leader') {
      this.markLoss(h, e.atMs, e.signal ? 'killed' : 'its process exited', feed);
      feed({ atMs: e.atMs, type: 'steppedDown', node: h.id, term: h.token, reason: 'killed' });
    }
    h.candidateAlive = alive;
    h.candidatePaused = e.state === 'stopped';
    if (!alive) Object.assign(h, { role: 'follower', ready: false });
    if (e.state === 'stopped' && !wasPaused) h.pausedAtMs = e.atMs;
    else if (e.state === 'continued' && wasPaused) {
      feed({ atMs: e.atMs, type: 'resumed', node: h.id, pausedMs: Math.max(0, e.atMs - h.pausedAtMs) });
    } else if (!alive && this.monitor.paused.has(h.id)) {
      feed({ atMs: e.atMs, type: 'fault', fault: { atMs: e.atMs, do: 'kill', node: h.id }, target: h.id });
    }
    if (!h.candidatePaused) h.pausedAtMs = -1;
  }

  /**
   * A command: the engine's fault it is (a member's part hits service mK, a candidate's or host's node nK),
   * then the loss of the leader it causes. The monitor takes the fencing switch and pause from it.
   */
  private onFault(e: RealFaultEvent, feed: (ev: SimEvent) => void): void {
    const f = e.fault;
    const fault = faultOf(f, e.target);
    const target = e.target && 'node' in fault ? fault.node : undefined;
    feed({
      atMs: e.atMs,
      type: 'fault',
      fault,
      ...(target ? { target } : {}),
      ...(e.skipped ? { skipped: true } : {}),
      live: true,
    });
    if (e.skipped || f.do === 'safety') return;
    const top = this.topLeader();
    if (!top) return;
    if (f.do === 'partition') {
      const side = f.groups.find((g) => g.includes(top.id));
      const majority = majorityOf(this.hosts.length);
      const sideSize = side ? side.filter((x) => x !== 'storage').length : this.restSize(f.groups);
      if (sideSize < majority) this.markLoss(top, e.atMs, 'partitioned', feed);
      return;
    }
    if (e.target !== top.id) return;
    const part = 'part' in f ? f.part : undefined;
    if (f.do === 'kill')
      this.markLoss(top, e.atMs, part === 'member' ? 'its etcd member was killed' : 'killed', feed);
    if (f.do === 'pause')
      this.markLoss(top, e.atMs, part === 'member' ? 'its etcd member was paused' : 'paused', feed);
    if (f.do === 'isolate') this.markLoss(top, e.atMs, 'partitioned', feed);
  }

  private restSize(groups: string[][]): number {
    const named = new Set(groups.flat());
    return this.hosts.filter((h) => !named.has(h.id)).length;
  }

  /** The leader of the moment was lost: the monitor's failover begins here (the engine's markLoss). */
  private markLoss(h: HostState, atMs: number, cause: string, feed: (ev: SimEvent) => void): void {
    if (this.monitor.books.pendingLoss || h.role !== 'leader' || this.topLeader() !== h) return;
    feed({ atMs, type: 'lost', node: h.id, term: h.token, cause });
  }

  sample(atMs: number): Sample {
    const top = this.topLeader();
    let renewalLatencyMs = 0;
    if (top && top.lastRenewAtMs >= 0) {
      const overdue = atMs - top.lastRenewAtMs - this.keepAliveEveryMs;
      renewalLatencyMs = Math.max(top.renewRttMs, overdue);
    }
    return sampleOf(this.monitor.books, atMs, {
      leaderCountObserved: this.leaderCountObserved(),
      maxTerm: this.highestTokenIssued,
      maxTokenSeen: this.monitor.maxTokenSeen,
      renewalLatencyMs,
    });
  }

  /** A real run's messages are etcd's own: neither they nor its watches are counted here. */
  summary(atMs: number, eventsDropped: number): Summary {
    return summaryOf(this.monitor.books, atMs, {
      eventsDropped,
      watch: { notifications: 0, reads: 0 },
      electionMessages: 0,
    });
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
      storage: this.storage(),
    };
  }
}

/** A real step-down reason in the engine's words: a resignation is its graceful stop. */
function stepDownReason(reason: string): StepDownReason {
  return reason === 'resigned' ? 'stopped' : (reason as StepDownReason);
}

/** A real command as the engine's fault: a member's part hits service mK, a candidate's or host's node nK. */
export function faultOf(f: RealFault, target: string | undefined): Fault {
  const atMs = f.atMs;
  const id = (part: Part | undefined) => {
    const host = target ?? ('node' in f ? f.node : '');
    return part === 'member' ? `m${host.slice(1)}` : host;
  };
  switch (f.do) {
    case 'kill':
    case 'restart':
    case 'resume':
      return { atMs, do: f.do, node: id(f.part) };
    case 'pause':
      return { atMs, do: 'pause', node: id(f.part), ...(f.forMs ? { forMs: f.forMs } : {}) };
    case 'isolate':
      return { atMs, do: 'isolate', node: id(f.part === 'host' ? 'member' : 'candidate') };
    case 'partition':
      return { atMs, do: 'partition', groups: f.groups };
    case 'heal':
      return { atMs, do: 'heal' };
    case 'safety':
      return { atMs, do: 'safety', fencing: f.fencing };
  }
}

/** The command a simulator replays for a real fault event: none when it did nothing (skipped). */
export function replayedFault(e: Pick<RealFaultEvent, 'fault' | 'target' | 'skipped'>): Fault | null {
  return e.skipped ? null : faultOf(e.fault, e.target);
}

/** Member mK runs on host nK. */
export function hostOfMember(member: string): string {
  return `n${member.slice(1)}`;
}
