// A real run: a 3-member etcd cluster (member mK on host nK, behind a peer proxy), one candidate process per
// host (cK, reaching its member and the storage through link proxies), the fenced storage, and the commands
// that put faults on them. Events from every part are stamped in ms since the start, folded into the run's
// state, kept (bounded) for the trace, and passed to listeners (the CLI's printer, the bridge).
import { execFileSync } from 'node:child_process';
import type { Sample } from '../../engine';
import type { BridgeBackend } from '../bridge/bridge';
import { CandidateProcess } from './candidateProcess';
import { Children } from './children';
import {
  parseRealCommand,
  type ApplyResult,
  type Part,
  type RealCommand,
  type RealFault,
} from '../model/commands';
import { findEtcd, INSTALL_HINT } from './etcdBinary';
import { EtcdCluster } from './etcdCluster';
import { processEvent, type CandidateOutput, type KeepAliveReport, type RealEvent } from '../model/events';
import { hostOfMember, RunFold } from '../model/fold';
import { NetworkPlan } from '../model/network';
import { cleanLeftovers, defaultPidDir } from './pidfiles';
import { makeRunDir, removeRunDir } from './runDir';
import { checkSettings, DEFAULT_SETTINGS, keepAliveEveryMs, type RunSettings } from '../model/settings';
import { FencedStorage } from './storage';
import { StorageServer } from './storageServer';
import { capabilities } from '../model/capabilities';
import { buildTrace, type RealTrace } from '../model/trace';

export class EtcdMissingError extends Error {
  constructor() {
    super(INSTALL_HINT);
  }
}

const ELECTION_PREFIX = 'lab-election';

/** What start() makes first, before it spawns anything: the run's folder and its children. */
interface Workspace {
  runDir: string;
  children: Children;
}

/** What a command acts on: everything start() made, once it has finished. */
interface Started extends Workspace {
  cluster: EtcdCluster;
  storage: FencedStorage;
  hosts: readonly CandidateProcess[];
}

/** A command that names a host (resolved to one before it is carried out), and one that does not. */
type HostCommand = Extract<RealCommand, { node: string }>;
type NetworkCommand = Exclude<RealCommand, HostCommand>;

export class RealRun implements BridgeBackend {
  readonly settings: RunSettings;
  readonly pidDir: string;
  runStartEpochMs = 0;
  /** When every etcd member answered healthy, in ms since the start. */
  healthyAtMs = 0;
  /** When everything was started (candidates spawned, not yet campaigning), in ms since the start. */
  startupMs = 0;
  etcdVersion = '';
  /** From start() on; null before it. */
  private workspace: Workspace | null = null;
  /** From the end of start() on; null before, and when start failed (stop() ends the commands). */
  private started: Started | null = null;
  /** Every part start() made, as it made it, for stop() to close (a failed start made only some). */
  private etcd: EtcdCluster | null = null;
  private storageServer: StorageServer | null = null;
  private readonly hosts: CandidateProcess[] = [];
  private network: NetworkPlan;
  readonly fold: RunFold;
  private readonly events: RealEvent[] = [];
  private eventsDropped = 0;
  private readonly samples: Sample[] = [];
  private readonly commands: { fault: RealFault; target: string | undefined; skipped: boolean }[] = [];
  private readonly listeners = new Set<(e: RealEvent, index: number) => void>();
  private readonly keepAliveListeners = new Set<(k: KeepAliveReport) => void>();
  private readonly resumeTimers = new Set<ReturnType<typeof setTimeout>>();
  private sampler: ReturnType<typeof setInterval> | null = null;
  private stopped = false;
  private readonly onExit = () => this.killAllSync();

  constructor(settings: Partial<RunSettings> = {}, opts: { pidDir?: string } = {}) {
    this.settings = { ...DEFAULT_SETTINGS, ...settings };
    const errors = checkSettings(this.settings);
    if (errors.length) throw new Error(`invalid settings:\n  ${errors.join('\n  ')}`);
    this.pidDir = opts.pidDir ?? defaultPidDir();
    const ids = Array.from({ length: this.settings.nodes }, (_, i) => `n${i + 1}`);
    this.network = new NetworkPlan(ids);
    this.fold = new RunFold(
      ids,
      { quorum: true, fencing: this.settings.fencing },
      keepAliveEveryMs(this.settings),
    );
  }

