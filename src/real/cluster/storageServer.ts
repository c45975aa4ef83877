// The fenced storage over HTTP on 127.0.0.1: POST /write {node, token, checkedAtMs} answers {result,
// maxTokenSeen}; a rejected write is a 200 naming the newer token (retryable: the writer was deposed).
import { createServer, type Server } from 'node:http';
import type { RealEvent } from '../model/events';
import { parseWriteRequest, type FencedStorage } from './storage';
import { closeServer, readJsonBody, sendJson } from '../candidate/jsonHttp';
import { listenOnLoopback } from './ports';

const MAX_BODY_BYTES = 4096;

export class StorageServer {
  port = 0;
  private readonly server: Server;

  constructor(
    readonly storage: FencedStorage,
    private readonly now: () => number,
    private readonly emit: (e: RealEvent) => void,
  ) {
    this.server = createServer((req, res) => {
      const reply = (status: number, body: unknown) => sendJson(res, status, body);
      if (req.method !== 'POST' || req.url !== '/write') return reply(404, { error: 'unknown endpoint' });
      void readJsonBody(req, MAX_BODY_BYTES).then((body) => {
        if (!body.ok) return reply(body.error === 'not json' ? 400 : 413, { error: body.error });
        const w = parseWriteRequest(body.value);
        if (typeof w === 'string') return reply(400, { error: 'bad write', message: w });
        const { event, violations } = this.storage.write(w, this.now());
        this.emit(event);
        for (const v of violations) this.emit(v);
        reply(200, { result: event.result, maxTokenSeen: event.maxTokenSeen });
      });
    });
  }

  async listen(): Promise<number> {
    // Idle connections stay open. Node closes them after 5 s by default, and a candidate stopped longer (the
    // pause past the TTL, the lab's central fault) would send its stale write on a connection the storage had
    // closed: it would die as a reset instead of being rejected by the storage, as the fault shows.
    this.server.keepAliveTimeout = 0;
    this.port = await listenOnLoopback(this.server);
    return this.port;
  }

  close(): Promise<void> {
    return closeServer(this.server);
  }
}
