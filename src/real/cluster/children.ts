// The processes a run starts: each is spawned with a pidfile, tracked by name, signalled only by its own PID,
// and ended by PID when the run ends (or when the lab process exits in any way Node still runs code for).
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { removePidfile, stillOurs, trySignal, writePidfile, type PidRecord } from './pidfiles';

export interface Child {
  name: string;
  process: ChildProcess;
  record: PidRecord;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  exitedAlready: boolean;
}

/** Call fn with each whole line a child writes on one of its pipes. */
export function eachLine(stream: NodeJS.ReadableStream | null, fn: (line: string) => void): void {
  let rest = '';
  stream?.setEncoding('utf8').on('data', (chunk: string) => {
    rest += chunk;
    let nl: number;
    while ((nl = rest.indexOf('\n')) >= 0) {
      const line = rest.slice(0, nl);
      rest = rest.slice(nl + 1);
      fn(line);
    }
  });
}

export class Children {
  private readonly byName = new Map<string, Child>();

  constructor(
    private readonly pidDir: string,
    private readonly runDir: string,
  ) {}

  spawn(name: string, command: string, args: string[], options: SpawnOptions = {}): Child {
    const old = this.byName.get(name);
    if (old && !old.exitedAlready) throw new Error(`${name} is still running (pid ${old.process.pid})`);
    // Detached: a process group of its own, so a Ctrl-C in the terminal reaches only the lab,
    // which then ends its children in order (candidates resign while etcd still runs).
    const proc = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'], detached: true, ...options });
    if (proc.pid === undefined) throw new Error(`cannot start ${name}: ${command}`);
    const record: PidRecord = {
      pid: proc.pid,
      ownerPid: process.pid,
      name,
      marker: this.runDir,
      runDir: this.runDir,
    };
    writePidfile(this.pidDir, record);
    const child: Child = {
      name,
      process: proc,
      record,
      exitedAlready: false,
      exited: new Promise((resolve) =>
        proc.once('exit', (code, signal) => {
          child.exitedAlready = true;
          removePidfile(this.pidDir, record);
          resolve({ code, signal });
        }),
      ),
    };
    // An exited child's closed stdin must not crash the lab with EPIPE.
    proc.stdin?.on('error', () => {});
    this.byName.set(name, child);
    return child;
  }

  running(): Child[] {
    return [...this.byName.values()].filter((c) => !c.exitedAlready);
  }

  /** Send a signal to one child by its PID; false when it is not running. */
  signal(name: string, signal: NodeJS.Signals): boolean {
    const c = this.byName.get(name);
    if (!c || c.exitedAlready || c.process.pid === undefined) return false;
    return trySignal(c.process.pid, signal);
  }

  /** Children whose PID still runs this run's command line (after stop: should be none). */
  leftovers(): PidRecord[] {
    return [...this.byName.values()].map((c) => c.record).filter((r) => stillOurs(r));
  }

  /** SIGKILL every running child now (also ends stopped ones); for exit paths that cannot wait. */
  killAllSync(): void {
    for (const c of this.running()) trySignal(c.process.pid as number, 'SIGKILL');
  }

  /** End these: SIGTERM (with SIGCONT, so a stopped one acts on it), wait graceMs, SIGKILL the rest. */
  async stop(children: Child[], graceMs: number): Promise<void> {
    const live = children.filter((c) => !c.exitedAlready);
    for (const c of live) {
      this.signal(c.name, 'SIGTERM');
      this.signal(c.name, 'SIGCONT');
    }
    const timeout = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), graceMs).unref());
    await Promise.race([Promise.all(live.map((c) => c.exited)), timeout]);
    for (const c of live) if (!c.exitedAlready) this.signal(c.name, 'SIGKILL');
    await Promise.all(live.map((c) => c.exited));
  }
}
