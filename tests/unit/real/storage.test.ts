// The fenced storage: a write is accepted iff fencing is off or its token is at least the
// highest seen; each write is reported in the engine's write shape, with the engine's own
// invariant checks. Then the same over HTTP on loopback.
import { afterEach, describe, expect, it } from 'vitest';
import type { RealEvent } from '../../../src/real/model/events';
import { FencedStorage, parseWriteRequest } from '../../../src/real/cluster/storage';
import { StorageServer } from '../../../src/real/cluster/storageServer';

describe('fenced storage', () => {
  it('accepts tokens at or above the highest seen and rejects older ones', () => {
    let issued = 5;
    const s = new FencedStorage(() => issued);
    expect(s.write({ node: 'n1', token: 5, checkedAtMs: 0 }, 10).event).toEqual({
      atMs: 10,
      type: 'write',
      node: 'n1',
      token: 5,
      result: 'accepted',
      maxTokenSeen: 5,
      stale: false,
      kind: 'leader',
    });
    expect(s.write({ node: 'n1', token: 5, checkedAtMs: 0 }, 11).event.result).toBe('accepted');
    issued = 9;
    expect(s.write({ node: 'n2', token: 9, checkedAtMs: 0 }, 12).event.maxTokenSeen).toBe(9);
    const stale = s.write({ node: 'n1', token: 5, checkedAtMs: 0 }, 13);
    expect(stale.event).toMatchObject({ result: 'rejected', maxTokenSeen: 9, stale: false });
    expect(stale.violations).toEqual([]);
    expect([s.accepted, s.rejected, s.maxTokenSeen]).toEqual([3, 1, 9]);
  });

  it('with fencing off accepts everything, and flags a write older than the newest leadership as stale', () => {
    const s = new FencedStorage(() => 9);
    s.fencing = false;
    s.write({ node: 'n2', token: 9, checkedAtMs: 0 }, 1);
    const w = s.write({ node: 'n1', token: 5, checkedAtMs: 0 }, 2);
    expect(w.event).toMatchObject({ result: 'accepted', stale: true, maxTokenSeen: 9 });
    expect(w.violations).toEqual([
      {
        atMs: 2,
        type: 'violation',
        invariant: 'staleWriteAccepted',
        detail: "fencing is off: n1's write with token 5 was accepted after token 9 was issued",
      },
    ]);
  });

  it('names what is wrong with a malformed write', () => {
    expect(parseWriteRequest(null)).toMatch(/object/);
    expect(parseWriteRequest({ node: 'x', token: 1, checkedAtMs: 0 })).toMatch(/node/);
    expect(parseWriteRequest({ node: 'n1', token: 1.5, checkedAtMs: 0 })).toMatch(/token/);
    expect(parseWriteRequest({ node: 'n1', token: 2, checkedAtMs: 'x' })).toMatch(/checkedAtMs/);
    expect(parseWriteRequest({ node: 'n1', token: 2, checkedAtMs: 3 })).toEqual({
      node: 'n1',
      token: 2,
      checkedAtMs: 3,
    });
  });
});

describe('storage server', () => {
  let server: StorageServer | null = null;
  afterEach(async () => {
    await server?.close();
    server = null;
  });

  async function start() {
    const events: RealEvent[] = [];
    server = new StorageServer(
      new FencedStorage(() => 7),
      () => 42,
      (e) => events.push(e),
    );
    const port = await server.listen();
    const post = (body: string, path = '/write') =>
      fetch(`http://127.0.0.1:${port}${path}`, { method: 'POST', body }).then(async (r) => ({
        status: r.status,
        body: (await r.json()) as Record<string, unknown>,
      }));
    return { events, post };
  }

  it('answers each write with its result and the highest token seen, and reports it', async () => {
    const { events, post } = await start();
    expect(await post(JSON.stringify({ node: 'n2', token: 7, checkedAtMs: 1 }))).toEqual({
      status: 200,
      body: { result: 'accepted', maxTokenSeen: 7 },
    });
    expect(await post(JSON.stringify({ node: 'n1', token: 3, checkedAtMs: 1 }))).toEqual({
      status: 200,
      body: { result: 'rejected', maxTokenSeen: 7 },
    });
    expect(events.map((e) => e.type === 'write' && [e.atMs, e.node, e.result])).toEqual([
      [42, 'n2', 'accepted'],
      [42, 'n1', 'rejected'],
    ]);
  });

  it('refuses what is not a write', async () => {
    const { events, post } = await start();
    expect((await post('{oops')).body.error).toBe('not json');
    expect((await post('{"node":"n1"}')).status).toBe(400);
    expect((await post('{}', '/other')).status).toBe(404);
    expect((await post('x'.repeat(5000))).status).toBe(413);
    expect(events).toEqual([]);
  });
});