  get cluster(): EtcdCluster | null {
    return this.started?.cluster ?? null;
  }

  get nodes(): number {
    return this.settings.nodes;
  }

  capabilities() {
    return capabilities(this.settings);
  }

  nowMs(): number {
    return Date.now() - this.runStartEpochMs;
  }

  /** Listen to every event from now on; index counts every event of the run from 0. */
  onEvent(fn: (e: RealEvent, index: number) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Listen to every answered keep-alive (not kept: the page folds them into renewal latency). */
  onKeepAlive(fn: (k: KeepAliveReport) => void): () => void {
    this.keepAliveListeners.add(fn);
    return () => this.keepAliveListeners.delete(fn);
  }

  /** The kept events from the given index on (older ones may have been dropped: see the bound). */
  eventsFrom(index: number): { index: number; event: RealEvent }[] {
    const first = Math.max(index, this.eventsDropped);
    return this.events.slice(first - this.eventsDropped).map((event, i) => ({ index: first + i, event }));
  }

  /** Start everything; resolves when etcd is healthy and the candidates are started. */
  async start(): Promise<{ leftovers: number }> {
    const cleaned = cleanLeftovers(this.pidDir);
    const etcdBin = findEtcd();
    if (!etcdBin) throw new EtcdMissingError();
    this.etcdVersion = etcdVersionOf(etcdBin);
    const runDir = makeRunDir();
    const workspace: Workspace = { runDir, children: new Children(this.pidDir, runDir) };
    this.workspace = workspace;
    process.on('exit', this.onExit);
    this.runStartEpochMs = Date.now();
    try {
      const storage = new FencedStorage(() => this.fold.highestTokenIssued);
      storage.fencing = this.settings.fencing;
      const storageServer = new StorageServer(
        storage,
        () => this.nowMs(),
        (e) => this.emit(e),
      );
      this.storageServer = storageServer;
      await storageServer.listen();
      const cluster = new EtcdCluster({
        etcdBin,
        size: this.settings.nodes,
        heartbeatMs: this.settings.heartbeatMs,
        electionMs: this.settings.electionMs,
        preVote: this.settings.preVote,
        runDir,
        children: workspace.children,
        runStartEpochMs: this.runStartEpochMs,
        emit: (e) => this.emit(e),
      });
      this.etcd = cluster;
      await cluster.start();
      this.healthyAtMs = this.nowMs();
      for (const m of cluster.members)
        this.hosts.push(await CandidateProcess.create(m.node, m.clientPort, storageServer.port));
      for (const h of this.hosts) this.spawnCandidate(workspace, h);
      this.startupMs = this.nowMs();
      this.sampler = setInterval(() => this.takeSample(), this.settings.sampleEveryMs);
      this.started = { ...workspace, cluster, storage, hosts: this.hosts };
    } catch (err) {
      await this.stop();
      throw err;
    }
    return { leftovers: cleaned.killed.length };
  }

  private spawnCandidate(ws: Workspace, h: CandidateProcess): void {
    h.spawn(
      ws.children,
      ws.runDir,
      {
        node: h.id,
        prefix: ELECTION_PREFIX,
        ttlMs: this.settings.ttlMs,
        renewDeadlineMs: this.settings.renewDeadlineMs,
        warmUpMs: this.settings.warmUpMs,
        writeEveryMs: this.settings.writeEveryMs,
        retryMs: Math.min(200, keepAliveEveryMs(this.settings)),
        requestTimeoutMs: Math.min(this.settings.requestTimeoutMs, keepAliveEveryMs(this.settings)),
        runStartEpochMs: this.runStartEpochMs,
      },
      {
        output: (o) => this.onCandidateOutput(o),
        exited: (code, signal) => {
          // A leader that dies believes nothing any more: the engine's "killed" step-down.
          const folded = this.fold.host(h.id);
          const atMs = this.nowMs();
          if (folded?.role === 'leader')
            this.emit({ atMs, type: 'steppedDown', node: h.id, term: folded.token, reason: 'killed' });
          this.emit(processEvent(atMs, h.id, 'candidate', 'exited', { code, signal }));
        },
      },
    );
    this.emit(processEvent(this.nowMs(), h.id, 'candidate', 'started'));
  }

  private onCandidateOutput(out: CandidateOutput): void {
    if (out.type === 'keepAlive') {
      this.fold.keepAlive(out);
      for (const fn of this.keepAliveListeners) fn(out);
    } else this.emit(out);
  }

  private emit(e: RealEvent): void {
    this.fold.apply(e);
    this.events.push(e);
    if (this.events.length > this.settings.maxEvents) {
      // As the engine does: the older half goes.
      const drop = Math.floor(this.settings.maxEvents / 2);
      this.events.splice(0, drop);
      this.eventsDropped += drop;
    }
    const index = this.eventsDropped + this.events.length - 1;
    for (const fn of this.listeners) fn(e, index);
  }

  private takeSample(): void {
    this.samples.push(this.fold.sample(this.nowMs()));
    if (this.samples.length > this.settings.maxSamples)
      this.samples.splice(0, Math.floor(this.settings.maxSamples / 2));
  }

  /** Apply one command (validated here: the bridge and the CLI pass what they received). */
  apply(input: unknown): ApplyResult {
    const parsed = parseRealCommand(input, this.settings.nodes);
    if (!parsed.ok) return { ok: false, error: parsed.error };
    const run = this.started;
    if (!run || this.stopped)
      return { ok: false, error: { error: 'not running', message: 'the run has not started or has ended' } };
    const cmd = parsed.command;
    const fault: RealFault = { ...cmd, atMs: this.nowMs() };
    // A host that resolves to none (no leader now, say) is a command skipped, as the engine skips it.
    const h = 'node' in cmd ? this.resolve(run, cmd.node) : null;
    const done =
      'node' in cmd ? h !== null && this.performOnHost(run, cmd, h) : this.performOnNetwork(run, cmd);
    const target = h?.id;
    this.commands.push({ fault, target, skipped: !done });
    this.emit({
      atMs: fault.atMs,
      type: 'fault',
      fault,
      target,
      ...(done ? {} : { skipped: true }),
      live: true,
    });
    if (h && done && cmd.do === 'pause' && cmd.forMs !== undefined) {
      const part = cmd.part ?? 'candidate';
      const t = setTimeout(() => {
        this.resumeTimers.delete(t);
        this.signalParts(run, h, part, false);
      }, cmd.forMs);
      this.resumeTimers.add(t);
    }
    return { ok: true, ...(target ? { target } : {}), ...(done ? {} : { skipped: true }) };
  }

  /** The host a command names: nK itself, the application leader's, or the raft leader's; null when none. */
  private resolve(run: Started, ref: string): CandidateProcess | null {
    const id =
      ref === 'leader'
        ? this.fold.topLeader()?.id
        : ref === 'raftLeader'
          ? run.cluster.raftLeader()?.node
          : ref;
    return run.hosts.find((h) => h.id === id) ?? null;
  }

  private memberOf(run: Started, h: CandidateProcess) {
    return run.cluster.member(`m${h.id.slice(1)}`);
  }

  /** Carry out a validated command on host h; false when it changed nothing (the engine's "skipped"). */
  private performOnHost(run: Started, cmd: HostCommand, h: CandidateProcess): boolean {
    switch (cmd.do) {
      case 'kill': {
        const part = cmd.part ?? 'candidate';
        const candidate = part !== 'member' && h.signal(run.children, 'SIGKILL');
        const member = part !== 'candidate' && run.cluster.kill(this.memberOf(run, h));
        return candidate || member;
      }
      case 'restart': {
        const part = cmd.part ?? 'host';
        const member = part !== 'candidate' && run.cluster.restart(this.memberOf(run, h));
        const candidate = part !== 'member' && !h.running;
        if (candidate) this.spawnCandidate(run, h);
        return member || candidate;
      }
      case 'pause':
        return this.signalParts(run, h, cmd.part ?? 'candidate', true);
      case 'resume':
        return this.signalParts(run, h, cmd.part ?? 'host', false);
      case 'isolate':
        if ((cmd.part ?? 'host') === 'candidate') this.network.cutCandidate(h.id);
        else this.network.isolate(h.id);
        this.applyNetwork(run);
        return true;
    }
  }

  /** Carry out a validated command that names no host; false when it changed nothing. */
  private performOnNetwork(run: Started, cmd: NetworkCommand): boolean {
    switch (cmd.do) {
      case 'partition':
        this.network.setPartition(cmd.groups);
        this.applyNetwork(run);
        return true;
      case 'heal': {
        const changed = this.network.heal();
        this.applyNetwork(run);
        return changed;
      }
      case 'safety':
        // The fold takes the switch from the command's own event (apply, above).
        run.storage.fencing = cmd.fencing;
        return true;
    }
  }

  /** SIGSTOP (pause) or SIGCONT (resume) a host's parts; false when none of them changed. */
  private signalParts(run: Started, h: CandidateProcess, part: Part, stop: boolean): boolean {
    let done = false;
    const state = stop ? 'stopped' : 'continued';
    if (part !== 'member' && h.paused !== stop) {
      h.paused = stop && h.signal(run.children, 'SIGSTOP');
      if (stop ? h.paused : h.signal(run.children, 'SIGCONT')) {
        done = true;
        this.emit(processEvent(this.nowMs(), h.id, 'candidate', state));
      }
    }
    const member = this.memberOf(run, h);
    if (part !== 'candidate' && (stop ? run.cluster.pause(member) : run.cluster.resume(member))) {
      done = true;
      this.emit(processEvent(this.nowMs(), h.id, 'member', state));
    }
    return done;
  }

  private applyNetwork(run: Started): void {
    const net = this.network;
    run.cluster.setGroups(net.partition ? (member) => net.groupOf(hostOfMember(member)) : null);
    for (const h of run.hosts) {
      h.etcdLink.setCut(net.etcdLinkCut(h.id));
      h.storageLink.setCut(net.storageCut(h.id));
    }
  }

  /** A host's processes and what the run knows of them (for status lines and the bridge). */
  state() {
    return {
      nowMs: this.nowMs(),
      hosts: this.fold.hosts.map((h) => ({ ...h })),
      partition: this.network.partition,
      candidatesCutFromEtcd: this.network.cutCandidates,
      fencing: this.started?.storage.fencing ?? this.settings.fencing,
      storage: this.fold.storage(),
      leaderCount: this.fold.leaderCount(),
      raftLeader: this.cluster?.raftLeader()?.node ?? null,
    };
  }

  trace(): RealTrace {
    return buildTrace({
      settings: this.settings,
      etcdVersion: this.etcdVersion,
      startupMs: this.startupMs,
      commands: this.commands,
      events: [...this.events],
      samples: [...this.samples],
      fold: this.fold,
      nowMs: this.nowMs(),
      eventsDropped: this.eventsDropped,
    });
  }

  /** The run's folder (etcd data, in the command line of every child): empty before start. */
  get folder(): string {
    return this.workspace?.runDir ?? '';
  }

  runningPids(): number[] {
    return (this.workspace?.children.running() ?? []).flatMap((c) => c.process.pid ?? []);
  }

  /** Processes of this run still alive by their PID and command line (after stop: none). */
  leftovers(): { name: string; pid: number }[] {
    return (this.workspace?.children.leftovers() ?? []).map((r) => ({ name: r.name, pid: r.pid }));
  }

  /**
   * End the run: the candidates get SIGTERM (they resign, so the trace ends cleanly), the members are killed
   * (their data is thrown away), every child is waited for, proxies and storage close, the folder goes.
   */
  async stop(graceMs = 1500): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (this.sampler) clearInterval(this.sampler);
    for (const t of this.resumeTimers) clearTimeout(t);
    const children = this.workspace?.children;
    if (children) {
      const candidates = children.running().filter((c) => c.name.startsWith('c'));
      await children.stop(candidates, graceMs);
      children.killAllSync();
      await Promise.all(children.running().map((c) => c.exited));
    }
    await this.etcd?.close();
    await Promise.all(this.hosts.map((h) => h.close()));
    await this.storageServer?.close();
    if (this.workspace) removeRunDir(this.workspace.runDir);
    process.off('exit', this.onExit);
  }

  private killAllSync(): void {
    if (!this.workspace) return;
    this.workspace.children.killAllSync();
    removeRunDir(this.workspace.runDir);
  }
}

function etcdVersionOf(bin: string): string {
  try {
    const out = execFileSync(bin, ['--version'], { encoding: 'utf8', timeout: 5000 });
    return /etcd Version: (\S+)/.exec(out)?.[1] ?? 'unknown';
  } catch {
    return 'unknown';
  }
}
