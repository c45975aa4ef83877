// A candidate's link proxy on real loopback sockets: bytes pass both ways; a cut silences open
// and new connections without closing them (requests time out, as across a partition); healing
// closes the silenced ones so the client reconnects.
import { createServer, type Server } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LinkProxy } from '../../../src/real/cluster/peerProxy';
import { closesWithin, connect, readFor, readUntil, WAIT_CLOSE_MS } from './sockets';

let echo: Server;
let link: LinkProxy;

beforeEach(async () => {
  echo = createServer((s) => s.pipe(s));
  await new Promise<void>((r) => echo.listen(0, '127.0.0.1', () => r()));
  link = new LinkProxy((echo.address() as { port: number }).port);
  await link.listen();
});

afterEach(async () => {
  await link.close();
  await new Promise((r) => echo.close(r));
});

describe('link proxy', () => {
  it('passes bytes both ways', async () => {
    const s = await connect(link.port);
    s.write('ping');
    expect(await readUntil(s, 'ping')).toBe('ping');
    s.destroy();
  });

  it('a cut silences open and new connections, and healing closes them', async () => {
    const open = await connect(link.port);
    open.write('a');
    await readUntil(open, 'a');
    link.setCut(true);
    open.write('b');
    expect(await readFor(open, 250)).toBe('');
    const fresh = await connect(link.port);
    fresh.write('c');
    expect(await readFor(fresh, 250)).toBe('');
    expect(await closesWithin(open, 50)).toBe(false);
    link.setCut(false);
    expect(await closesWithin(open, WAIT_CLOSE_MS)).toBe(true);
    expect(await closesWithin(fresh, WAIT_CLOSE_MS)).toBe(true);
    const after = await connect(link.port);
    after.write('d');
    expect(await readUntil(after, 'd')).toBe('d');
    after.destroy();
  });
});
