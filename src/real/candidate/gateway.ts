// etcd's v3 API through its built-in JSON gateway: the calls a candidate needs for a session (lease grant,
// keep-alive, revoke) and for the election recipe of etcd's client (clientv3/concurrency: a key created under
// the prefix, the predecessor by create revision, a watch for its deletion). Keys and values are base64;
// lease IDs (above 2^53, kept as strings) and revisions (small enough for a number) are decimal strings.
import { keepAliveAgent, postJson, streamJson, type JsonTarget } from './jsonHttp';

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const unb64 = (s: string) => Buffer.from(s, 'base64').toString('utf8');

/** The end of a prefix range: the prefix with its last byte incremented (clientv3.GetPrefixRangeEnd). */
function prefixEnd(prefix: string): string {
  const bytes = Buffer.from(prefix, 'utf8');
  for (let i = bytes.length - 1; i >= 0; i--) {
    if (bytes[i] < 0xff) {
      const end = Buffer.from(bytes.subarray(0, i + 1));
      end[i]++;
      return end.toString('base64');
    }
  }
  return Buffer.from([0]).toString('base64');
}

interface Header {
  header?: { revision?: string };
}
interface Kv {
  key: string;
  create_revision?: string;
}

export class HttpGateway {
  private readonly target: JsonTarget;

  constructor(
    port: number,
    private readonly timeoutMs: number,
  ) {
    this.target = { port, agent: keepAliveAgent() };
  }

  /** POST to the gateway, with the calls' deadline unless told. */
  private post<T>(path: string, body: unknown, timeoutMs = this.timeoutMs): Promise<T> {
    return postJson<T>(this.target, path, body, timeoutMs);
  }

  async grant(ttlS: number) {
    const r = await this.post<{ ID: string; TTL?: string; error?: string }>('/v3/lease/grant', { TTL: ttlS });
    if (!r.ID || r.error) throw new Error(`lease grant failed: ${r.error ?? 'no ID'}`);
    return { leaseId: r.ID, ttlS: Number(r.TTL ?? 0) };
  }

  /** Remaining TTL in s, 0 when the lease is gone; timeoutMs: how long to wait for the answer. */
  async keepAlive(leaseId: string, timeoutMs = this.timeoutMs) {
    const r = await this.post<{ result?: { TTL?: string }; error?: { message?: string } }>(
      '/v3/lease/keepalive',
      { ID: leaseId },
      timeoutMs,
    );
    if (!r.result) throw new Error(`keep-alive failed: ${r.error?.message ?? 'no result'}`);
    // proto3 JSON leaves a zero TTL out: the lease has expired or was revoked.
    return Number(r.result.TTL ?? 0);
  }

  async revoke(leaseId: string) {
    await this.post('/v3/lease/revoke', { ID: leaseId }).catch((err: Error) => {
      // Revoking a lease that already expired is fine: the point was that it should be gone.
      if (!/not found/.test(err.message)) throw err;
    });
  }

  /** Create key bound to the lease unless it exists; its create revision either way. */
  async createKey(key: string, value: string, leaseId: string) {
    const k = b64(key);
    const r = await this.post<
      Header & { succeeded?: boolean; responses?: { response_range?: { kvs?: Kv[] } }[] }
    >('/v3/kv/txn', {
      compare: [{ key: k, target: 'CREATE', result: 'EQUAL', create_revision: '0' }],
      success: [{ request_put: { key: k, value: b64(value), lease: leaseId } }],
      failure: [{ request_range: { key: k } }],
    });
    if (r.succeeded) return { createRevision: Number(r.header?.revision) };
    const kv = r.responses?.[0]?.response_range?.kvs?.[0];
    if (!kv) throw new Error(`campaign: ${key} neither created nor found`);
    return { createRevision: Number(kv.create_revision) };
  }

  /** The key under prefix with the highest create revision at most maxCreateRevision, and the store's revision. */
  async lastCreatedBelow(prefix: string, maxCreateRevision: number) {
    const r = await this.post<Header & { kvs?: Kv[] }>('/v3/kv/range', {
      key: b64(prefix),
      range_end: prefixEnd(prefix),
      sort_order: 'DESCEND',
      sort_target: 'CREATE',
      limit: 1,
      max_create_revision: String(maxCreateRevision),
    });
    const kv = r.kvs?.[0];
    return { key: kv ? unb64(kv.key) : null, revision: Number(r.header?.revision) };
  }

  /** Resolves when key is deleted (at or after fromRevision); rejects on abort or a broken watch. */
  waitDelete(key: string, fromRevision: number, signal: AbortSignal) {
    return streamJson(
      this.target,
      '/v3/watch',
      { create_request: { key: b64(key), start_revision: String(fromRevision) } },
      (obj) => {
        const r = (obj as { result?: WatchResult; error?: { message?: string } }).result;
        if (!r) throw new Error(`watch failed: ${JSON.stringify(obj).slice(0, 200)}`);
        // Compacted or cancelled: the caller looks again (etcd's waitDeletes does the same).
        if (r.canceled || r.compact_revision) return true;
        return (r.events ?? []).some((e) => e.type === 'DELETE');
      },
      signal,
    );
  }

  async deleteKey(key: string) {
    await this.post('/v3/kv/deleterange', { key: b64(key) });
  }
}

interface WatchResult {
  canceled?: boolean;
  compact_revision?: string;
  events?: { type?: string }[];
}
