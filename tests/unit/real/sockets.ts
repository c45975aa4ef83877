// Small socket helpers for the proxy tests: raw HTTP exchanges on loopback.
import { createConnection, type Socket } from 'node:net';

export function connect(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = createConnection({ host: '127.0.0.1', port }, () => resolve(s));
    s.on('error', reject);
  });
}

/** Bytes received on the socket within ms (empty when nothing came): for what must not arrive. */
export function readFor(s: Socket, ms: number): Promise<string> {
  return new Promise((resolve) => {
    let got = '';
    const on = (d: Buffer) => (got += d.toString('latin1'));
    s.on('data', on);
    setTimeout(() => {
      s.off('data', on);
      resolve(got);
    }, ms);
  });
}

/**
 * Bytes received on the socket until they contain `want`, or all that came within ms if they never
 * do: a reply the test waits for ends the wait as soon as it is whole, however loaded the machine.
 */
export function readUntil(s: Socket, want: string | RegExp, ms = 3000): Promise<string> {
  return new Promise((resolve) => {
    let got = '';
    const done = () => {
      clearTimeout(t);
      s.off('data', on);
      resolve(got);
    };
    const on = (d: Buffer) => {
      got += d.toString('latin1');
      if (typeof want === 'string' ? got.includes(want) : want.test(got)) done();
    };
    const t = setTimeout(done, ms);
    s.on('data', on);
  });
}

/** Resolves true if the socket closes within ms (a close the test expects may take WAIT_CLOSE_MS). */
export function closesWithin(s: Socket, ms: number): Promise<boolean> {
  if (s.destroyed || s.readyState === 'closed') return Promise.resolve(true);
  return new Promise((resolve) => {
    const t = setTimeout(() => resolve(false), ms);
    s.once('close', () => {
      clearTimeout(t);
      resolve(true);
    });
  });
}

export const get = (path: string, headers: Record<string, string> = {}) =>
  `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}\r\n`;

/** How long a close the test expects may take: it resolves at the close, so only a failure waits this long. */
export const WAIT_CLOSE_MS = 3000;
