// Real peer request heads (captured by the lab's proxies in front of etcd 3.4.23 members) to
// the proxy's classification: raft traffic names its sender in X-Server-From; version checks,
// membership queries and probes do not, and must not keep their connection.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  classifyPeerRequest,
  parseRequestHead,
  withConnectionClose,
} from '../../../src/real/cluster/httpHead';

const fixture = JSON.parse(
  readFileSync(new URL('./fixtures/etcd-3.4-peer-heads.json', import.meta.url), 'utf8'),
) as { ids: Record<string, string>; heads: { to: string; head: string }[] };
const nameOf = new Map(Object.entries(fixture.ids).map(([n, id]) => [id, n]));

describe('peer request heads', () => {
  it('names the sender of every raft request, never the receiver itself', () => {
    const raft = fixture.heads.filter((h) => /^(GET \/raft\/stream|POST \/raft )/.test(h.head));
    expect(raft.length).toBeGreaterThanOrEqual(10);
    for (const h of raft) {
      const head = parseRequestHead(Buffer.from(h.head, 'latin1'))!;
      const c = classifyPeerRequest(head);
      expect(c.kind).toBe('peer');
      if (c.kind !== 'peer') continue;
      const from = nameOf.get(c.fromId.padStart(16, '0'));
      expect(from).toBeDefined();
      expect(from).not.toBe(h.to);
      // A stream's path names the sender too (/raft/stream/<type>/<from id>).
      const inPath = /\/raft\/stream\/\w+\/([0-9a-f]+)/.exec(head.path)?.[1];
      if (inPath) expect(inPath).toBe(c.fromId);
    }
  });

  it('has senders whose ID etcd writes without leading zeros (padded before the lookup)', () => {
    const short = fixture.heads
      .map((h) => /X-Server-From: (\w+)/.exec(h.head)?.[1])
      .filter((id) => id && id.length < 16);
    expect(short.length).toBeGreaterThan(0);
  });

  it('finds no sender in membership, version and probe requests', () => {
    const unlabelled = fixture.heads.filter((h) => /^GET \/(members|version|raft\/probing) /.test(h.head));
    expect(new Set(unlabelled.map((h) => h.head.split(' ')[1]))).toEqual(
      new Set(['/members', '/version', '/raft/probing']),
    );
    for (const h of unlabelled) {
      expect(classifyPeerRequest(parseRequestHead(Buffer.from(h.head, 'latin1'))!)).toEqual({
        kind: 'unlabelled',
      });
    }
  });

  it('forwards an unlabelled request with Connection: close and its body untouched', () => {
    const raw = Buffer.from(
      'GET /version HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\nBODY',
      'latin1',
    );
    const head = parseRequestHead(raw)!;
    const out = withConnectionClose(raw, head).toString('latin1');
    expect(out).toBe('GET /version HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\nBODY');
  });

  it('waits for a whole head, and refuses what is not HTTP or too large', () => {
    expect(parseRequestHead(Buffer.from('GET /raft HTTP/1.1\r\nHost: x\r\n'))).toBeNull();
    expect(() => parseRequestHead(Buffer.from('\x16\x03\x01 hello\r\n\r\n'))).toThrow();
    expect(() => parseRequestHead(Buffer.alloc(17 * 1024, 'a'))).toThrow(/too large/);
  });
});
