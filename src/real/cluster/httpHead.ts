// A peer connection's first request head. etcd labels every raft request with X-Server-From (sender's member
// ID); requests without it (version checks, probes) come from shared transports whose connection Go would
// reuse for raft, so they are forwarded with `Connection: close`: both sides drop it after one exchange.

/** Bound on a request head: etcd's are a few hundred bytes; anything larger is not a peer. */
const MAX_HEAD_BYTES = 16 * 1024;

export interface RequestHead {
  method: string;
  path: string;
  headers: Map<string, string>;
  /** Bytes of the head including the blank line. */
  length: number;
}

/** The head at the start of buf, null while incomplete; throws on a malformed or oversized head. */
export function parseRequestHead(buf: Buffer): RequestHead | null {
  const end = buf.indexOf('\r\n\r\n');
  if (end < 0) {
    if (buf.length > MAX_HEAD_BYTES) throw new Error('request head too large');
    return null;
  }
  const lines = buf.subarray(0, end).toString('latin1').split('\r\n');
  const [method, path, version] = lines[0].split(' ');
  if (!method || !path || !version?.startsWith('HTTP/')) throw new Error('not an HTTP request');
  const headers = new Map<string, string>();
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw new Error('malformed header line');
    headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { method, path, headers, length: end + 4 };
}

export type PeerClass = { kind: 'peer'; fromId: string } | { kind: 'unlabelled' };

export function classifyPeerRequest(head: RequestHead): PeerClass {
  const from = head.headers.get('x-server-from');
  return from ? { kind: 'peer', fromId: from.toLowerCase() } : { kind: 'unlabelled' };
}

/** The same head with any Connection header replaced by `Connection: close`. */
export function withConnectionClose(buf: Buffer, head: RequestHead): Buffer {
  const lines = buf
    .subarray(0, head.length - 4)
    .toString('latin1')
    .split('\r\n')
    .filter((line, i) => i === 0 || !/^connection\s*:/i.test(line));
  lines.push('Connection: close');
  return Buffer.concat([Buffer.from(lines.join('\r\n') + '\r\n\r\n', 'latin1'), buf.subarray(head.length)]);
}
