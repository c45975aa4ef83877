// The headless CLI's options: `npm run real -- [options]`.
import { DEFAULT_SETTINGS, TIMINGS, type RunSettings } from '../model/settings';

export interface CliOptions {
  settings: RunSettings;
  json: boolean;
  tracePath: string | null;
  bridge: boolean;
  origin: string;
  help: boolean;
}

export const USAGE = `usage: npm run real -- [options]   (then type commands; "help" lists them)
  --fast                   etcd heartbeat 20 ms, election timeout 200 ms (default 100/1000)
  --heartbeat-ms N         etcd --heartbeat-interval
  --election-ms N          etcd --election-timeout
  --no-pre-vote            start the members without --pre-vote (default: with)
  --ttl-ms N               the candidates' session TTL, whole seconds (default 5000)
  --renew-deadline-ms N    stop leading when no keep-alive was answered for N ms (default: none)
  --warm-up-ms N           a new leader's warm-up before its first write (default 2000)
  --write-every-ms N       a leader's work between check and write (default 1000)
  --no-fencing             the storage accepts every write
  --json                   print events as JSON lines
  --trace FILE             write the run's trace (JSON) to FILE when it ends
  --bridge                 also serve the page's bridge (prints its URL and token)
  --origin URL             the page's origin the bridge accepts (default http://localhost:5173)`;

export function parseCliArgs(argv: string[]): CliOptions | string {
  const s: RunSettings = { ...DEFAULT_SETTINGS };
  const o: CliOptions = {
    settings: s,
    json: false,
    tracePath: null,
    bridge: false,
    origin: 'http://localhost:5173',
    help: false,
  };
  const numeric: Record<string, keyof RunSettings> = {
    '--heartbeat-ms': 'heartbeatMs',
    '--election-ms': 'electionMs',
    '--ttl-ms': 'ttlMs',
    '--renew-deadline-ms': 'renewDeadlineMs',
    '--warm-up-ms': 'warmUpMs',
    '--write-every-ms': 'writeEveryMs',
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a in numeric) {
      const v = argv[++i];
      if (v === undefined || !/^\d+$/.test(v)) return `${a} needs a whole number`;
      (s as unknown as Record<string, number>)[numeric[a]] = Number(v);
    } else if (a === '--fast') Object.assign(s, TIMINGS.fast);
    else if (a === '--no-pre-vote') s.preVote = false;
    else if (a === '--no-fencing') s.fencing = false;
    else if (a === '--json') o.json = true;
    else if (a === '--bridge') o.bridge = true;
    else if (a === '--help' || a === '-h') o.help = true;
    else if (a === '--trace' || a === '--origin') {
      const v = argv[++i];
      if (!v) return `${a} needs a value`;
      if (a === '--trace') o.tracePath = v;
      else o.origin = v;
    } else return `unknown option ${a}`;
  }
  return o;
}
