// Small socket helpers for the proxy tests: raw HTTP exchanges on loopback.
import { createConnection, type Socket } from 'node:net';

export function connect(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = createConnection({ host: '127.0.0.1', port }, () => resolve(s));
    s.on('error', reject);
  });
}

/** Bytes received on the socket within ms (empty when nothing came). */
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

/** Resolves true if the socket closes within ms. */
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
