// A plain TCP proxy for one candidate's link to a service (its etcd member, or the storage).
// Cutting it silences every connection, as a partition would: requests neither fail nor arrive,
// they time out. Healing ends the silenced connections so the client reconnects.
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { listenOnLoopback } from './ports';

const MAX_HELD = 256;

interface Pair {
  client: Socket;
  upstream: Socket;
}

export class LinkProxy {
  port = 0;
  private readonly server: Server;
  private readonly pairs = new Set<Pair>();
  private readonly held: Socket[] = [];
  private cut = false;

  constructor(private readonly upstreamPort: number) {
    this.server = createServer((socket) => this.accept(socket));
  }

  async listen(): Promise<number> {
    this.port = await listenOnLoopback(this.server);
    return this.port;
  }

  get isCut(): boolean {
    return this.cut;
  }

  setCut(cut: boolean): void {
    if (cut === this.cut) return;
    this.cut = cut;
    if (cut) {
      for (const p of this.pairs) {
        p.client.unpipe(p.upstream);
        p.upstream.unpipe(p.client);
        p.client.pause();
        p.upstream.pause();
        this.hold(p.client);
        this.hold(p.upstream);
      }
      this.pairs.clear();
    } else {
      for (const s of this.held.splice(0)) s.destroy();
    }
  }

  close(): Promise<void> {
    for (const p of this.pairs) {
      p.client.destroy();
      p.upstream.destroy();
    }
    for (const s of this.held.splice(0)) s.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: Socket): void {
    client.on('error', () => client.destroy());
    if (this.cut) {
      client.pause();
      this.hold(client);
      return;
    }
    const upstream = createConnection({ host: '127.0.0.1', port: this.upstreamPort });
    upstream.on('error', () => upstream.destroy());
    const pair: Pair = { client, upstream };
    this.pairs.add(pair);
    const end = () => {
      // A silenced pair stays as it is until the link heals: no close crosses a cut.
      if (!this.pairs.delete(pair)) return;
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end);
    upstream.on('close', end);
    client.pipe(upstream);
    upstream.pipe(client);
  }

  private hold(socket: Socket): void {
    this.held.push(socket);
    if (this.held.length > MAX_HELD) this.held.shift()?.destroy();
  }
}
