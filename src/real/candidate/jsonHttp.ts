// JSON over HTTP/1.1 on loopback with node:http, not fetch: fetch's 300 s headers timeout would end a long
// watch. Every request has a deadline: on a cut link one neither fails nor answers, it times out.
import {
  Agent,
  request,
  type ClientRequest,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http';
import { eachLine } from '../cluster/children';

export interface JsonTarget {
  port: number;
  agent: Agent;
}

export function keepAliveAgent(): Agent {
  return new Agent({ keepAlive: true, maxSockets: 16 });
}

/** POST a JSON body to 127.0.0.1 (agent false: a connection of its own). */
function post(
  target: JsonTarget,
  path: string,
  body: unknown,
  agent: Agent | false,
  signal: AbortSignal | undefined,
  onResponse: (res: IncomingMessage) => void,
): ClientRequest {
  const data = Buffer.from(JSON.stringify(body));
  const req = request(
    {
      host: '127.0.0.1',
      port: target.port,
      path,
      method: 'POST',
      agent,
      headers: { 'content-type': 'application/json', 'content-length': data.length },
      signal,
    },
    onResponse,
  );
  req.end(data);
  return req;
}

export function postJson<T>(
  target: JsonTarget,
  path: string,
  body: unknown,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const req = post(target, path, body, target.agent, signal, (res) => {
      readBody(res).then((text) => {
        clearTimeout(timer);
        let json: unknown;
        try {
          json = JSON.parse(text ?? '');
        } catch {
          return reject(new Error(`${path}: answer is not JSON (${res.statusCode})`));
        }
        if (res.statusCode !== 200) {
          const msg = (json as { message?: string; error?: string }).message ?? text;
          return reject(new Error(`${path}: ${res.statusCode} ${msg}`));
        }
        resolve(json as T);
      }, reject);
    });
    const timer = setTimeout(
      () => req.destroy(new Error(`${path}: no answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}

/** A message's body as text; null when it is longer than maxBytes (the rest is not kept). */
function readBody(res: IncomingMessage, maxBytes = Infinity): Promise<string | null> {
  return new Promise((resolve, reject) => {
    let text = '';
    res.setEncoding('utf8');
    res.on('data', (d: string) => {
      if (text.length <= maxBytes) text += d;
    });
    res.on('end', () => resolve(text.length > maxBytes ? null : text));
    res.on('error', reject);
  });
}

/** POST, read JSON lines (etcd's watch stream) till onObject returns true; reject on error, close, abort. */
export function streamJson(
  target: JsonTarget,
  path: string,
  body: unknown,
  onObject: (obj: unknown) => boolean,
  signal: AbortSignal,
): Promise<void> {
  return new Promise((resolve, reject) => {
    let done = false;
    const finish = (err?: unknown) => {
      done = true;
      req.destroy();
      if (err === undefined) resolve();
      else reject(err);
    };
    // A stream of its own connection: the keep-alive agent must not hand this socket to others.
    const req = post(target, path, body, false, signal, (res) => {
      if (res.statusCode !== 200) return finish(new Error(`${path}: ${res.statusCode}`));
      eachLine(res, (line) => {
        if (done || !line.trim()) return;
        let obj: unknown;
        try {
          obj = JSON.parse(line);
        } catch {
          return finish(new Error(`${path}: stream line is not JSON`));
        }
        try {
          if (onObject(obj)) finish();
        } catch (err) {
          finish(err);
        }
      });
      res.on('end', () => {
        if (!done) reject(new Error(`${path}: stream ended`));
      });
    });
    req.on('error', (err) => {
      if (!done) reject(err);
    });
  });
}

/** A request's body as JSON, read up to maxBytes: its value, or what is wrong with it. */
export async function readJsonBody(
  req: IncomingMessage,
  maxBytes: number,
): Promise<{ ok: true; value: unknown } | { ok: false; error: 'body too large' | 'not json' }> {
  // A request broken off in its body has nobody left to read the answer; it never rejects.
  const text = await readBody(req, maxBytes).catch(() => '');
  if (text === null) return { ok: false, error: 'body too large' };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, error: 'not json' };
  }
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: OutgoingHttpHeaders = {},
) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** Close a server now, its open connections (kept-alive ones, streams) with it. */
export function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
