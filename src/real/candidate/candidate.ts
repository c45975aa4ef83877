// The candidate process, one per lab node: `candidate.ts --run-dir <dir> --config <json>`. It talks to its
// etcd member and to the storage through its link proxies (ports in the config), prints its events on stdout
// as JSON lines, resigns on SIGTERM, and exits when its parent is gone (stdin closes, or it is re-parented),
// so a crashed lab leaves no candidate running (a stopped one is ended by the next start, from its pidfile).
import { Candidate, type CandidateSettings } from './candidateCore';
import { HttpGateway } from './gateway';
import { keepAliveAgent, postJson } from './jsonHttp';

export interface CandidateConfig extends CandidateSettings {
  etcdPort: number;
  storagePort: number;
  requestTimeoutMs: number;
  /** Epoch ms at which the run started: event times are ms since then, on every process. */
  runStartEpochMs: number;
}

function main(): void {
  const at = process.argv.indexOf('--config');
  const config = JSON.parse(at >= 0 ? process.argv[at + 1] : '{}') as CandidateConfig;
  const parentPid = process.ppid;
  const storage = { port: config.storagePort, agent: keepAliveAgent() };
  const candidate = new Candidate(config, {
    gateway: new HttpGateway(config.etcdPort, config.requestTimeoutMs),
    storage: { write: (w) => postJson(storage, '/write', w, config.requestTimeoutMs) },
    emit: (event) => process.stdout.write(JSON.stringify(event) + '\n'),
    clock: {
      now: () => Date.now() - config.runStartEpochMs,
      setTimeout: (fn, ms) => setTimeout(fn, ms),
      clearTimeout: (t) => clearTimeout(t as ReturnType<typeof setTimeout>),
    },
  });
  let ending = false;
  const end = (resign: boolean) => {
    if (ending) return;
    ending = true;
    // A resign needs etcd; when etcd cannot be reached the lease expires on its own.
    const done = resign ? candidate.resign() : Promise.resolve();
    const limit = new Promise((r) => setTimeout(r, 2 * config.requestTimeoutMs));
    void Promise.race([done, limit]).then(() => process.exit(0));
  };
  process.on('SIGTERM', () => end(true));
  process.on('SIGINT', () => end(true));
  process.stdin.on('end', () => end(false));
  process.stdin.on('close', () => end(false));
  process.stdin.resume();
  setInterval(() => {
    if (process.ppid !== parentPid) end(false);
  }, 500).unref();
  candidate.start();
}

main();
