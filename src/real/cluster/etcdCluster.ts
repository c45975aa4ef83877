// The etcd cluster: one member per lab host (mK on nK), each behind a peer proxy, on loopback ports, data in
// the run folder. Members log in JSON (zap) to stderr; their raft role changes become events. Faults act on a
// member by its PID (SIGKILL, SIGSTOP, SIGCONT); a restart reuses its data, as a rebooted host would.
import { join } from 'node:path';
import { eachLine, type Children } from './children';
import { parseEtcdLogLine } from './etcdLog';
import { processEvent, type MemberRoleEvent, type RealEvent } from '../model/events';
import { decimalIdToHex, memberIdHex } from './memberId';
import { PeerProxy } from './peerProxy';
import { freePorts } from './ports';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface ClusterOptions {
  etcdBin: string;
  size: number;
  heartbeatMs: number;
  electionMs: number;
  preVote: boolean;
  runDir: string;
  children: Children;
  runStartEpochMs: number;
  emit: (e: RealEvent) => void;
}

export interface Member {
  name: string;
  node: string;
  clientPort: number;
  peerPort: number;
  proxy: PeerProxy;
  idHex: string;
  /** Last log lines, for error messages (bounded). */
  recentLog: string[];
  role: MemberRoleEvent['role'] | 'down';
  term: number;
  paused: boolean;
}

const RECENT_LOG_LINES = 40;

type Raft = Pick<ClusterOptions, 'heartbeatMs' | 'electionMs' | 'preVote'>;
type Named = { name: string; peerUrl: string };

/** A new cluster's member's command line; the others reach it at its advertised peerUrl. */
export function etcdArgs(
  m: Named & { dataDir: string; clientPort: number; peerPort: number },
  cluster: Raft & { members: Named[] },
  token: string,
): string[] {
  const client = `http://127.0.0.1:${m.clientPort}`;
  return [
    `--name=${m.name}`,
    `--data-dir=${m.dataDir}`,
    `--listen-client-urls=${client}`,
    `--advertise-client-urls=${client}`,
    `--listen-peer-urls=http://127.0.0.1:${m.peerPort}`,
    `--initial-advertise-peer-urls=${m.peerUrl}`,
    `--initial-cluster=${cluster.members.map((x) => `${x.name}=${x.peerUrl}`).join(',')}`,
    '--initial-cluster-state=new',
    `--initial-cluster-token=${token}`,
    `--heartbeat-interval=${cluster.heartbeatMs}`,
    `--election-timeout=${cluster.electionMs}`,
    `--pre-vote=${cluster.preVote}`,
    '--logger=zap',
    '--log-outputs=stderr',
  ];
}

export class EtcdCluster {
  readonly members: Member[] = [];
  private readonly nameById = new Map<string, string>();
  private readonly token: string;

  constructor(private readonly o: ClusterOptions) {
    // The cluster token is part of every member ID: unique per run, so no stale peer can join.
    this.token = `lel-${process.pid}-${o.runStartEpochMs}`;
  }

  /** etcd writes IDs without leading zeros (in X-Server-From and in raft's logs): pad them. */
  nameOf = (hexId: string): string | undefined => this.nameById.get(hexId.toLowerCase().padStart(16, '0'));

  member(name: string): Member {
    const m = this.members.find((x) => x.name === name);
    if (!m) throw new Error(`no member ${name}`);
    return m;
  }

  async start(timeoutMs = 30_000): Promise<void> {
    // Proxies listen first on kernel-picked ports; members' ports lie outside that range (freePorts).
    const proxies: { proxy: PeerProxy; opts: { upstreamPort: number } }[] = [];
    for (let i = 0; i < this.o.size; i++) {
      const opts = { upstreamPort: 0, nameOf: this.nameOf };
      const proxy = new PeerProxy(opts);
      await proxy.listen();
      proxies.push({ proxy, opts });
    }
    const ports = await freePorts(this.o.size * 2);
    for (let i = 0; i < this.o.size; i++) {
      const name = `m${i + 1}`;
      const peerPort = ports[2 * i + 1];
      const { proxy, opts } = proxies[i];
      // Read by the proxy when a peer connects, which is after its member starts below.
      opts.upstreamPort = peerPort;
      this.members.push({
        name,
        node: `n${i + 1}`,
        clientPort: ports[2 * i],
        peerPort,
        proxy,
        idHex: memberIdHex([this.peerUrl(proxy)], this.token),
        recentLog: [],
        role: 'down',
        term: 0,
        paused: false,
      });
    }
    for (const m of this.members) this.nameById.set(m.idHex, m.name);
    // One member at a time, each serving its peers before the next starts. A new member first asks the
    // others' peer URLs whether the cluster exists (GET /members, 1 s timeout each); a member listening but
    // not yet serving holds that request for the whole timeout: all at once takes 2 s, this way 0.1 s each.
    const deadline = Date.now() + timeoutMs;
    for (const m of this.members) {
      this.spawn(m);
      await this.waitServingPeers(m, deadline);
    }
    await this.waitHealthy(this.members, Math.max(0, deadline - Date.now()));
    await this.checkIds();
  }

