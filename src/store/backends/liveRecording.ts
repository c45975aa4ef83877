// A real run as the page records it: every event the bridge sent, and the state at the moment shown, folded
// by the run's fold, so the page counts leader_count and failovers as the run does and shows the engine
// events it counted. Pure: receive() takes the stream, showAt() folds up to a moment, and scrubbing back
// folds again from the start (minutes are thousands of events: no checkpoints). Samples every sampleEveryMs.
import {
  boundList,
  MAX_RECENT_WRITES,
  snapshotOf,
  type Command,
  type Experiment,
  type NodeView,
  type Sample,
  type SimEvent,
  type Snapshot,
  type StorageWrite,
  type Trace,
} from '../../engine';
import { replayedFault, RunFold } from '../../real/model/fold';
import type { KeepAliveReport, RealEvent } from '../../real/model/events';
import { NetworkPlan } from '../../real/model/network';
import { keepAliveEveryMs, type RunSettings } from '../../real/model/settings';
import type { RecordedCommand } from '../backend';
import { MAX_COMMANDS } from '../labEngine';
import { twinExperiment } from '../../real/model/twin';

/** Kept in full before the oldest half is folded into the start of the recording. */
export const MAX_RECORDED = 100_000;
/** An event this much older than the moment shown arrived late (a backlog), not in the stream's stride. */
const LATE_MS = 1000;

interface View {
  nowMs: number;
  fold: RunFold;
  plan: NetworkPlan;
  fencing: boolean;
  recent: StorageWrite[];
  events: Series<SimEvent>;
  samples: Series<Sample>;
  nextSampleAtMs: number;
  commands: RecordedCommand[];
}

/** A copy of an instance of a class of plain data (the fold, the network plan). */
function cloneInstance<T extends object>(x: T): T {
  return Object.assign(Object.create(Object.getPrototypeOf(x)) as T, structuredClone({ ...x }));
}

/** A list bounded as the engine bounds its outputs (the older half goes), and how many were ever pushed. */
interface Series<T> {
  list: T[];
  total: number;
}

function push<T>(s: Series<T>, item: T, max: number): void {
  s.list.push(item);
  s.total++;
  boundList(s.list, s.total - s.list.length, max);
}

function cloneView(v: View): View {
  return {
    ...v,
    fold: cloneInstance(v.fold),
    plan: cloneInstance(v.plan),
    recent: [...v.recent],
    events: { ...v.events, list: [...v.events.list] },
    samples: { ...v.samples, list: [...v.samples.list] },
    commands: [...v.commands],
  };
}

export class LiveRecording {
  readonly experiment: Experiment;
  private readonly ids: string[];
  private raw: RealEvent[] = [];
  private keepAlives: KeepAliveReport[] = [];
  /** The state before raw[0]: the start of the run, or where older events were folded in. */
  private base: View;
  private view: View;
  private rawAt = 0;
  private keepAliveAt = 0;
  private late = false;

  constructor(private readonly settings: RunSettings) {
    // The simulator's words, settings and comparison for this run: its twin.
    this.experiment = twinExperiment(settings);
    this.ids = Array.from({ length: settings.nodes }, (_, i) => `n${i + 1}`);
    this.base = this.freshView();
    this.view = cloneView(this.base);
  }

  private freshView(): View {
    return {
      nowMs: 0,
      fold: new RunFold(
        this.ids,
        { quorum: true, fencing: this.settings.fencing },
        keepAliveEveryMs(this.settings),
      ),
      plan: new NetworkPlan(this.ids),
      fencing: this.settings.fencing,
      recent: [],
      events: { list: [], total: 0 },
      samples: { list: [], total: 0 },
      nextSampleAtMs: this.settings.sampleEveryMs,
      commands: [],
    };
  }

  /** An event of the run, in the order the run emitted them. */
  receive(e: RealEvent): void {
    // On (re)connect the recording arrives in one burst, behind the moment shown: that moment folds again.
    if (e.atMs < this.view.nowMs - LATE_MS) this.late = true;
    this.raw.push(e);
    if (this.raw.length > MAX_RECORDED) this.forgetOldest();
  }

