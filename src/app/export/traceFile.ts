// A run saved as a file: the experiment, commands and moment replay it (the engine is deterministic); the
// trace rides along for other tools and as a check. Reading never throws: each bad field is a problem.
import { parseCommand, parseExperiment, type Experiment, type Trace } from '../../engine';
import type { RunView } from '../../store/backend';
import { isObject, readRealRecord, type RealRecord } from '../../store/backends/liveRecordFile';
import { LabEngine, MAX_COMMANDS, type RecordedCommand } from '../../store/labEngine';
import { MAX_RUN_MS } from '../../store/labStore';

export const TRACE_FILE_FORMAT = 'leader-election-lab/run';
/** 2: the experiment names its election algorithm. 1: the retired first model (see share.ts). */
export const TRACE_FILE_VERSION = 2;

export interface TraceFile {
  format: typeof TRACE_FILE_FORMAT;
  version: number;
  experiment: Experiment;
  commands: RecordedCommand[];
  /** The moment the file was saved at, in simulated ms; the trace ends here. */
  atMs: number;
  trace: Trace;
  /** A real run's recording: what the page received from the run, to fold again. */
  real?: RealRecord;
}

/** A file that passed every check; `trace` is null when the file carried none. */
export interface ImportedRun {
  experiment: Experiment;
  commands: RecordedCommand[];
  atMs: number;
  trace: Trace | null;
  /** Made with the retired first model: its replay under today's Raft is expected to differ. */
  retired?: boolean;
  /** A real run's recording: it opens as the recording, not as a replay of its commands. */
  real?: RealRecord;
}

export type ReadResult = { ok: true; run: ImportedRun } | { ok: false; problems: string[] };

export function traceFileOf(run: RunView): TraceFile {
  return {
    format: TRACE_FILE_FORMAT,
    version: TRACE_FILE_VERSION,
    experiment: run.experiment,
    commands: run.commands.map((c) => ({ atMs: c.atMs, command: c.command })),
    atMs: run.nowMs,
    trace: run.trace(),
    ...(run.realRecord ? { real: run.realRecord() } : {}),
  };
}

export function readTraceFile(text: string): ReadResult {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { ok: false, problems: [`the file is not JSON (${(e as Error).message})`] };
  }
  if (!isObject(json)) return { ok: false, problems: ['the file holds no run: expected a JSON object'] };
  const retired = json.version === 1;
  // The first model's lease means nothing under Raft; the rest of its setup still reads.
  if (retired && isObject(json.experiment)) delete json.experiment.lease;
  if (json.version !== undefined && json.version !== TRACE_FILE_VERSION && !retired) {
    return {
      ok: false,
      problems: [
        `version: made by another version of the lab (format ${String(json.version)}; this one reads ${TRACE_FILE_VERSION})`,
      ],
    };
  }
  const problems: string[] = [];
  if (json.experiment === undefined) problems.push('experiment: missing');
  const e = parseExperiment(json.experiment);
  if (!e.ok) problems.push(...e.errors.map((x) => `experiment.${x.field}: ${x.message}`));
  const commands = readCommands(json.commands, problems);
  const atMs = json.atMs;
  if (typeof atMs !== 'number' || !Number.isInteger(atMs) || atMs < 0 || atMs > MAX_RUN_MS) {
    problems.push(`atMs: must be a whole number of ms from 0 to ${MAX_RUN_MS}`);
  }
  const trace = readTrace(json.trace, problems);
  const real = json.real === undefined ? null : readRealRecord(json.real, problems);
  // A real run's commands name a real cluster's members: not to be checked against simulated nodes.
  if (e.ok && !real && commands.length && !problems.length) checkNodes(e.experiment, commands, problems);
  if (problems.length || !e.ok) return { ok: false, problems };
  return {
    ok: true,
    run: {
      experiment: e.experiment,
      commands,
      atMs: atMs as number,
      trace,
      ...(retired ? { retired } : {}),
      ...(real ? { real } : {}),
    },
  };
}

function readCommands(raw: unknown, problems: string[]): RecordedCommand[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) {
    problems.push('commands: must be a list');
    return [];
  }
  if (raw.length > MAX_COMMANDS)
    problems.push(`commands: at most ${MAX_COMMANDS} per run (got ${raw.length})`);
  const out: RecordedCommand[] = [];
  for (const [i, entry] of raw.slice(0, MAX_COMMANDS).entries()) {
    if (!isObject(entry)) {
      problems.push(`commands.${i}: must be { atMs, command }`);
      continue;
    }
    const at = entry.atMs;
    const timeOk = typeof at === 'number' && Number.isInteger(at) && at >= 0 && at <= MAX_RUN_MS;
    if (!timeOk) problems.push(`commands.${i}.atMs: must be a whole number of ms from 0 to ${MAX_RUN_MS}`);
    const parsed = parseCommand(entry.command);
    if (!parsed.ok) {
      problems.push(
        ...parsed.errors.map((x) => `commands.${i}.command${x.field ? '.' + x.field : ''}: ${x.message}`),
      );
    } else if (timeOk) out.push({ atMs: at as number, command: parsed.command });
  }
  return out;
}

function readTrace(raw: unknown, problems: string[]): Trace | null {
  if (raw === undefined) return null;
  if (!isObject(raw)) {
    problems.push('trace: must be an object (or left out)');
    return null;
  }
  for (const key of ['events', 'samples'] as const)
    if (!Array.isArray(raw[key])) problems.push(`trace.${key}: must be a list`);
  for (const key of ['experiment', 'summary', 'final'] as const)
    if (!isObject(raw[key])) problems.push(`trace.${key}: must be an object`);
  return raw as unknown as Trace;
}

/** The command shapes are fine; check the nodes they name exist, with the engine's own rules. */
function checkNodes(experiment: Experiment, commands: RecordedCommand[], problems: string[]): void {
  const offset = experiment.faults.length;
  const asFaults = commands.map((c) => ({ atMs: c.atMs, ...c.command }));
  const r = parseExperiment({ ...experiment, faults: [...experiment.faults, ...asFaults] });
  if (r.ok) return;
  for (const x of r.errors) {
    const m = /^faults\.(\d+)(\..*)?$/.exec(x.field);
    if (m && Number(m[1]) >= offset)
      problems.push(`commands.${Number(m[1]) - offset}.command${m[2] ?? ''}: ${x.message}`);
  }
}

/** Run the file's experiment and commands to its moment, as the lab will when it opens. */
export function replayTrace(run: Pick<ImportedRun, 'experiment' | 'commands' | 'atMs'>): Trace {
  const engine = new LabEngine(run.experiment, run.commands);
  engine.seek(run.atMs);
  return engine.trace();
}

/** Where two traces first differ ("events.41", "summary"), or null when they are the same. */
export function firstDifference(a: Trace, b: Trace): string | null {
  for (const key of ['events', 'samples'] as const) {
    const x = a[key] as unknown[];
    const y = b[key] as unknown[];
    const n = Math.max(x.length, y.length);
    for (let i = 0; i < n; i++) if (JSON.stringify(x[i]) !== JSON.stringify(y[i])) return `${key}.${i}`;
  }
  for (const key of ['experiment', 'summary', 'final'] as const)
    if (JSON.stringify(a[key]) !== JSON.stringify(b[key])) return key;
  return null;
}
