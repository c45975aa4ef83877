// What every benchmark hands the runner (tests/bench/run.ts): its budgeted figures, each with the
// budget it is held to, so one summary can print them all side by side with OK or OVER.
import { cpus, loadavg } from 'node:os';
import { table } from './browserKit';

export interface Figure {
  /** Which benchmark: engine, seek, load, frames, memory. */
  bench: string;
  name: string;
  value: number;
  unit: string;
  budget: number;
  /** 'max': the figure must be at most the budget; 'min': at least the budget. */
  kind: 'max' | 'min';
  /** Digits to print. */
  digits?: number;
  /** A timing (it depends on the machine's load), not a size. */
  timing?: boolean;
  /** The one-minute load average when the figure was taken. */
  load?: number;
}

/**
 * A machine this busy (a one-minute load average over twice its cores) cannot judge a timing:
 * every process gets well under half a core. CI's short run reports such a timing over its limit
 * but does not fail on it; the next run on a quiet machine will, if the regression is real.
 */
export const BUSY_LOAD_PER_CORE = 2;
export const isBusy = (load: number | undefined): boolean => (load ?? 0) > BUSY_LOAD_PER_CORE * cpus().length;

export type Verdict = 'OK' | 'OVER' | 'BUSY';

/** OK, OVER, or (for a timing over its CI limit on a busy machine) BUSY: printed, not counted. */
export function verdict(f: Figure, factor = 1): Verdict {
  if (within(f, factor)) return 'OK';
  return factor !== 1 && f.timing && isBusy(f.load) ? 'BUSY' : 'OVER';
}

/**
 * The limit a figure is held to: its budget, or, for the CI's short run, a gross-regression
 * limit `factor` times looser (twice the time or size, half the rate), so noise never fails it.
 */
export function limitOf(f: Figure, factor = 1): number {
  return f.kind === 'max' ? f.budget * factor : f.budget / factor;
}

export function within(f: Figure, factor = 1): boolean {
  return f.kind === 'max' ? f.value <= limitOf(f, factor) : f.value >= limitOf(f, factor);
}

const num = (n: number, digits: number) =>
  Number.isFinite(n)
    ? n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })
    : '-';

/** The summary: every figure next to its budget (and, with factor > 1, the limit it was held to). */
export function figuresTable(figures: Figure[], factor = 1): string {
  const header = ['benchmark', 'figure', 'measured', 'budget'];
  if (factor !== 1) header.push(`CI limit (${factor}x)`);
  header.push('result');
  const rows = figures.map((f) => {
    const d = f.digits ?? 1;
    const op = f.kind === 'max' ? '<=' : '>=';
    const row = [f.bench, f.name, `${num(f.value, d)} ${f.unit}`, `${op} ${num(f.budget, d)} ${f.unit}`];
    if (factor !== 1) row.push(`${op} ${num(limitOf(f, factor), d)} ${f.unit}`);
    const v = verdict(f, factor);
    row.push(v === 'BUSY' ? `OVER, not counted: load ${f.load?.toFixed(1)} on ${cpus().length} cores` : v);
    return row;
  });
  return table(header, rows, 2);
}

/** One line to date a measurement: the machine's load and size change every timing. */
export function machineLine(): string {
  const [l1, l5, l15] = loadavg();
  return `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, Node ${process.version}, ${cpus().length} cores, load average ${l1.toFixed(2)} ${l5.toFixed(2)} ${l15.toFixed(2)}`;
}
