// One host's candidate process (cK): spawned with tsx and its config, reached through its two link proxies
// (to its etcd member, to the storage), signalled by PID. Its stdout is JSON lines (events, keep-alives).
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { CandidateConfig } from '../candidate/candidate';
import { eachLine, type Child, type Children } from './children';
import type { CandidateOutput } from '../model/events';
import { LinkProxy } from './peerProxy';

const SCRIPT = fileURLToPath(new URL('../candidate/candidate.ts', import.meta.url));
const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

export class CandidateProcess {
  private child: Child | null = null;
  paused = false;

  private constructor(
    readonly id: string,
    readonly etcdLink: LinkProxy,
    readonly storageLink: LinkProxy,
  ) {}

  static async create(id: string, etcdPort: number, storagePort: number): Promise<CandidateProcess> {
    const p = new CandidateProcess(id, new LinkProxy(etcdPort), new LinkProxy(storagePort));
    await Promise.all([p.etcdLink.listen(), p.storageLink.listen()]);
    return p;
  }

  get name(): string {
    return `c${this.id.slice(1)}`;
  }

  get running(): boolean {
    return this.child !== null && !this.child.exitedAlready;
  }

  spawn(
    children: Children,
    runDir: string,
    config: Omit<CandidateConfig, 'etcdPort' | 'storagePort'>,
    on: {
      output: (o: CandidateOutput) => void;
      exited: (code: number | null, signal: NodeJS.Signals | null) => void;
    },
  ): void {
    const full: CandidateConfig = {
      ...config,
      etcdPort: this.etcdLink.port,
      storagePort: this.storageLink.port,
    };
    // The run folder in the command line is what lets a later start recognise a leftover.
    const args = ['--import', TSX_LOADER, SCRIPT, '--run-dir', runDir, '--config', JSON.stringify(full)];
    const child = children.spawn(this.name, process.execPath, args, { stdio: ['pipe', 'pipe', 'ignore'] });
    this.child = child;
    this.paused = false;
    eachLine(child.process.stdout, (line) => {
      try {
        on.output(JSON.parse(line) as CandidateOutput);
      } catch {
        // not one of its JSON lines (a stray print): nothing to fold
      }
    });
    void child.exited.then(({ code, signal }) => {
      this.paused = false;
      on.exited(code, signal);
    });
  }

  /** Send a signal by PID; false when the process is not running. */
  signal(children: Children, signal: NodeJS.Signals): boolean {
    return this.running && children.signal(this.name, signal);
  }

  close(): Promise<void> {
    return Promise.all([this.etcdLink.close(), this.storageLink.close()]).then(() => undefined);
  }
}
