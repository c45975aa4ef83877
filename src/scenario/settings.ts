// Caption numbers that are the experiment's settings (a lease, a fault's time) are written `{setting:path}`,
// filled as the scenario loads: none quotes a setting the run lacks. Run figures fill at the pause.
import type { Experiment } from '../engine';

const SETTING = /\{setting:([\w.]+)\}/g;

/** A setting's value as a caption says it: durations in seconds ("15 s", "1.7 s"), counts as is. */
function said(path: string, value: number): string {
  if (!/Ms$/.test(path)) return String(value);
  return `${Number((value / 1000).toFixed(1))} s`;
}

/** The value at a dotted path of the experiment (`faults.0.atMs`), plus `faults.N.endMs`: atMs + forMs. */
function settingAt(experiment: Experiment, path: string): number | undefined {
  const end = /^faults\.(\d+)\.endMs$/.exec(path);
  if (end) {
    const f = experiment.faults[Number(end[1])] as { atMs: number; forMs?: number } | undefined;
    return f?.forMs === undefined ? undefined : f.atMs + f.forMs;
  }
  let v: unknown = experiment;
  for (const key of path.split('.')) v = v !== null && typeof v === 'object' ? (v as never)[key] : undefined;
  return typeof v === 'number' ? v : undefined;
}

/** The settings a caption names that the experiment does not have. */
export function unknownSettings(caption: string, experiment: Experiment): string[] {
  return [...caption.matchAll(SETTING)]
    .map((m) => m[1])
    .filter((p) => settingAt(experiment, p) === undefined);
}

/** The caption with its `{setting:path}` placeholders filled from the experiment. */
export function fillSettings(caption: string, experiment: Experiment): string {
  return caption.replace(SETTING, (whole, path: string) => {
    const v = settingAt(experiment, path);
    return v === undefined ? whole : said(path, v);
  });
}
