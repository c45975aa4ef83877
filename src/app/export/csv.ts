// The metric series as CSV, a row per sample and a column per Sample field: exactly what the chart plots.
import type { Sample } from '../../engine';

export const SAMPLE_COLUMNS = [
  'atMs',
  'leaderCount',
  'leaderCountObserved',
  'fencingRejections',
  'staleWritesAccepted',
  'divergentWrites',
  'leaderTransitions',
  'renewalLatencyMs',
  'msWithoutLeader',
  'maxTerm',
  'maxTokenSeen',
  'clientRedirects',
] as const satisfies readonly (keyof Sample)[];

/** Fields only some runs' samples carry (ZooKeeper's watches, the client view): columns only if present. */
export const OPTIONAL_SAMPLE_COLUMNS = [
  'watchNotifications',
  'watchReads',
  'clientErrors',
  'clientServed',
  'clientWaitedMs',
] as const satisfies readonly (keyof Sample)[];

// A field added to Sample without a column here fails the typecheck, not silently every export.
type MissingColumn = Exclude<
  keyof Sample,
  (typeof SAMPLE_COLUMNS)[number] | (typeof OPTIONAL_SAMPLE_COLUMNS)[number]
>;
const everyFieldHasAColumn: [MissingColumn] extends [never] ? true : MissingColumn = true;
void everyFieldHasAColumn;

/** The columns of these samples: every field, and the optional ones the first sample carries. */
export function columnsOf(samples: readonly Sample[]): (keyof Sample)[] {
  const first = samples[0];
  return [...SAMPLE_COLUMNS, ...OPTIONAL_SAMPLE_COLUMNS.filter((c) => first !== undefined && c in first)];
}

/** Header row plus one row per sample, each ended by CRLF (RFC 4180). */
export function samplesToCsv(samples: readonly Sample[]): string {
  const columns = columnsOf(samples);
  const rows = [columns.join(',')];
  for (const s of samples) rows.push(columns.map((c) => String(s[c] ?? '')).join(','));
  return rows.join('\r\n') + '\r\n';
}
