// A candidate's logic, the way etcd's own client library elects (clientv3/concurrency):
//   session  a lease with a TTL, kept alive about every TTL/3; it ends when etcd says the lease
//            is gone, or when no keep-alive was answered for a whole TTL (the client's own
//            deadline, as clientv3's lease deadline loop has it);
//   campaign a key prefix/<lease ID in hex> bound to the lease; wait until every key under the
//            prefix with a lower create revision is deleted, watching the predecessor; then lead.
//            The key's create revision is the fencing token (etcd revisions only grow);
//   work     check (still in session, and within the optional renew deadline), then work for
//            writeEveryMs, then send the write with the token captured at the check, whatever
//            happened since; then check again. A pause that lands in the work sends a stale
//            write after it, which is what fencing is for;
//   resign   delete the key, revoke the lease.
// The campaign is the recipe itself (txn, range, watch through the JSON gateway), not the
// gateway's /v3/election/campaign: that call blocks in one HTTP request until the candidate
// wins, so the candidate would learn its key's create revision (its place in the queue, the
// token it will lead with) only on winning, and a waiting candidate whose session ends could
// only drop the request. The recipe is the same steps etcd's server runs for that call.
// Everything external comes in through deps, so the same code runs in the candidate process
// and against a fake gateway in the unit tests.
import type { CandidateOutput, RealStepDownReason } from '../model/events';
import type { Gateway } from './gateway';

export interface CandidateSettings {
  node: string;
  /** Election prefix; keys are `${prefix}/<lease ID in hex>` as in etcd's NewElection. */
  prefix: string;
  ttlMs: number;
  /** Stop acting when no keep-alive has been answered for this long; null: only the session's TTL. */
  renewDeadlineMs: number | null;
  warmUpMs: number;
  /** The work between a write's check and its send. */
  writeEveryMs: number;
  /** Wait before retrying a failed call. */
  retryMs: number;
}

export interface StorageClient {
  write(w: { node: string; token: number; checkedAtMs: number }): Promise<{
    result: 'accepted' | 'rejected';
    maxTokenSeen: number;
  }>;
}

/** Time and timers: the process's own in a candidate, a hand-driven clock in the unit tests. */
export interface Clock {
  /** Ms since the run started. */
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface CandidateDeps {
  gateway: Gateway;
  storage: StorageClient;
  emit: (event: CandidateOutput) => void;
  clock: Clock;
}

interface Session {
  leaseId: string;
  ttlMs: number;
  lastAckMs: number;
  key: string;
  abort: AbortController;
  timers: Set<unknown>;
  deadlines: unknown[];
}

export class Candidate {
  role: 'follower' | 'candidate' | 'leader' = 'follower';
  ready = false;
  token = 0;
  private session: Session | null = null;
  private stopped = false;

  constructor(
    private readonly s: CandidateSettings,
    private readonly deps: CandidateDeps,
  ) {}

  start(): void {
    void this.startSession();
  }

  /** Resign (delete the key if leading) and revoke the lease; no new session after this. */
  async resign(): Promise<void> {
    this.stopped = true;
    const s = this.session;
    if (!s) return;
    this.session = null;
    this.clearTimers(s);
    if (this.role === 'leader') {
      await this.deps.gateway.deleteKey(s.key).catch(() => {});
      this.stepDownEvent('resigned');
    }
    this.role = 'follower';
    this.ready = false;
    await this.deps.gateway.revoke(s.leaseId).catch(() => {});
    this.deps.emit({
      atMs: this.deps.clock.now(),
      type: 'session',
      node: this.s.node,
      leaseId: s.leaseId,
      state: 'lost',
      ttlMs: s.ttlMs,
    });
  }

