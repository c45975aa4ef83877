// The peer proxy on real loopback sockets, in front of a small HTTP server standing in for a
// member's peer port: forwarding, one request per unlabelled connection, silence across a cut
// (nothing passes, nothing closes), and fresh connections after healing.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PeerProxy } from '../../../src/real/cluster/peerProxy';
import { closesWithin, connect, get, readFor, readUntil, WAIT_CLOSE_MS } from './sockets';

let upstream: Server;
let seen: IncomingMessage[];
let proxy: PeerProxy;
const ids: Record<string, string> = { '00000000000000a2': 'm2', '00000000000000a3': 'm3' };

beforeEach(async () => {
  seen = [];
  upstream = createServer((req, res) => {
    seen.push(req);
    res.end(`ok ${req.url}`);
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', () => r()));
  const port = (upstream.address() as { port: number }).port;
  proxy = new PeerProxy({ upstreamPort: port, nameOf: (hex) => ids[hex.padStart(16, '0')] });
  await proxy.listen();
});

afterEach(async () => {
  await proxy.close();
  upstream.closeAllConnections();
  await new Promise((r) => upstream.close(r));
});

describe('peer proxy', () => {
  it('answers an unlabelled request, then closes its connection (etcd must not reuse it for raft)', async () => {
    const s = await connect(proxy.port);
    s.write(get('/version'));
    expect(await readUntil(s, 'ok /version')).toMatch(/^HTTP\/1.1 200[\s\S]*ok \/version$/);
    expect(await closesWithin(s, WAIT_CLOSE_MS)).toBe(true);
    expect(seen[0].headers.connection).toBe('close');
    expect(proxy.counts.unlabelled).toBe(1);
  });

  it('keeps a labelled connection for more requests (the sender, written without leading zeros, is named)', async () => {
    const s = await connect(proxy.port);
    s.write(get('/raft/stream/msgapp/a2', { 'X-Server-From': 'a2' }));
    expect(await readUntil(s, 'ok /raft/stream/msgapp/a2')).toContain('ok /raft/stream/msgapp/a2');
    s.write(get('/raft', { 'X-Server-From': 'a2' }));
    expect(await readUntil(s, 'ok /raft')).toContain('ok /raft');
    expect(await closesWithin(s, 100)).toBe(false);
    expect(proxy.counts.peer).toBe(1);
    s.destroy();
  });

  it('silences a cut sender: its open and new connections carry nothing and stay open; others pass', async () => {
    const fromM2 = await connect(proxy.port);
    fromM2.write(get('/raft', { 'X-Server-From': 'a2' }));
    await readUntil(fromM2, 'ok /raft');
    proxy.setBlocked((from) => from === 'm2');
    fromM2.write(get('/raft', { 'X-Server-From': 'a2' }));
    expect(await readFor(fromM2, 300)).toBe('');
    const again = await connect(proxy.port);
    again.write(get('/raft', { 'X-Server-From': 'a2' }));
    expect(await readFor(again, 300)).toBe('');
    expect(await closesWithin(again, 50)).toBe(false);
    const fromM3 = await connect(proxy.port);
    fromM3.write(get('/raft', { 'X-Server-From': 'a3' }));
    expect(await readUntil(fromM3, 'ok /raft')).toContain('ok /raft');
    // Healing ends the silenced connections, so etcd dials again; a new one passes.
    proxy.setBlocked(() => false);
    expect(await closesWithin(fromM2, WAIT_CLOSE_MS)).toBe(true);
    expect(await closesWithin(again, WAIT_CLOSE_MS)).toBe(true);
    const after = await connect(proxy.port);
    after.write(get('/raft', { 'X-Server-From': 'a2' }));
    expect(await readUntil(after, 'ok /raft')).toContain('ok /raft');
    for (const s of [fromM3, after]) s.destroy();
  });

  it('drops a connection that does not speak HTTP', async () => {
    const s = await connect(proxy.port);
    s.write('\x16\x03\x01 not http\r\n\r\n');
    expect(await closesWithin(s, WAIT_CLOSE_MS)).toBe(true);
    expect(seen).toHaveLength(0);
  });
});
