// The real candidate's runtime. The recipe itself (etcd's session and election, as etcd's Go client runs
// them) is src/engine/candidates/etcdCandidate.ts, the state machine the simulator's etcd-election nodes run
// too; this file only gives it I/O:
//   requests   through etcd's JSON gateway (gateway.ts): grant, keep-alive, the campaign's create
//              txn on `${prefix}/<lease ID in hex>` (etcd's NewElection key), the range for the
//              predecessor by create revision, a watch for its deletion, revoke;
//   timers     the process's own (one that fires a little early is re-armed, so the machine
//              sees its own clock reached);
//   the kernel's part  the run's events on stdout, in the engine's shapes (events.ts).
// And what the machine leaves to its application: the warm-up, then the work loop (check that it still leads,
// work for writeEveryMs, send the write with the token taken at the check, whatever happened since: a pause
// in the work sends a stale write after it, which is what fencing is for). The campaign is the recipe's own
// steps, not the gateway's /v3/election/campaign: that call blocks until the candidate wins, so a waiting
// candidate would not know its key's create revision, and one whose session ended could only drop it.
import {
  initCandidate,
  keepAliveEveryMs,
  onKeepAliveReply,
  onKeepAliveTimer,
  onReply,
  onRequestTimeout,
  onRetry,
  onSessionDeadline,
  onWatchEvent,
  resign,
  sessionDeadlineMs,
  type CandidateIO,
  type CandidateTimer,
  type EtcdCandidateSettings,
  type EtcdOp,
  type EtcdReply,
  type KeyId,
  type LeaseId,
} from '../../engine/candidates/etcdCandidate';
import type { CandidateOutput, RealStepDownReason, SessionEvent } from '../model/events';
import type { RunSettings } from '../model/settings';
import type { HttpGateway } from './gateway';

export interface CandidateSettings extends Pick<
  RunSettings,
  'ttlMs' | 'renewDeadlineMs' | 'warmUpMs' | 'writeEveryMs'
> {
  node: string;
  /** Election prefix; keys are `${prefix}/<lease ID in hex>` as in etcd's NewElection. */
  prefix: string;
  /** Wait before retrying a call that failed (rather than went unanswered). */
  retryMs: number;
}

export interface StorageClient {
  write(w: { node: string; token: number; checkedAtMs: number }): Promise<{
    result: 'accepted' | 'rejected';
    maxTokenSeen: number;
  }>;
}

/** Time and timers: the process's own. */
export interface Clock {
  /** Ms since the run started. */
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface CandidateDeps {
  gateway: HttpGateway;
  storage: StorageClient;
  emit: (event: CandidateOutput) => void;
  clock: Clock;
}

/** A reply to an operation, its fields filled in as the answer comes. */
const replyTo = (op: EtcdOp['op']): EtcdReply => ({ op, lease: 0, ttlMs: 0, key: 0, rev: 0, storeRev: 0 });

type Handler = (c: Candidate) => void;
const ON_TIMER: Record<CandidateTimer, Handler> = {
  keepAlive: (c) => onKeepAliveTimer(c.state, c.recipe, c.io),
  sessionDeadline: (c) => onSessionDeadline(c.state, c.recipe, c.io),
  request: (c) => onRequestTimeout(c.state, c.recipe, c.io),
  retry: (c) => onRetry(c.state, c.recipe, c.io),
};

export class Candidate {
  role: 'follower' | 'candidate' | 'leader' = 'follower';
  token = 0;
  /** The recipe's state and settings (the TTL is the one etcd granted). */
  readonly state = initCandidate();
  readonly recipe: EtcdCandidateSettings;
  readonly io: CandidateIO;
  private readonly timers = new Map<CandidateTimer, unknown>();
  /** The application's timers (warm-up, work): they end with the leadership. */
  private readonly work = new Set<unknown>();
  private nextRequest = 1;
  private watch: { key: KeyId; abort: AbortController } | null = null;
  /** What the last step left, to tell the run what changed. */
  private seen = { lease: 0 as LeaseId, myRev: 0, ttlMs: 0 };
  private stopped = false;
  private exited: (() => void) | null = null;

  constructor(
    private readonly s: CandidateSettings,
    private readonly deps: CandidateDeps,
  ) {
    this.recipe = { ttlMs: s.ttlMs, renewDeadlineMs: s.renewDeadlineMs ?? 0 };
    const clock = deps.clock;
    this.io = {
      nowMs: () => clock.now(),
      localNowMs: () => clock.now(),
      reached: (at) => clock.now() >= at,
      request: (op) => {
        const id = this.nextRequest++;
        this.perform(id, op);
        return id;
      },
      keepAlive: (lease) => this.keepAlive(lease),
      setTimer: (slot, at) => this.setTimer(slot, at),
      cancelTimer: (slot) => {
        clock.clearTimeout(this.timers.get(slot));
        this.timers.delete(slot);
      },
      campaigned: () => {
        this.role = 'candidate';
      },
      acquired: (token) => this.acquired(token),
      released: (reason) => this.released(reason === 'stopped' ? 'resigned' : reason),
      renewed: () => {},
      exited: () => this.exit(),
    };
  }

