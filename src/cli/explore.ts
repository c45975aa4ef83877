// Headless failure explorer: an experiment (the setup) in, the minimal fault schedule that breaks an
// invariant out, as an experiment file. A scenario file (scenes/scenarios) gives its experiment as the setup:
// algorithm, cluster, switches and timings, minus its scripted faults and steps; a scheduled switch stays.
//   npm run explore -- setup.json [options: USAGE below]
// Progress goes to stderr; the experiment to stdout. Ctrl-C stops the search (or the shrinking, keeping the
// smallest failing schedule). Exit status: 0 a failing schedule was found and printed, 1 nothing found (or
// stopped before anything was), 2 bad input (unreadable file, not JSON, invalid experiment, bad option).
import '../engine/algorithms/all'; // every algorithm's rules: no page loads them on demand here
import { readFileSync } from 'node:fs';
import { formatSeconds, type FieldError } from '../engine';
import type { ExploreResult } from '../explorer/explore';
import { createExplorerHost, type FromExplorer, type StartMessage } from '../explorer/protocol';
import { EXPLORER_FAULT_KINDS, type ExplorerFaultKind } from '../explorer/schedule';
import { invalidLines, readJson, runAsEntry } from './io';

export interface ExploreIo {
  readFile: (path: string) => string;
  readStdin: () => string;
  /** Progress and the story of the result. */
  stderr: (text: string) => void;
  /** The experiment found, and nothing else. */
  stdout: (text: string) => void;
  /** Whether stderr is a terminal: progress then rewrites one line. */
  tty?: boolean;
  nowMs?: () => number;
  /** Hands the caller a function that stops the run (the entry point wires it to Ctrl-C). */
  onStop?: (stop: () => void) => void;
}

const USAGE =
  'usage: npm run explore -- <experiment.json | scenario.json | -> [--seed N] [--budget-schedules N] [--budget-ms N] [--horizon-ms N]\n' +
  `       [--max-faults N] [--kinds ${EXPLORER_FAULT_KINDS.join(',')}]\n`;

/** Each option, the start message's field it sets, and the name the explorer gives that field. */
const OPTIONS = {
  '--seed': 'seed',
  '--budget-schedules': 'budgetSchedules',
  '--budget-ms': 'budgetMs',
  '--horizon-ms': 'horizonMs',
  '--max-faults': 'maxFaults',
  '--kinds': 'kinds',
} as const;
type Option = keyof typeof OPTIONS;
const FLAG_OF = Object.fromEntries(Object.entries(OPTIONS).map(([flag, f]) => [f, flag])) as Record<
  string,
  Option
>;

type Values = Partial<Record<Exclude<Option, '--kinds'>, number>> & { '--kinds'?: ExplorerFaultKind[] };
type Args = { file: string; values: Values } | { help: true } | { error: string };

function parseArgs(argv: string[]): Args {
  const values: Values = {};
  const files: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') return { help: true };
    if (!arg.startsWith('--')) {
      files.push(arg);
      continue;
    }
    const [flag, inline] = arg.includes('=')
      ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
      : [arg];
    if (!(flag in OPTIONS)) return { error: `unknown option ${flag}` };
    const text = inline ?? argv[++i];
    if (flag === '--kinds') {
      if (!text) return { error: `--kinds: needs a list, e.g. --kinds pause,partition` };
      values['--kinds'] = text.split(',') as ExplorerFaultKind[];
      continue;
    }
    if (text === undefined || text === '') return { error: `${flag}: needs a number` };
    if (!/^\d+$/.test(text)) return { error: `${flag}: must be a whole number, not "${text}"` };
    values[flag as Exclude<Option, '--kinds'>] = Number(text);
  }
  if (files.length !== 1)
    return { error: files.length ? `one experiment file, not ${files.length}` : 'no experiment file' };
  return { file: files[0], values };
}

const faultCount = (n: number) => `${n} fault${n === 1 ? '' : 's'}`;
const rate = (r: ExploreResult) => `${Math.round(r.schedulesPerSecond).toLocaleString('en-US')} per second`;

/** The options' errors by flag name, the setup's as `npm run sim` prints them. */
function errorLines(errors: FieldError[]): string {
  const flagged = errors.filter((e) => e.field in FLAG_OF);
  const setup = errors.filter((e) => !(e.field in FLAG_OF));
  const lines = flagged.map((e) => `${FLAG_OF[e.field]}: ${e.message}\n`);
  return lines.join('') + (setup.length ? invalidLines('experiment', setup) : '');
}

