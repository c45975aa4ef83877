// The bridge between the lab's page and a real run: HTTP on 127.0.0.1 only. Every request must
// carry the run's random token (Authorization: Bearer, or ?token= for EventSource, which cannot
// set headers), come from the lab's own Origin, and name this server in Host (no DNS rebinding).
//   GET  /capabilities  what a real run can do, and what the page must hide
//   GET  /state         hosts, partition, storage, leader count now
//   GET  /events        Server-Sent Events: the recording so far (or from ?since= / Last-Event-ID),
//                       then live; each event's id is its index in the run. Answered
//                       keep-alives follow as `keepAlive` events without an id, live only:
//                       the page's leader renewal latency, which the record does not keep
//   POST /command       one command of the fixed set (commands.ts); 400 with a named error else
//   GET  /trace         the run as a trace file (the engine's Trace plus a `real` section)
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { parseRealCommand, type ApplyResult, type RealCommand } from '../model/commands';
import type { KeepAliveReport, RealEvent } from '../model/events';
import { closeServer, readJsonBody, sendJson } from '../candidate/jsonHttp';
import { listenOnLoopback } from '../cluster/ports';

export interface BridgeBackend {
  nodes: number;
  apply(cmd: RealCommand): ApplyResult;
  state(): unknown;
  trace(): unknown;
  capabilities(): unknown;
  eventsFrom(index: number): { index: number; event: RealEvent }[];
  onEvent(fn: (e: RealEvent, index: number) => void): () => void;
  /** Each answered keep-alive, as it comes (not part of the record: see events.ts). */
  onKeepAlive?(fn: (k: KeepAliveReport) => void): () => void;
}

const MAX_BODY_BYTES = 4096;
const MAX_STREAMS = 8;
/** A stream whose reader falls this far behind is closed; it reconnects with Last-Event-ID. */
const MAX_STREAM_BACKLOG_BYTES = 1 << 20;
const KEEP_ALIVE_MS = 15_000;

export class Bridge {
  readonly token: string;
  port = 0;
  private readonly server: Server;
  private readonly streams = new Set<ServerResponse>();

  constructor(
    private readonly backend: BridgeBackend,
    private readonly origin: string,
    token?: string,
  ) {
    this.token = token ?? randomBytes(24).toString('base64url');
    this.server = createServer((req, res) => this.handle(req, res));
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async listen(): Promise<number> {
    this.port = await listenOnLoopback(this.server);
    return this.port;
  }

  close(): Promise<void> {
    for (const s of this.streams) s.end();
    return closeServer(this.server);
  }

  /** An error answer, named for the page to switch on (bad host, bad token, not json...). */
  private fail(res: ServerResponse, status: number, error: string, message: string, field?: string): void {
    sendJson(res, status, { error, message, ...(field ? { field } : {}) });
  }

  private json(res: ServerResponse, body: unknown): void {
    sendJson(res, 200, body, { 'cache-control': 'no-store' });
  }

  private tokenOk(req: IncomingMessage, url: URL): boolean {
    const header = req.headers.authorization;
    const given = header?.startsWith('Bearer ') ? header.slice(7) : (url.searchParams.get('token') ?? '');
    const a = Buffer.from(given);
    const b = Buffer.from(this.token);
    return a.length === b.length && timingSafeEqual(a, b);
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const host = req.headers.host ?? '';
    if (host !== `127.0.0.1:${this.port}` && host !== `localhost:${this.port}`)
      return this.fail(res, 403, 'bad host', 'the bridge answers only to 127.0.0.1 or localhost');
    if (req.headers.origin !== this.origin)
      return this.fail(res, 403, 'bad origin', `only the lab's page (${this.origin}) may use the bridge`);
    res.setHeader('Access-Control-Allow-Origin', this.origin);
    res.setHeader('Vary', 'Origin');
    const url = new URL(req.url ?? '/', this.url);
    if (req.method === 'OPTIONS') {
      // CORS preflight for POST /command: no token in a preflight, and nothing is done.
      res.writeHead(204, {
        'Access-Control-Allow-Methods': 'GET, POST',
        'Access-Control-Allow-Headers': 'authorization, content-type, last-event-id',
        'Access-Control-Max-Age': '600',
      });
      return void res.end();
    }
    if (!this.tokenOk(req, url))
      return this.fail(res, 401, 'bad token', "the run's token is missing or wrong");
    const routes: Record<string, () => void> = {
      'GET /capabilities': () => this.json(res, this.backend.capabilities()),
      'GET /state': () => this.json(res, this.backend.state()),
      'GET /trace': () => this.json(res, this.backend.trace()),
      'GET /events': () => this.stream(req, res, url),
      'POST /command': () => void this.command(req, res),
    };
    const route = routes[`${req.method} ${url.pathname}`];
    if (route) return route();
    if (Object.keys(routes).some((r) => r.endsWith(` ${url.pathname}`)))
      return this.fail(res, 405, 'method not allowed', `${req.method} is not allowed on ${url.pathname}`);
    return this.fail(res, 404, 'unknown endpoint', `no endpoint ${url.pathname}`);
  }

  private async command(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readJsonBody(req, MAX_BODY_BYTES);
    if (!body.ok && body.error === 'body too large')
      return this.fail(res, 413, body.error, `a command is at most ${MAX_BODY_BYTES} bytes`);
    if (!body.ok) return this.fail(res, 400, body.error, 'the body must be one JSON object');
    const parsed = parseRealCommand(body.value, this.backend.nodes);
    if (!parsed.ok) return this.fail(res, 400, parsed.error.error, parsed.error.message, parsed.error.field);
    const r = this.backend.apply(parsed.command);
    if (!r.ok) return this.fail(res, 409, r.error?.error ?? 'not applied', r.error?.message ?? '');
    this.json(res, r);
  }

  private stream(req: IncomingMessage, res: ServerResponse, url: URL): void {
    if (this.streams.size >= MAX_STREAMS)
      return this.fail(res, 503, 'too many streams', `at most ${MAX_STREAMS} event streams at once`);
    const last = req.headers['last-event-id'];
    const since =
      typeof last === 'string' && /^\d+$/.test(last)
        ? Number(last) + 1
        : Number(url.searchParams.get('since') ?? 0) || 0;
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-store',
      connection: 'keep-alive',
    });
    // Open the stream now: Node holds the head until the first write; EventSource counts as connected on it.
    res.flushHeaders();
    this.streams.add(res);
    // A lagging reader is cut off (it reconnects from its last id); no write after end: Node throws.
    const write = (text: string) => {
      if (res.writableEnded || res.destroyed) return;
      res.write(text);
      if (res.writableLength > MAX_STREAM_BACKLOG_BYTES) res.end();
    };
    const frame = (index: number, e: RealEvent) => `id: ${index}\ndata: ${JSON.stringify(e)}\n\n`;
    // The recording so far goes in one write (the run bounds it): the limit is for a slow live reader.
    const backlog = this.backend.eventsFrom(since).map(({ index, event }) => frame(index, event));
    if (backlog.length) res.write(backlog.join(''));
    const off = this.backend.onEvent((e, index) => write(frame(index, e)));
    const offKeepAlive = this.backend.onKeepAlive?.((k) =>
      write(`event: keepAlive\ndata: ${JSON.stringify(k)}\n\n`),
    );
    const ping = setInterval(() => write(': keep-alive\n\n'), KEEP_ALIVE_MS);
    const end = () => {
      off();
      offKeepAlive?.();
      clearInterval(ping);
      this.streams.delete(res);
    };
    res.on('close', end);
    res.on('finish', end);
  }
}
