// The bridge as the page will use it, over real HTTP on 127.0.0.1 (a backend with no etcd behind
// it): the token, the Origin and the Host are checked on every request, commands outside the
// fixed set are refused by name, and events stream as Server-Sent Events from any index.
import { request } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Bridge, type BridgeBackend } from '../../../src/real/bridge/bridge';
import type { RealCommand } from '../../../src/real/model/commands';
import type { KeepAliveReport, RealEvent } from '../../../src/real/model/events';

const ORIGIN = 'http://localhost:5173';

class Backend implements BridgeBackend {
  nodes = 3;
  applied: RealCommand[] = [];
  events: RealEvent[] = [];
  private listeners = new Set<(e: RealEvent, i: number) => void>();
  private keepAliveListeners = new Set<(k: KeepAliveReport) => void>();
  onKeepAlive(fn: (k: KeepAliveReport) => void) {
    this.keepAliveListeners.add(fn);
    return () => this.keepAliveListeners.delete(fn);
  }
  keepAlive(k: KeepAliveReport) {
    for (const fn of this.keepAliveListeners) fn(k);
  }
  apply(cmd: RealCommand) {
    this.applied.push(cmd);
    return { ok: true, target: 'n2' };
  }
  state() {
    return { leaderCount: 1 };
  }
  trace() {
    return { events: this.events };
  }
  capabilities() {
    return { backend: 'real' };
  }
  eventsFrom(index: number) {
    return this.events.slice(index).map((event, i) => ({ index: index + i, event }));
  }
  onEvent(fn: (e: RealEvent, i: number) => void) {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }
  push(e: RealEvent) {
    this.events.push(e);
    for (const fn of this.listeners) fn(e, this.events.length - 1);
  }
}

let backend: Backend;
let bridge: Bridge;

beforeEach(async () => {
  backend = new Backend();
  bridge = new Bridge(backend, ORIGIN);
  await bridge.listen();
});

afterEach(() => bridge.close());

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function call(
  method: string,
  path: string,
  opts: {
    headers?: Record<string, string>;
    body?: string;
    token?: string | null;
    origin?: string | null;
  } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...opts.headers };
  const origin = opts.origin === undefined ? ORIGIN : opts.origin;
  if (origin !== null) headers.origin = origin;
  const token = opts.token === undefined ? bridge.token : opts.token;
  if (token !== null) headers.authorization = `Bearer ${token}`;
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: bridge.port, method, path, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

const command = (body: unknown) =>
  call('POST', '/command', {
    body: typeof body === 'string' ? body : JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });

describe('bridge', () => {
  it('listens on 127.0.0.1 only, with a fresh random token per run', () => {
    expect(bridge.url).toBe(`http://127.0.0.1:${bridge.port}`);
    expect(bridge.token.length).toBeGreaterThanOrEqual(32);
    expect(new Bridge(backend, ORIGIN).token).not.toBe(bridge.token);
  });

  it('refuses a missing or wrong token, a foreign or missing Origin, and a foreign Host', async () => {
    expect(JSON.parse((await call('GET', '/state', { token: null })).body).error).toBe('bad token');
    expect((await call('GET', '/state', { token: bridge.token.slice(1) })).status).toBe(401);
    expect((await call('GET', '/state', { token: bridge.token + 'x' })).status).toBe(401);
    expect(JSON.parse((await call('GET', '/state', { origin: 'http://evil.example' })).body).error).toBe(
      'bad origin',
    );
    expect((await call('GET', '/state', { origin: null })).status).toBe(403);
    const rebound = await call('GET', '/state', { headers: { host: `evil.example:${bridge.port}` } });
    expect(JSON.parse(rebound.body).error).toBe('bad host');
    expect(backend.applied).toEqual([]);
  });

  it("answers the lab's page with CORS for its origin, and preflights without the token", async () => {
    const r = await call('GET', '/capabilities');
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body)).toEqual({ backend: 'real' });
    expect(r.headers['access-control-allow-origin']).toBe(ORIGIN);
    const pre = await call('OPTIONS', '/command', { token: null });
    expect(pre.status).toBe(204);
    expect(pre.headers['access-control-allow-headers']).toContain('authorization');
    expect(JSON.parse((await call('GET', '/trace')).body)).toEqual({ events: [] });
  });

  it('applies a command of the fixed set and refuses anything else with a named error', async () => {
    const r = await command({ do: 'kill', node: 'leader' });
    expect([r.status, JSON.parse(r.body)]).toEqual([200, { ok: true, target: 'n2' }]);
    expect(backend.applied).toEqual([{ do: 'kill', node: 'leader' }]);
    const refusals: [unknown, number, string][] = [
      [{ do: 'explode' }, 400, 'unknown command'],
      [{ do: 'clockRate', node: 'n1', rate: 2 }, 400, 'not possible for real'],
      [{ do: 'kill', node: 'n9' }, 400, 'bad field'],
      ['{not json', 400, 'not json'],
      [JSON.stringify({ do: 'heal', pad: 'x'.repeat(5000) }), 413, 'body too large'],
    ];
    for (const [body, status, error] of refusals) {
      const a = await command(body);
      expect([a.status, JSON.parse(a.body).error]).toEqual([status, error]);
    }
    expect(backend.applied).toHaveLength(1);
    expect(JSON.parse((await call('GET', '/nothing')).body).error).toBe('unknown endpoint');
    expect((await call('GET', '/command')).status).toBe(405);
  });

  it('streams the recording so far, then live events, each with its index as id', async () => {
    backend.push({ atMs: 1, type: 'campaign', node: 'n1', term: 2, preVote: false, transfer: false });
    backend.push({ atMs: 2, type: 'elected', node: 'n1', term: 2, votes: [] });
    const got = await new Promise<string>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: bridge.port,
          path: `/events?token=${encodeURIComponent(bridge.token)}&since=1`,
          headers: { origin: ORIGIN },
        },
        (res) => {
          expect(res.headers['content-type']).toBe('text/event-stream');
          let text = '';
          res.setEncoding('utf8').on('data', (d: string) => {
            text += d;
            if (text.includes('id: 2')) {
              req.destroy();
              resolve(text);
            }
          });
          setTimeout(() => backend.push({ atMs: 3, type: 'ready', node: 'n1', term: 2 }), 50);
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(got).toBe(
      'id: 1\ndata: {"atMs":2,"type":"elected","node":"n1","term":2,"votes":[]}\n\n' +
        'id: 2\ndata: {"atMs":3,"type":"ready","node":"n1","term":2}\n\n',
    );
  });

  it('streams answered keep-alives live, as events of their own without an id (not part of the record)', async () => {
    const got = await new Promise<string>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: bridge.port,
          path: `/events?token=${encodeURIComponent(bridge.token)}`,
          headers: { origin: ORIGIN },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8').on('data', (d: string) => {
            text += d;
            if (text.includes('id: 0')) {
              req.destroy();
              resolve(text);
            }
          });
          setTimeout(() => {
            backend.keepAlive({ atMs: 5, type: 'keepAlive', node: 'n2', rttMs: 3 });
            backend.push({ atMs: 6, type: 'ready', node: 'n1', term: 2 });
          }, 50);
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(got).toBe(
      'event: keepAlive\ndata: {"atMs":5,"type":"keepAlive","node":"n2","rttMs":3}\n\n' +
        'id: 0\ndata: {"atMs":6,"type":"ready","node":"n1","term":2}\n\n',
    );
  });
});
