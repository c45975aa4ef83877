// Free loopback ports for the etcd members (which must be told their ports before they start).
// The lab's own servers listen on port 0 and keep the port the kernel gave them instead.
import { createServer, type Server } from 'node:net';

export async function freePort(): Promise<number> {
  const server = createServer();
  const port = await listenOnLoopback(server);
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Distinct free ports: asking one at a time could hand out the same port twice. */
export async function freePorts(count: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await freePort());
  return [...ports];
}

/** Listen on a free 127.0.0.1 port (the kernel's choice); resolves to it. */
export function listenOnLoopback(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port));
  });
}