  private async startSession(): Promise<void> {
    const gw = this.deps.gateway;
    let granted: { leaseId: string; ttlS: number } | null = null;
    while (!this.stopped && !granted) {
      try {
        granted = await gw.grant(Math.ceil(this.s.ttlMs / 1000));
      } catch {
        await this.sleep(this.s.retryMs);
      }
    }
    if (!granted || this.stopped) return;
    const s: Session = {
      leaseId: granted.leaseId,
      // etcd raises a TTL below its minimum and answers with the TTL it granted.
      ttlMs: granted.ttlS * 1000,
      lastAckMs: this.deps.clock.now(),
      key: `${this.s.prefix}/${BigInt(granted.leaseId).toString(16)}`,
      abort: new AbortController(),
      timers: new Set(),
      deadlines: [],
    };
    this.session = s;
    this.deps.emit({
      atMs: s.lastAckMs,
      type: 'session',
      node: this.s.node,
      leaseId: s.leaseId,
      state: 'granted',
      ttlMs: s.ttlMs,
    });
    this.armDeadlines(s);
    void this.keepAliveLoop(s);
    void this.campaign(s);
  }

  private async keepAliveLoop(s: Session): Promise<void> {
    const every = Math.max(1, Math.floor(s.ttlMs / 3));
    while (this.session === s) {
      let answered = false;
      const sentAtMs = this.deps.clock.now();
      try {
        // Wait for the answer as long as the session can: etcd holds a keep-alive while its raft
        // elects a leader (a follower forwards renewals to the leader and retries until one
        // exists), as clientv3's keep-alive stream waits with no deadline of its own. Cut at a
        // fixed request timeout instead, a renewal would be retried on that timeout's grid, up
        // to a whole timeout after the new leader could have answered.
        const ttlS = await this.deps.gateway.keepAlive(s.leaseId, this.sessionLeftMs(s));
        if (this.session !== s) return;
        if (ttlS <= 0) return this.loseSession(s, 'lease expired');
        const now = this.deps.clock.now();
        const gapMs = now - s.lastAckMs;
        s.lastAckMs = now;
        answered = true;
        this.armDeadlines(s);
        const node = this.s.node;
        this.deps.emit({ atMs: now, type: 'keepAlive', node, rttMs: now - sentAtMs });
        // Half a period late or more: a keep-alive was missed, and the lease survived the gap.
        if (gapMs > 1.5 * every) {
          this.deps.emit({
            atMs: now,
            type: 'session',
            node,
            leaseId: s.leaseId,
            state: 'renewed',
            ttlMs: s.ttlMs,
            gapMs,
          });
        }
      } catch {
        if (this.session !== s) return;
      }
      // After a failure, try again sooner, as clientv3 does (its send loop ticks every 500 ms).
      await this.sleep(answered ? every : Math.min(500, every));
    }
  }

  /** The session's end by the client's own clock, and the leader's renew deadline. */
  private armDeadlines(s: Session): void {
    for (const t of s.deadlines) {
      this.deps.clock.clearTimeout(t);
      s.timers.delete(t);
    }
    s.deadlines = [
      this.after(s, s.lastAckMs + s.ttlMs - this.deps.clock.now(), () =>
        this.loseSession(s, 'lease expired'),
      ),
    ];
    const d = this.s.renewDeadlineMs;
    if (d !== null) {
      s.deadlines.push(
        this.after(s, s.lastAckMs + d - this.deps.clock.now(), () => {
          if (this.role === 'leader') this.loseSession(s, 'renew deadline passed');
        }),
      );
    }
  }

  private async campaign(s: Session): Promise<void> {
    const gw = this.deps.gateway;
    let rev = 0;
    while (this.session === s && rev === 0) {
      try {
        rev = (await gw.createKey(s.key, this.s.node, s.leaseId)).createRevision;
      } catch {
        await this.sleep(this.s.retryMs);
      }
    }
    if (this.session !== s) return;
    this.role = 'candidate';
    this.deps.emit({
      atMs: this.deps.clock.now(),
      type: 'campaign',
      node: this.s.node,
      term: rev,
      preVote: false,
      transfer: false,
    });
    // etcd's waitDeletes: until no key under the prefix was created before ours.
    for (;;) {
      try {
        const below = await gw.lastCreatedBelow(`${this.s.prefix}/`, rev - 1);
        if (this.session !== s) return;
        if (below.key === null) break;
        await gw.waitDelete(below.key, below.revision + 1, s.abort.signal);
      } catch {
        if (this.session !== s) return;
        await this.sleep(this.s.retryMs);
      }
      if (this.session !== s) return;
    }
    if (this.actingDenied(s) === 'lease expired') return this.loseSession(s, 'lease expired');
    this.role = 'leader';
    this.token = rev;
    this.deps.emit({ atMs: this.deps.clock.now(), type: 'elected', node: this.s.node, term: rev, votes: [] });
    this.armDeadlines(s);
    this.after(s, this.s.warmUpMs, () => {
      this.ready = true;
      this.deps.emit({ atMs: this.deps.clock.now(), type: 'ready', node: this.s.node, term: rev });
      this.writeTick(s);
    });
  }