  start(): void {
    this.step(() => onRetry(this.state, this.recipe, this.io));
  }

  /** Resign: revoke the lease (its key goes with it); no new session after this. */
  resign(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    const done = new Promise<void>((r) => (this.exited = r));
    this.step(() => resign(this.state, this.recipe, this.io));
    return done;
  }

  /** Run one input of the machine, then tell the run what changed and drop a watch it left. */
  private step(input: () => void): void {
    if (this.stopped) return;
    input();
    const p = this.state;
    const was = this.seen;
    if (was.lease !== 0 && p.lease !== was.lease) this.session(was.lease, 'lost', { ttlMs: was.ttlMs });
    if (p.lease !== 0 && p.lease !== was.lease) this.session(p.lease, 'granted');
    if (p.myRev !== 0 && p.myRev !== was.myRev)
      this.deps.emit({
        atMs: this.deps.clock.now(),
        type: 'campaign',
        node: this.s.node,
        term: p.myRev,
        preVote: false,
        transfer: false,
      });
    this.seen = { lease: p.lease, myRev: p.myRev, ttlMs: this.recipe.ttlMs };
    if (this.watch && (p.phase !== 'watching' || p.watching !== this.watch.key)) {
      this.watch.abort.abort();
      this.watch = null;
    }
  }

  /** Tell the run what became of a session (now, with the TTL etcd granted, unless said). */
  private session(lease: LeaseId, state: SessionEvent['state'], at: Partial<SessionEvent> = {}): void {
    const { atMs = this.deps.clock.now(), ttlMs = this.recipe.ttlMs, gapMs } = at;
    this.deps.emit({
      atMs,
      type: 'session',
      node: this.s.node,
      leaseId: String(lease),
      state,
      ttlMs,
      ...(gapMs === undefined ? {} : { gapMs }),
    });
  }

  private setTimer(slot: CandidateTimer, atMs: number): void {
    const clock = this.deps.clock;
    clock.clearTimeout(this.timers.get(slot));
    const fire = () => {
      if (clock.now() < atMs) {
        this.timers.set(slot, clock.setTimeout(fire, atMs - clock.now()));
        return;
      }
      this.timers.delete(slot);
      this.step(() => ON_TIMER[slot](this));
    };
    this.timers.set(slot, clock.setTimeout(fire, Math.max(0, atMs - clock.now())));
  }

  /** A reply reaches the machine only after its own deadline had its say (timers fire in order). */
  private answer(id: number, r: EtcdReply): void {
    this.step(() => {
      onSessionDeadline(this.state, this.recipe, this.io);
      onReply(this.state, this.recipe, this.io, id, r);
    });
  }

  /** A call failed (rather than went unanswered): ask again after retryMs, not the full timeout. */
  private failed(id: number): void {
    if (id === this.state.requestId && !this.stopped)
      this.setTimer('request', this.deps.clock.now() + this.s.retryMs);
  }

  private keyOf(lease: LeaseId): string {
    return `${this.s.prefix}/${BigInt(lease).toString(16)}`;
  }

  private perform(id: number, op: EtcdOp): void {
    const gw = this.deps.gateway;
    const r = replyTo(op.op);
    const done = () => this.answer(id, r);
    const fail = () => this.failed(id);
    switch (op.op) {
      case 'grant':
        return void gw.grant(Math.ceil(this.s.ttlMs / 1000)).then((g) => {
          if (id !== this.state.requestId) return;
          // etcd raises a TTL below its minimum and answers with the TTL it granted.
          this.recipe.ttlMs = g.ttlS * 1000;
          r.lease = g.leaseId;
          r.ttlMs = this.recipe.ttlMs;
          done();
        }, fail);
      case 'create':
        return void gw.createKey(this.keyOf(op.lease), this.s.node, String(op.lease)).then(
          (k) => {
            r.key = this.keyOf(op.lease);
            r.rev = k.createRevision;
            done();
          },
          // The lease is gone already: the recipe's answer is "not created" (a new session).
          (err: Error) => (/lease not found/.test(err.message) ? done() : fail()),
        );
      case 'range':
        return void gw.lastCreatedBelow(`${this.s.prefix}/`, op.below - 1).then((b) => {
          r.key = b.key ?? 0;
          r.storeRev = b.revision;
          done();
        }, fail);
      case 'watch':
        return this.startWatch(id, op.key, r);
      case 'delete':
        return void gw.deleteKey(String(op.key)).then(done, fail);
      case 'revoke':
        return void gw.revoke(String(op.lease)).then(done, fail);
      case 'keepAlive':
        return this.keepAlive(op.lease);
    }
  }

