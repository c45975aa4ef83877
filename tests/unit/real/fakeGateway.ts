// The one fake of the real suite's unit layer: etcd's gateway as the election recipe uses it
// (leases with TTLs expired by etcd's side of the clock, keys with create revisions, watches
// for deletion), in memory, on a ManualClock. A host's link can be cut: its calls then never
// answer, and fail when the caller's deadline passes, as they do through a cut proxy.
import type { Gateway } from '../../../src/real/candidate/gateway';
import type { ManualClock } from './manualClock';

interface Lease {
  id: string;
  ttlS: number;
  expiresAtMs: number;
}

interface Key {
  key: string;
  createRevision: number;
  leaseId: string;
}

export class FakeEtcd {
  revision = 1;
  readonly leases = new Map<string, Lease>();
  readonly keys = new Map<string, Key>();
  private nextLease = 2n ** 60n + 7n;
  private readonly watchers = new Set<{ key: string; done: () => void }>();

  constructor(private readonly clock: ManualClock) {
    // etcd's lessor looks for expired leases every 500 ms.
    const sweep = () => {
      this.expire();
      clock.view('etcd').setTimeout(sweep, 500);
    };
    clock.view('etcd').setTimeout(sweep, 500);
  }

  expire(): void {
    for (const l of [...this.leases.values()]) {
      if (l.expiresAtMs <= this.clock.nowMs) this.revokeLease(l.id);
    }
  }

  revokeLease(id: string): void {
    this.leases.delete(id);
    for (const k of [...this.keys.values()]) if (k.leaseId === id) this.deleteKey(k.key);
  }

  deleteKey(key: string): void {
    if (!this.keys.delete(key)) return;
    this.revision++;
    for (const w of [...this.watchers]) if (w.key === key) w.done();
  }

  /** The gateway as one candidate process (a clock domain) reaches it; `cut` makes it unreachable. */
  gateway(domain: string, timeoutMs: number): FakeGateway {
    return new FakeGateway(this, this.clock, domain, timeoutMs);
  }

  grant(ttlS: number): Lease {
    const id = String(this.nextLease++);
    const l = { id, ttlS, expiresAtMs: this.clock.nowMs + ttlS * 1000 };
    this.leases.set(id, l);
    return l;
  }

  watch(key: string, done: () => void): () => void {
    const w = { key, done };
    this.watchers.add(w);
    return () => this.watchers.delete(w);
  }
}

export class FakeGateway implements Gateway {
  cut = false;
  calls = 0;
  /** The deadline each keep-alive was sent with. */
  readonly keepAliveTimeouts: number[] = [];

  constructor(
    private readonly etcd: FakeEtcd,
    private readonly clock: ManualClock,
    private readonly domain: string,
    private readonly timeoutMs: number,
  ) {}

  /** Answer now, or (when cut) fail at the caller's own deadline (a timer of its process). */
  private call<T>(fn: () => T | Promise<T>, timeoutMs = this.timeoutMs): Promise<T> {
    this.calls++;
    if (this.cut) {
      return new Promise((_, reject) =>
        this.clock.view(this.domain).setTimeout(() => reject(new Error('no answer (cut)')), timeoutMs),
      );
    }
    this.etcd.expire();
    return Promise.resolve().then(fn);
  }

  grant(ttlS: number) {
    return this.call(() => {
      const l = this.etcd.grant(ttlS);
      return { leaseId: l.id, ttlS: l.ttlS };
    });
  }

  keepAlive(leaseId: string, timeoutMs = this.timeoutMs) {
    this.keepAliveTimeouts.push(timeoutMs);
    return this.call(() => {
      const l = this.etcd.leases.get(leaseId);
      if (!l) return 0;
      l.expiresAtMs = this.clock.nowMs + l.ttlS * 1000;
      return l.ttlS;
    }, timeoutMs);
  }

  revoke(leaseId: string) {
    return this.call(() => this.etcd.revokeLease(leaseId));
  }

  createKey(key: string, _value: string, leaseId: string) {
    return this.call(() => {
      const found = this.etcd.keys.get(key);
      if (found) return { createRevision: found.createRevision };
      if (!this.etcd.leases.has(leaseId)) throw new Error('requested lease not found');
      const createRevision = ++this.etcd.revision;
      this.etcd.keys.set(key, { key, createRevision, leaseId });
      return { createRevision };
    });
  }

  lastCreatedBelow(prefix: string, maxCreateRevision: number) {
    return this.call(() => {
      const below = [...this.etcd.keys.values()]
        .filter((k) => k.key.startsWith(prefix) && k.createRevision <= maxCreateRevision)
        .sort((a, b) => b.createRevision - a.createRevision);
      return { key: below[0]?.key ?? null, revision: this.etcd.revision };
    });
  }

  waitDelete(key: string, _fromRevision: number, signal: AbortSignal) {
    return this.call(
      () =>
        new Promise<void>((resolve, reject) => {
          if (!this.etcd.keys.has(key)) return resolve();
          const off = this.etcd.watch(key, () => {
            off();
            resolve();
          });
          signal.addEventListener('abort', () => {
            off();
            reject(new Error('aborted'));
          });
        }),
    );
  }

  deleteKey(key: string) {
    return this.call(() => this.etcd.deleteKey(key));
  }
}