  /** Ms until the session ends by the client's own clock (the renew deadline, if set, for a leader too). */
  private sessionLeftMs(s: Session): number {
    const d = this.s.renewDeadlineMs;
    const limit = d !== null ? Math.min(d, s.ttlMs) : s.ttlMs;
    return Math.max(50, s.lastAckMs + limit - this.deps.clock.now());
  }

  /** Why this leader must not act now, or null. */
  private actingDenied(s: Session): RealStepDownReason | null {
    const sinceAck = this.deps.clock.now() - s.lastAckMs;
    if (sinceAck >= s.ttlMs) return 'lease expired';
    const d = this.s.renewDeadlineMs;
    if (d !== null && sinceAck >= d) return 'renew deadline passed';
    return null;
  }

  private writeTick(s: Session): void {
    if (this.session !== s || this.role !== 'leader' || !this.ready) return;
    const denied = this.actingDenied(s);
    if (denied) return this.loseSession(s, denied);
    const token = this.token;
    const checkedAtMs = this.deps.clock.now();
    this.after(s, this.s.writeEveryMs, () => {
      this.send(s, token, checkedAtMs);
      this.writeTick(s);
    });
  }

  private send(s: Session, token: number, checkedAtMs: number): void {
    this.deps.storage.write({ node: this.s.node, token, checkedAtMs }).then(
      (r) => {
        // The storage has seen a newer token: a newer leader exists and this one is deposed.
        if (
          r.result === 'rejected' &&
          r.maxTokenSeen > token &&
          this.session === s &&
          this.role === 'leader'
        ) {
          this.loseSession(s, 'fenced by storage');
        }
      },
      () => {}, // storage unreachable: the next write tries again
    );
  }

  private loseSession(s: Session, reason: RealStepDownReason): void {
    if (this.session !== s) return;
    this.session = null;
    this.clearTimers(s);
    if (this.role === 'leader') this.stepDownEvent(reason);
    this.role = 'follower';
    this.ready = false;
    this.deps.emit({
      atMs: this.deps.clock.now(),
      type: 'session',
      node: this.s.node,
      leaseId: s.leaseId,
      state: 'lost',
      ttlMs: s.ttlMs,
    });
    // The lease must go so its key stops holding the election; if etcd cannot be reached the
    // key stays until the lease expires there. Not awaited: the new session need not wait.
    this.deps.gateway.revoke(s.leaseId).catch(() => {});
    if (!this.stopped) void this.startSession();
  }

  private stepDownEvent(reason: RealStepDownReason): void {
    this.deps.emit({
      atMs: this.deps.clock.now(),
      type: 'steppedDown',
      node: this.s.node,
      term: this.token,
      reason,
    });
  }

  private clearTimers(s: Session): void {
    for (const t of s.timers) this.deps.clock.clearTimeout(t);
    s.timers.clear();
    s.abort.abort();
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.deps.clock.setTimeout(resolve, ms));
  }

  /** A timer that belongs to the session: it never fires once the session has ended. */
  private after(s: Session, ms: number, fn: () => void): unknown {
    const t = this.deps.clock.setTimeout(
      () => {
        s.timers.delete(t);
        if (this.session === s) fn();
      },
      Math.max(0, ms),
    );
    s.timers.add(t);
    return t;
  }
}
