// An imported file opens through the same door as a shared link: the page reads `?run=` and
// rebuilds the lab from it, so an import behaves exactly like opening that run's link.
import { parseExperiment, type Experiment } from '../../engine';
import { encodeRun, experimentDiff } from '../../shared/share';
import type { ImportedRun } from './traceFile';
import { RUN_PARAMS } from '../../shared/params';

const defaults = (parseExperiment({}) as { ok: true; experiment: Experiment }).experiment;

export function runLink(run: ImportedRun, href: string): string {
  const url = new URL(href);
  // Whatever described some other run goes: `run` replaces it all.
  for (const k of [...RUN_PARAMS, 'paused']) url.searchParams.delete(k);
  url.searchParams.set(
    'run',
    encodeRun({
      experiment: experimentDiff(run.experiment, defaults),
      commands: run.commands,
      atMs: run.atMs,
    }),
  );
  return url.toString();
}