function resultLines(r: ExploreResult, file: string): { code: number; stdout: string; stderr: string } {
  const f = r.finding;
  if (!f) {
    const what = r.outcome === 'stopped' ? 'stopped' : 'nothing found';
    return { code: 1, stdout: '', stderr: `${what} after ${r.schedulesTried} schedules (${rate(r)})\n` };
  }
  const stderr = [
    `${f.caption}`,
    `schedule #${f.scheduleIndex} of seed ${r.seed} (found after ${r.schedulesTried} schedules, ${formatSeconds(r.searchMs)}): ` +
      `${faultCount(f.found.faults)} over ${formatSeconds(f.found.horizonMs)}, shrunk in ${f.shrinkRuns} runs (${formatSeconds(f.shrinkMs)}) ` +
      `to ${faultCount(f.faults.length)} over ${formatSeconds(f.experiment.untilMs)}` +
      (f.minimal
        ? ': removing any one of them makes the run pass'
        : ', not minimal: shrinking stopped early'),
    `reproduce: npm run explore -- ${file} --seed ${r.seed}; keep it as a regression case: ` +
      `save it as tests/regressions/${f.violation.invariant}--<what-it-shows>.json (docs/explorer.md)`,
  ].join('\n');
  return { code: 0, stdout: JSON.stringify(f.experiment, null, 2) + '\n', stderr: stderr + '\n' };
}

type Bag = Record<string, unknown>;
const isBag = (x: unknown): x is Bag => typeof x === 'object' && x !== null && !Array.isArray(x);

/**
 * The setup to explore: the file itself, or a scenario's experiment without its scripted faults (a `safety`
 * fault, a switch turned at some moment, is part of the setup) and length (the explorer sets the horizon).
 */
function setupOf(input: unknown, io: ExploreIo): unknown {
  if (!isBag(input) || !isBag(input.experiment) || !Array.isArray(input.steps)) return input;
  const { untilMs: _untilMs, ...experiment } = input.experiment;
  const faults = Array.isArray(experiment.faults) ? experiment.faults : [];
  const kept = faults.filter((f) => isBag(f) && f.do === 'safety');
  const left = faults.length - kept.length;
  io.stderr(
    `scenario ${JSON.stringify(input.id ?? '')}: exploring its setup; its steps` +
      (left ? ` and its ${left} scripted fault${left === 1 ? '' : 's'}` : '') +
      ' are left out\n',
  );
  return { ...experiment, faults: kept };
}

export function main(argv: string[], io: ExploreIo): Promise<number> {
  const args = parseArgs(argv);
  if ('help' in args) {
    io.stdout(USAGE);
    return Promise.resolve(0);
  }
  if ('error' in args) {
    io.stderr(`${args.error}\n${USAGE}`);
    return Promise.resolve(2);
  }
  const json = readJson(args.file, io.readFile, io.readStdin);
  if (!json.ok) {
    io.stderr(json.error);
    return Promise.resolve(2);
  }
  const setup = setupOf(json.value, io);
  const v = args.values;
  const start: StartMessage = {
    type: 'start',
    setup,
    seed: v['--seed'],
    budget: { schedules: v['--budget-schedules'], ms: v['--budget-ms'] },
    horizonMs: v['--horizon-ms'],
    maxFaults: v['--max-faults'],
    kinds: v['--kinds'],
  };
  return new Promise((resolve) => {
    let progressLine = false;
    const clearLine = () => {
      if (progressLine) io.stderr('\r\x1b[K');
      progressLine = false;
    };
    const say = (line: string) => {
      if (io.tty) {
        io.stderr(`\r\x1b[K${line}`);
        progressLine = true;
      } else io.stderr(line + '\n');
    };
    const onMessage = (m: FromExplorer) => {
      switch (m.type) {
        case 'progress':
          return say(
            m.phase === 'search'
              ? `searching: ${m.schedulesTried} schedules, ${Math.round(m.schedulesPerSecond)} per second`
              : `shrinking: ${m.shrinkRuns} runs, ${m.faults} faults left`,
          );
        case 'found':
          clearLine();
          return io.stderr(
            `schedule #${m.scheduleIndex} breaks ${m.violation.invariant} at ${formatSeconds(m.violation.atMs)} ` +
              `(${faultCount(m.experiment.faults.length)}, ${formatSeconds(m.elapsedMs)} in); shrinking\n`,
          );
        case 'error':
          clearLine();
          io.stderr(errorLines(m.errors));
          return resolve(2);
        case 'done': {
          clearLine();
          const out = resultLines(m.result, args.file);
          io.stderr(out.stderr);
          if (out.stdout) io.stdout(out.stdout);
          return resolve(out.code);
        }
      }
    };
    // A progress line a second on a terminal is plenty; in a log, every five seconds.
    const host = createExplorerHost({
      post: onMessage,
      nowMs: io.nowMs ?? (() => performance.now()),
      later: (fn) => setImmediate(fn),
      progressEveryMs: io.tty ? 250 : 5000,
    });
    io.onStop?.(() => host.receive({ type: 'stop' }));
    host.receive(start);
  });
}

runAsEntry('explore', () =>
  main(process.argv.slice(2), {
    readFile: (path) => readFileSync(path, 'utf8'),
    readStdin: () => readFileSync(0, 'utf8'),
    stderr: (text) => process.stderr.write(text),
    stdout: (text) => process.stdout.write(text),
    tty: process.stderr.isTTY,
    onStop: (stop) => process.once('SIGINT', stop),
  }),
);
