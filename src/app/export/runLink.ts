// An imported file opens through the same door as a shared link: the page reads `?run=` and
// rebuilds the lab from it, so an import behaves exactly like opening that run's link.
import { parseExperiment, type Experiment } from '../../engine';
import { encodeRun, experimentDiff } from '../share';
import type { ImportedRun } from './traceFile';

const defaults = (parseExperiment({}) as { ok: true; experiment: Experiment }).experiment;

/** Parameters that describe some other run; `run` replaces them all. */
const RUN_PARAMS = ['run', 'scenario', 'step', 'seed', 'nodes', 'clients', 'witness', 'paused'];

export function runLink(run: ImportedRun, href: string): string {
  const url = new URL(href);
  for (const k of RUN_PARAMS) url.searchParams.delete(k);
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
