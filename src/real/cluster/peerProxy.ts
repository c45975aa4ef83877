// A peer proxy fronts each etcd member's peer port: it names each connection's sender from X-Server-From in
// its first request head, and forwards unless the sender is cut off from this member. A link proxy fronts one
// candidate's link to a service (its etcd member, or the storage): a cut silences all its connections. A cut
// is silence, as on a real partition: the connection stays open, nothing passes (no reset to tell etcd at
// once: a request times out). Healing ends silenced connections so the client redials.
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { listenOnLoopback } from './ports';
import { classifyPeerRequest, parseRequestHead, withConnectionClose, type RequestHead } from './httpHead';

/** The one sender of a link proxy's connections. */
const LINK = 'link';

/** Bound on silenced connections held per proxy: etcd redials while cut, so they add up. */
const MAX_FROZEN = 256;

interface Link {
  client: Socket;
  upstream: Socket | null;
  /** Sender's member name; null for unlabelled requests. */
  from: string | null;
  /** Silenced: a close on one side is not passed to the other, as no packet would carry it. */
  frozen: boolean;
}

export interface PeerProxyOptions {
  upstreamPort: number;
  /** Member name for a hex member ID (from X-Server-From); absent: a link, one sender, no heads read. */
  nameOf?: (hexId: string) => string | undefined;
}

export class PeerProxy {
  port = 0;
  private server: Server;
  private readonly live = new Set<Link>();
  private readonly frozen: Link[] = [];
  private blocked: (from: string) => boolean = () => false;
  readonly counts = { peer: 0, unlabelled: 0, silenced: 0 };

  constructor(private readonly opts: PeerProxyOptions) {
    this.server = createServer((socket) => this.accept(socket));
  }

  async listen(): Promise<number> {
    this.port = await listenOnLoopback(this.server);
    return this.port;
  }

  /** Which senders cannot reach this member from now on; existing links from them fall silent. */
  setBlocked(blocked: (from: string) => boolean): void {
    this.blocked = blocked;
    for (const link of [...this.live]) if (link.from !== null && blocked(link.from)) this.freeze(link);
    // Healed senders: end their silenced connections so etcd dials afresh.
    for (let i = this.frozen.length - 1; i >= 0; i--) {
      const link = this.frozen[i];
      if (link.from === null || !blocked(link.from)) {
        this.frozen.splice(i, 1);
        destroy(link);
      }
    }
  }

  close(): Promise<void> {
    for (const link of [...this.live, ...this.frozen]) destroy(link);
    this.live.clear();
    this.frozen.length = 0;
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: Socket): void {
    client.on('error', () => client.destroy());
    const nameOf = this.opts.nameOf;
    if (!nameOf) {
      client.pause();
      return this.admit(client, LINK, Buffer.alloc(0));
    }
    let buf = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      let head: RequestHead | null;
      try {
        head = parseRequestHead(buf);
      } catch {
        client.destroy();
        return;
      }
      if (!head) return;
      client.off('data', onData);
      client.pause();
      const c = classifyPeerRequest(head);
      if (c.kind === 'unlabelled') {
        this.counts.unlabelled++;
        this.forward({ client, upstream: null, from: null, frozen: false }, withConnectionClose(buf, head));
        return;
      }
      this.counts.peer++;
      this.admit(client, nameOf(c.fromId) ?? `?${c.fromId}`, buf);
    };
    client.on('data', onData);
  }

  private admit(client: Socket, from: string, first: Buffer): void {
    const link: Link = { client, upstream: null, from, frozen: false };
    if (this.blocked(from)) this.hold(link);
    else this.forward(link, first);
  }

  private forward(link: Link, first: Buffer): void {
    const upstream = createConnection({ host: '127.0.0.1', port: this.opts.upstreamPort });
    link.upstream = upstream;
    this.live.add(link);
    const end = () => {
      if (link.frozen) return;
      this.live.delete(link);
      destroy(link);
    };
    upstream.on('error', () => upstream.destroy());
    upstream.on('close', end);
    link.client.on('close', end);
    if (first.length) upstream.write(first);
    link.client.pipe(upstream);
    upstream.pipe(link.client);
    link.client.resume();
  }

  private freeze(link: Link): void {
    this.live.delete(link);
    if (link.upstream) {
      link.client.unpipe(link.upstream);
      link.upstream.unpipe(link.client);
      link.upstream.pause();
    }
    link.client.pause();
    this.hold(link);
  }

  private hold(link: Link): void {
    this.counts.silenced++;
    link.frozen = true;
    this.frozen.push(link);
    if (this.frozen.length > MAX_FROZEN) destroy(this.frozen.shift() as Link);
  }
}

function destroy(link: Link): void {
  link.client.destroy();
  link.upstream?.destroy();
}

/** A candidate's link to a service: every connection the candidate's, all cut or none. */
export class LinkProxy extends PeerProxy {
  constructor(upstreamPort: number) {
    super({ upstreamPort });
  }

  setCut(cut: boolean): void {
    this.setBlocked(() => cut);
  }
}