  /**
   * etcd's waitDeletes: a watch on the predecessor from the revision after the range, so a deletion between
   * the two is seen. The watch is set at once (its answer); its event, or a broken watch, means look again.
   */
  private startWatch(id: number, key: KeyId, r: EtcdReply): void {
    const watch = { key, abort: new AbortController() };
    this.watch?.abort.abort();
    this.watch = watch;
    const fromRevision = this.state.rangedAtRev + 1;
    queueMicrotask(() => {
      r.key = key;
      r.rev = 1;
      this.answer(id, r);
    });
    const lookAgain = () => {
      if (this.watch !== watch) return;
      this.step(() => onWatchEvent(this.state, this.recipe, this.io, key));
    };
    this.deps.gateway.waitDelete(String(key), fromRevision, watch.abort.signal).then(lookAgain, () => {
      if (this.watch === watch) this.deps.clock.setTimeout(lookAgain, this.s.retryMs);
    });
  }

  /** A keep-alive waits while its session can: etcd holds it while raft elects (the Go client waits too). */
  private keepAlive(lease: LeaseId): void {
    const clock = this.deps.clock;
    const sentAtMs = clock.now();
    const left = this.state.lastKeepAliveLocalMs + sessionDeadlineMs(this.recipe) - sentAtMs;
    this.deps.gateway.keepAlive(String(lease), Math.max(50, left)).then(
      (ttlS) => {
        if (this.stopped || lease !== this.state.lease) return;
        const now = clock.now();
        const gapMs = now - this.state.lastKeepAliveRealMs;
        const reply = { ...replyTo('keepAlive'), lease, ttlMs: ttlS * 1000 };
        this.step(() => onKeepAliveReply(this.state, this.recipe, this.io, reply));
        if (ttlS <= 0) return;
        this.deps.emit({ atMs: now, type: 'keepAlive', node: this.s.node, rttMs: now - sentAtMs });
        // Half a period late or more: a keep-alive was missed, and the lease survived the gap.
        if (gapMs > 1.5 * keepAliveEveryMs(this.recipe)) this.session(lease, 'renewed', { atMs: now, gapMs });
      },
      () => {
        // The gateway failed the call outright (the Go client's stream resends on its 500 ms tick).
        if (this.stopped || lease !== this.state.lease) return;
        const every = keepAliveEveryMs(this.recipe);
        if (every > 500) this.setTimer('keepAlive', clock.now() + 500);
      },
    );
  }

  private acquired(token: number): void {
    this.role = 'leader';
    this.token = token;
    const node = this.s.node;
    this.deps.emit({ atMs: this.deps.clock.now(), type: 'elected', node, term: token, votes: [] });
    this.later(this.s.warmUpMs, () => {
      this.deps.emit({ atMs: this.deps.clock.now(), type: 'ready', node, term: token });
      this.workTick(token);
    });
  }

  private released(reason: RealStepDownReason): void {
    for (const t of this.work) this.deps.clock.clearTimeout(t);
    this.work.clear();
    const node = this.s.node;
    this.deps.emit({ atMs: this.deps.clock.now(), type: 'steppedDown', node, term: this.token, reason });
    this.role = 'follower';
  }

  /** Check that it still leads (its own deadline first), work, then send with the token checked. */
  private workTick(token: number): void {
    this.step(() => onSessionDeadline(this.state, this.recipe, this.io));
    if (this.role !== 'leader' || this.token !== token) return;
    const checkedAtMs = this.deps.clock.now();
    this.later(this.s.writeEveryMs, () => {
      // The storage's answer is the application's to hear; the election itself does not (as the
      // simulator's etcd-election has it): a deposed leader stops when its session ends.
      this.deps.storage.write({ node: this.s.node, token, checkedAtMs }).catch(() => {});
      this.workTick(token);
    });
  }

  private later(ms: number, fn: () => void): void {
    const t = this.deps.clock.setTimeout(() => {
      this.work.delete(t);
      fn();
    }, ms);
    this.work.add(t);
  }

  private exit(): void {
    this.stopped = true;
    for (const t of [...this.timers.values(), ...this.work]) this.deps.clock.clearTimeout(t);
    this.timers.clear();
    this.work.clear();
    this.watch?.abort.abort();
    this.watch = null;
    this.exited?.();
  }
}