  receiveKeepAlive(k: KeepAliveReport): void {
    this.keepAlives.push(k);
    if (this.keepAlives.length > MAX_RECORDED) {
      // Only the leader's renewal latency in the oldest samples depends on these.
      const drop = MAX_RECORDED / 2;
      this.keepAlives.splice(0, drop);
      this.keepAliveAt = Math.max(0, this.keepAliveAt - drop);
    }
  }

  /** Fold the oldest half into the recording's start (no longer reachable by scrubbing), as far as shown. */
  private forgetOldest(): void {
    const drop = Math.min(this.rawAt, MAX_RECORDED / 2);
    if (drop === 0) return;
    const shownMs = this.view.nowMs;
    this.restart();
    this.foldUntil(this.raw[drop - 1].atMs, drop);
    this.base = cloneView(this.view);
    this.raw = this.raw.slice(drop);
    this.keepAlives.splice(0, this.keepAliveAt);
    this.restart();
    this.foldUntil(shownMs, this.raw.length);
  }

  private restart(): void {
    this.view = cloneView(this.base);
    this.rawAt = 0;
    this.keepAliveAt = 0;
  }

  /** The earliest moment scrubbing can reach. */
  get earliestMs(): number {
    return this.base.nowMs;
  }

  /** The latest time stamped on anything received. */
  get latestMs(): number {
    return this.raw.length ? this.raw[this.raw.length - 1].atMs : this.base.nowMs;
  }

  get nowMs(): number {
    return this.view.nowMs;
  }

  /** Show the run at targetMs: forward folds what is due, back folds again from the start. */
  showAt(targetMs: number): void {
    const t = Math.max(this.base.nowMs, Math.round(targetMs));
    if (t < this.view.nowMs || this.late) {
      this.late = false;
      this.restart();
    }
    this.foldUntil(t, this.raw.length);
  }

  /** The time of the next recorded event after the moment shown, or -1. */
  nextEventAtMs(): number {
    return this.rawAt < this.raw.length ? this.raw[this.rawAt].atMs : -1;
  }

  private foldUntil(t: number, rawLimit: number): void {
    const v = this.view;
    for (;;) {
      const stop = Math.min(t, v.nextSampleAtMs);
      this.applyUntil(stop, rawLimit);
      if (v.nextSampleAtMs > t) break;
      push(v.samples, v.fold.sample(v.nextSampleAtMs), this.settings.maxSamples);
      v.nextSampleAtMs += this.settings.sampleEveryMs;
    }
    if (t > v.nowMs) v.nowMs = t;
  }

  /** Events as emitted, up to their time (processes stamp their own: an event a few ms early folds too). */
  private applyUntil(t: number, rawLimit: number): void {
    for (;;) {
      const e = this.rawAt < rawLimit ? this.raw[this.rawAt] : undefined;
      const k = this.keepAlives[this.keepAliveAt];
      const eDue = e !== undefined && e.atMs <= t;
      const kDue = k !== undefined && k.atMs <= t;
      if (kDue && (!eDue || k.atMs < e.atMs)) {
        this.view.fold.keepAlive(k);
        this.keepAliveAt++;
      } else if (eDue) {
        this.apply(e);
        this.rawAt++;
      } else return;
    }
  }

  private apply(e: RealEvent): void {
    const v = this.view;
    const shown = v.fold.apply(e);
    if (e.type === 'write') {
      v.recent.push({ ...e });
      if (v.recent.length > MAX_RECENT_WRITES) v.recent.shift();
    }
    if (e.type === 'fault' && !e.skipped) this.applyFault(e);
    for (const ev of shown) push(v.events, ev, this.settings.maxEvents);
  }

  private applyFault(e: Extract<RealEvent, { type: 'fault' }>): void {
    const v = this.view;
    const f = e.fault;
    if (f.do === 'partition') v.plan.setPartition(f.groups);
    if (f.do === 'heal') v.plan.heal();
    if (f.do === 'isolate' && e.target) {
      if (f.part === 'candidate') v.plan.cutCandidate(e.target);
      else v.plan.isolate(e.target);
    }
    if (f.do === 'safety') v.fencing = f.fencing;
    const replayed = replayedFault(e);
    if (replayed && v.commands.length < MAX_COMMANDS) {
      const { atMs, ...command } = replayed;
      v.commands.push({ atMs, command: command as Command });
    }
  }

