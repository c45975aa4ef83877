// The last session, saved locally as a run link, so a bad link (or a closed tab) never loses
// what a person had open: the page offers it back.
import { parseExperiment } from '../engine';
import type { LabStore } from '../store/labStore';
import { codecLoaded, loadCodec } from './codec';
import { encodeRun, experimentDiff } from './share';

const KEY = 'lel-last-run';
const defaults = (parseExperiment({}) as { ok: true; experiment: import('../engine').Experiment }).experiment;

/** The current run of a lab as a URL query value for `run`. */
export function runParam(store: LabStore): string {
  const s = store.getState();
  const engine = store.engine();
  return encodeRun({
    experiment: experimentDiff(s.experiment, defaults),
    commands: engine.commands,
    atMs: s.snapshot.nowMs,
  });
}

export function linkToMoment(store: LabStore): string {
  const url = new URL(window.location.href);
  for (const k of ['run', 'scenario', 'step', 'seed', 'nodes', 'clients', 'witness']) url.searchParams.delete(k);
  url.searchParams.set('run', runParam(store));
  return url.toString();
}

export function saveSession(store: LabStore): void {
  if (!codecLoaded()) {
    // The page loads the codec once it is idle: the session is saved on the next round.
    void loadCodec().catch(() => undefined);
    return;
  }
  try {
    localStorage.setItem(KEY, runParam(store));
  } catch {
    // No storage (private mode, quota): the session is simply not kept.
  }
}

export function lastSession(): string | null {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null;
  }
}

/** Save the session every few seconds while the page is open, and when it is hidden. */
export function autosave(store: LabStore, everyMs = 3000): () => void {
  const timer = window.setInterval(() => saveSession(store), everyMs);
  const onHide = () => {
    if (document.visibilityState === 'hidden') saveSession(store);
  };
  document.addEventListener('visibilitychange', onHide);
  return () => {
    window.clearInterval(timer);
    document.removeEventListener('visibilitychange', onHide);
  };
}
