// `npm run fidelity -- [options]` (fidelityArgs.ts): the simulator's predictions checked against a real
// 3-member etcd cluster. Each fault runs N times on a real cluster started with its settings and on as many
// simulator seeds with the same parameters; per fault it prints both distributions, the ratio of the medians
// and whether the mechanism agrees (docs/fidelity.md). Progress goes to stderr, the report to stdout. Exit
// status: 0 when every fault ran (verdicts are figures, not a test), 1 when one could not, 2 on bad options.
// Every algorithm's rules: this runs in Node (or a worker), with no page to load them on demand.
import '../../engine/algorithms/all';
import { cpus, loadavg } from 'node:os';
import { FIDELITY_USAGE, parseFidelityArgs } from './fidelityArgs';
import {
  compare,
  FAULTS,
  formatComparison,
  markdownFault,
  type Comparison,
  type FaultId,
  type Trial,
} from './fidelityReport';
import { realTrial } from './fidelityReal';
import { SETUPS } from './fidelitySetups';
import { simTrials } from './fidelitySim';
import { EtcdMissingError, RealRun } from '../cluster/run';
import { exitWith, usageExit } from '../cluster/terminal';

const log = (line: string) => process.stderr.write(`# ${line}\n`);
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

let current: RealRun | null = null;

async function realTrials(fault: FaultId, runs: number): Promise<{ trials: Trial[]; etcdVersion: string }> {
  const run = new RealRun(SETUPS[fault].settings);
  current = run;
  const trials: Trial[] = [];
  try {
    await run.start();
    for (let i = 0; i < runs; i++) {
      const t = await realTrial(fault, run);
      trials.push(t);
      log(
        `${fault} ${i + 1}/${runs}: ${t.value}${FAULTS[fault].unit === 'ms' ? ' ms' : ' terms'}, ${t.outcome}`,
      );
    }
    return { trials, etcdVersion: run.etcdVersion };
  } finally {
    await run.stop();
    current = null;
  }
}

async function main(): Promise<number> {
  const o = parseFidelityArgs(process.argv.slice(2));
  if (typeof o === 'string' || o.help) return usageExit(o, FIDELITY_USAGE);
  const startedAt = new Date();
  const loadBefore = load();
  log(
    `${o.only.length} faults, ${o.runs} real trials and ${o.seeds} simulator seeds each; load average ${loadBefore}`,
  );
  const comparisons: Comparison[] = [];
  const failed: { fault: FaultId; error: string }[] = [];
  let etcdVersion = 'unknown';
  for (const fault of o.only) {
    const sim = simTrials(fault, o.seeds);
    let real: Trial[];
    try {
      const r = await realTrials(fault, o.runs);
      real = r.trials;
      etcdVersion = r.etcdVersion;
    } catch (err) {
      if (err instanceof EtcdMissingError) throw err;
      failed.push({ fault, error: (err as Error).message });
      log(`${fault} could not run: ${(err as Error).message}`);
      continue;
    }
    const c = compare(FAULTS[fault], real, sim);
    comparisons.push(c);
    if (o.format === 'text') process.stdout.write(`${formatComparison(c)}\n\n`);
    if (o.format === 'markdown') process.stdout.write(`${markdownFault(c)}\n\n`);
  }
  const minutes = ((Date.now() - startedAt.getTime()) / 60_000).toFixed(1);
  const machine = {
    date: startedAt.toISOString().slice(0, 10),
    cores: cpus().length,
    etcdVersion,
    node: process.version,
    loadAverageBefore: loadBefore,
    loadAverageAfter: load(),
    minutes: Number(minutes),
    runs: o.runs,
    seeds: o.seeds,
  };
  if (o.format === 'json')
    process.stdout.write(`${JSON.stringify({ machine, comparisons, failed }, null, 2)}\n`);
  else {
    process.stdout.write(
      `${machine.date}: ${machine.cores} cores, etcd ${etcdVersion}, Node ${machine.node}, load average ${loadBefore} before and ${machine.loadAverageAfter} after (1 / 5 / 15 min), ${minutes} min\n`,
    );
    for (const f of failed) process.stdout.write(`${f.fault}: could not run: ${f.error}\n`);
  }
  return failed.length ? 1 : 0;
}

// Ctrl-C: end this run's processes (by their PIDs) before leaving.
process.on('SIGINT', () => {
  const run = current;
  void (run ? run.stop(200) : Promise.resolve()).finally(() => process.exit(130));
});

exitWith(main);