  get events(): readonly SimEvent[] {
    return this.view.events.list;
  }
  get eventsTotal(): number {
    return this.view.events.total;
  }
  eventsSince(from: number): SimEvent[] {
    const { list, total } = this.view.events;
    return list.slice(Math.max(0, from - (total - list.length)));
  }
  get samples(): readonly Sample[] {
    return this.view.samples.list;
  }
  get samplesTotal(): number {
    return this.view.samples.total;
  }
  get commands(): readonly RecordedCommand[] {
    return this.view.commands;
  }

  /** What the page's hosts panel shows beyond the snapshot: each host's etcd member. */
  hosts() {
    return this.view.fold.hosts.map((h) => ({ ...h }));
  }

  /** The groups as the stage draws them: a host's member beside its candidate, a cut candidate alone. */
  private partition(): string[][] | null {
    const { cutCandidates: cut, partition: groups } = this.view.plan;
    if (!groups && cut.length === 0) return null;
    const drawn = (groups ?? [[...this.ids]]).map((g) =>
      g.flatMap((id) => (id === 'storage' ? [id] : [...(cut.includes(id) ? [] : [id]), `m${id.slice(1)}`])),
    );
    return [...cut.map((id) => [id]), ...drawn];
  }

  snapshot(): Snapshot {
    const v = this.view;
    const f = v.fold;
    const top = f.topLeader();
    const nodes: NodeView[] = f.hosts.map((h) => {
      const leading = h.candidateAlive && h.role === 'leader';
      return {
        id: h.id,
        witness: false,
        role: h.candidateAlive ? h.role : 'follower',
        term: h.token,
        votedFor: null,
        alive: h.candidateAlive,
        paused: h.candidatePaused,
        pausedAtMs: h.candidatePaused ? h.pausedAtMs : -1,
        clockRate: 1,
        localNowMs: v.nowMs,
        knownLeader: top?.id ?? null,
        ready: h.ready,
        // A leader's session lives a TTL past its last answered keep-alive.
        deadlineAtMs: leading && h.lastRenewAtMs >= 0 ? h.lastRenewAtMs + this.settings.ttlMs : -1,
        lastRenewAtMs: leading ? h.lastRenewAtMs : -1,
        votes: [],
        preVoting: false,
      };
    });
    return snapshotOf(f.monitor.books, {
      nowMs: v.nowMs,
      seed: this.experiment.seed,
      nodes,
      // etcd's own traffic is not observed: no message dots are drawn rather than made up.
      messages: [],
      storage: { ...f.storage(), recent: [...v.recent] },
      partition: this.partition(),
      safety: { ...this.experiment.safety, fencing: v.fencing },
      clients: { count: 0, byTarget: {}, unresolved: 0 },
      leaderCountObserved: f.leaderCountObserved(),
      services: f.hosts.map((h) => ({
        id: `m${h.id.slice(1)}`,
        kind: 'etcdMember',
        label: `etcd m${h.id.slice(1)}`,
        alive: h.memberAlive,
      })),
      eventCount: v.events.total,
    });
  }

  /**
   * Everything received, in order: what a file needs to fold the run again as the page did
   * (liveRecordFile.ts). `fromMs` is above 0 once the oldest events were folded into the recording's start.
   */
  held(): { fromMs: number; events: RealEvent[]; keepAlives: KeepAliveReport[] } {
    return { fromMs: this.base.nowMs, events: [...this.raw], keepAlives: [...this.keepAlives] };
  }

  /** The trace of the recording at the moment shown, in the engine's shape (for other tools). */
  trace(): Trace {
    return {
      experiment: {
        ...this.experiment,
        untilMs: this.nowMs,
        faults: this.commands.map(
          (c) => ({ ...c.command, atMs: c.atMs }) as Trace['experiment']['faults'][number],
        ),
      },
      events: [...this.events],
      samples: [...this.samples],
      summary: this.view.fold.summary(this.view.nowMs, 0),
      final: this.view.fold.final(),
    };
  }

  /** The trace up to untilMs (no further than the recording holds), leaving the moment shown as it was. */
  traceUntil(untilMs: number): Trace {
    const shown = this.nowMs;
    this.showAt(untilMs);
    const t = this.trace();
    this.showAt(shown);
    return t;
  }
}
