// `npm run fidelity -- [options]`: its options, checked one by one; a bad one is refused by name.
import { FAULT_IDS, type FaultId } from './fidelityReport';

export interface FidelityOptions {
  /** Real trials per fault. */
  runs: number;
  /** Simulator seeds per fault. */
  seeds: number;
  only: FaultId[];
  /** text: the report; json: one object; markdown: the tables docs/fidelity.md records. */
  format: 'text' | 'json' | 'markdown';
  help: boolean;
}

export const DEFAULT_RUNS = 10;
export const FAST_RUNS = 3;
export const DEFAULT_SEEDS = 30;

export const FIDELITY_USAGE = `usage: npm run fidelity -- [options]
  --runs N        real trials per fault (default ${DEFAULT_RUNS}; 1..100)
  --fast          ${FAST_RUNS} real trials per fault, a quick look (--runs wins if both are given)
  --seeds N       simulator seeds per fault (default ${DEFAULT_SEEDS}; 1..1000)
  --only F[,F]    only these faults: ${FAULT_IDS.join(', ')}
  --json          print the comparisons as one JSON object instead of text
  --markdown      print them as docs/fidelity.md's tables instead of text
  --help          this text`;

function wholeIn(flag: string, v: string | undefined, min: number, max: number): number | string {
  if (v === undefined || v.startsWith('--')) return `${flag}: needs a value (a whole number ${min}..${max})`;
  if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max)
    return `${flag}: must be a whole number ${min}..${max}, not "${v}"`;
  return Number(v);
}

/** The options, or the message that says which flag is wrong and why. */
export function parseFidelityArgs(argv: string[]): FidelityOptions | string {
  let runs: number | null = null;
  let fast = false;
  const o: FidelityOptions = {
    runs: DEFAULT_RUNS,
    seeds: DEFAULT_SEEDS,
    only: [...FAULT_IDS],
    format: 'text',
    help: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--runs' || a === '--seeds') {
      const v = wholeIn(a, argv[++i], 1, a === '--runs' ? 100 : 1000);
      if (typeof v === 'string') return v;
      if (a === '--runs') runs = v;
      else o.seeds = v;
    } else if (a === '--only') {
      const v = argv[++i];
      if (v === undefined || v.startsWith('--')) return `--only: needs a fault (${FAULT_IDS.join(', ')})`;
      const names = v.split(',').filter(Boolean);
      const bad = names.find((n) => !(FAULT_IDS as readonly string[]).includes(n));
      if (bad !== undefined || names.length === 0)
        return `--only: unknown fault "${bad ?? v}" (one of ${FAULT_IDS.join(', ')})`;
      // In the report's order, each once.
      o.only = FAULT_IDS.filter((f) => names.includes(f));
    } else if (a === '--fast') fast = true;
    else if (a === '--json' || a === '--markdown') {
      const format = a === '--json' ? 'json' : 'markdown';
      if (o.format !== 'text' && o.format !== format) return `${a}: --json and --markdown cannot be combined`;
      o.format = format;
    } else if (a === '--help' || a === '-h') o.help = true;
    else return `unknown option ${a}`;
  }
  o.runs = runs ?? (fast ? FAST_RUNS : DEFAULT_RUNS);
  return o;
}