  private peerUrl(proxy: PeerProxy): string {
    return `http://127.0.0.1:${proxy.port}`;
  }

  private spawn(m: Member): void {
    const args = etcdArgs(
      { ...m, dataDir: join(this.o.runDir, m.name), peerUrl: this.peerUrl(m.proxy) },
      { ...this.o, members: this.members.map((x) => ({ name: x.name, peerUrl: this.peerUrl(x.proxy) })) },
      this.token,
    );
    const child = this.o.children.spawn(m.name, this.o.etcdBin, args, {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    m.paused = false;
    this.o.emit(processEvent(this.now(), m.node, 'member', 'started'));
    eachLine(child.process.stderr, (line) => this.onLogLine(m, line));
    void child.exited.then(({ code, signal }) => {
      m.role = 'down';
      m.paused = false;
      this.o.emit(processEvent(this.now(), m.node, 'member', 'exited', { code, signal }));
    });
  }

  private onLogLine(m: Member, line: string): void {
    m.recentLog.push(line);
    if (m.recentLog.length > RECENT_LOG_LINES) m.recentLog.shift();
    const e = parseEtcdLogLine(line, {
      member: m.name,
      nameOf: this.nameOf,
      runStartEpochMs: this.o.runStartEpochMs,
    });
    if (!e) return;
    if (e.type === 'member') {
      m.role = e.role;
      m.term = e.term;
    }
    this.o.emit(e);
  }

  private now(): number {
    return Date.now() - this.o.runStartEpochMs;
  }

  isRunning(m: Member): boolean {
    return this.o.children.running().some((c) => c.name === m.name);
  }

  /** A member that exited while it was waited for fails the wait, with its last log lines. */
  private checkRunning(m: Member): void {
    if (!this.isRunning(m))
      throw new Error(`etcd member ${m.name} exited:\n${m.recentLog.slice(-10).join('\n')}`);
  }

  /** The member that last said it became raft leader, in the highest term, if it is running. */
  raftLeader(): Member | null {
    const leaders = this.members.filter((m) => m.role === 'leader' && this.isRunning(m));
    return leaders.reduce<Member | null>((top, m) => (!top || m.term > top.term ? m : top), null);
  }

  kill(m: Member): boolean {
    return this.o.children.signal(m.name, 'SIGKILL');
  }

  restart(m: Member): boolean {
    if (this.isRunning(m)) return false;
    this.spawn(m);
    return true;
  }

  pause(m: Member): boolean {
    if (!this.isRunning(m) || m.paused) return false;
    m.paused = this.o.children.signal(m.name, 'SIGSTOP');
    return m.paused;
  }

  resume(m: Member): boolean {
    if (!m.paused) return false;
    m.paused = false;
    return this.o.children.signal(m.name, 'SIGCONT');
  }

  /** groupOf(member name) -> group number; members in different groups cannot reach each other. */
  setGroups(groupOf: ((member: string) => number) | null): void {
    for (const m of this.members)
      m.proxy.setBlocked(groupOf ? (from) => groupOf(from) !== groupOf(m.name) : () => false);
  }

  private async waitServingPeers(m: Member, deadline: number): Promise<void> {
    for (;;) {
      try {
        const r = await fetch(`http://127.0.0.1:${m.peerPort}/version`, { signal: AbortSignal.timeout(500) });
        if (r.ok) return;
      } catch {
        // not serving yet
      }
      this.checkRunning(m);
      if (Date.now() > deadline) throw new Error(`etcd member ${m.name} did not serve its peers in time`);
      await sleep(20);
    }
  }

  async waitHealthy(members: Member[], timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    const pending = new Set(members);
    while (pending.size > 0) {
      for (const m of [...pending]) if (await healthy(m.clientPort)) pending.delete(m);
      if (pending.size === 0) return;
      for (const m of pending) this.checkRunning(m);
      if (Date.now() > deadline) {
        const names = [...pending].map((m) => m.name).join(', ');
        const last = [...pending][0].recentLog.slice(-10).join('\n');
        throw new Error(`etcd not healthy after ${timeoutMs} ms: ${names}\n${last}`);
      }
      await sleep(50);
    }
  }

  /** The IDs the proxies use were computed; the cluster's own list is the authority. */
  private async checkIds(): Promise<void> {
    const r = await fetch(`http://127.0.0.1:${this.members[0].clientPort}/v3/cluster/member/list`, {
      method: 'POST',
      body: '{}',
      signal: AbortSignal.timeout(2000),
    });
    const list = (await r.json()) as { members?: { ID: string; name: string }[] };
    for (const x of list.members ?? []) {
      const hex = decimalIdToHex(x.ID);
      if (this.nameById.get(hex) !== x.name)
        throw new Error(`member ${x.name} has ID ${hex}, not the computed one: peer cuts would miss it`);
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.members.map((m) => m.proxy.close()));
  }
}

async function healthy(port: number): Promise<boolean> {
  try {
    const r = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(500) });
    const body = (await r.json()) as { health?: string };
    return body.health === 'true';
  } catch {
    return false;
  }
}
