// Free loopback ports for the etcd members (told before they start); the lab's servers listen on port 0.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';

/** The kernel's ephemeral range, from which it picks for listen(0) and outgoing connections. */
function ephemeralRange(): [number, number] {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/);
    if (Number(low) > 0 && Number(high) >= Number(low)) return [Number(low), Number(high)];
  } catch {
    // Not Linux: the range IANA suggests, which most other kernels use.
  }
  return [49152, 65535];
}

/**
 * Distinct free ports outside the ephemeral range, each checked by listening on it once: one from that range
 * could go to an outgoing connection or another listen(0) before etcd binds it ("address already in use").
 */
export async function freePorts(count: number): Promise<number[]> {
  const [low, high] = ephemeralRange();
  // Below the range where it leaves room (Linux: 10000-32767), else above it.
  const [from, to] = low - 10_000 > 1_000 ? [10_000, low - 1] : [high + 1, 65_535];
  const ports: number[] = [];
  let port = from + Math.floor(Math.random() * (to - from + 1));
  for (let tried = 0; ports.length < count && tried <= to - from; tried++) {
    port = port >= to ? from : port + 1;
    if (await canListen(port)) ports.push(port);
  }
  if (ports.length < count) throw new Error(`no ${count} free ports between ${from} and ${to}`);
  return ports;
}

function canListen(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** Listen on a free 127.0.0.1 port (the kernel's choice); resolves to it. */
export function listenOnLoopback(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port));
  });
}
