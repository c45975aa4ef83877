// The last session, saved locally so a bad link or a closed tab never loses it: the page offers it back
// as a run link. Saved as plain JSON, it needs neither the link codec (loaded only for links) nor deflate.
import { parseExperiment, type Experiment } from '../engine';
import type { GuidedStore } from '../store/guidedStore';
import type { LabStore } from '../store/labStore';
import { RUN_PARAMS } from '../shared/params';
import { codecLoaded } from '../shared/codec';
import { encodeRun, experimentDiff, SHARE_VERSION, type SharedRun } from '../shared/share';

const KEY = 'lel-last-run';
const defaults = (parseExperiment({}) as { ok: true; experiment: Experiment }).experiment;

/** The run on screen now: its setup, its game day and step if any, a copy of its recorded commands, and the moment shown. */
export function currentRun(store: LabStore, guided: GuidedStore | null = null): SharedRun {
  const s = store.getState();
  const g = guided?.getState();
  return {
    experiment: experimentDiff(s.experiment, defaults),
    ...(g ? { scenario: g.scenario.id, step: g.step } : {}),
    commands: [...store.backend().commands],
    atMs: s.snapshot.nowMs,
  };
}

/** This page's URL opening `run` (the codec must be loaded). */
export function linkToRun(run: SharedRun, href = window.location.href): string {
  const url = new URL(href);
  // Whatever described some other run goes: `run` replaces it all.
  for (const k of [...RUN_PARAMS, 'paused']) url.searchParams.delete(k);
  url.searchParams.set('run', encodeRun(run));
  return url.toString();
}

/** The link opening a whole experiment's run at a moment, through the same door as a shared link. */
export function runLink(
  { experiment, commands, atMs }: Pick<SharedRun, 'commands' | 'atMs'> & { experiment: Experiment },
  href?: string,
) {
  return linkToRun({ experiment: experimentDiff(experiment, defaults), commands, atMs }, href);
}

export function saveSession(store: LabStore): void {
  try {
    localStorage.setItem(KEY, JSON.stringify({ v: SHARE_VERSION, ...currentRun(store) }));
  } catch {
    // No storage (private mode, quota): the session is simply not kept.
  }
}

/** The last session as a `run` value (null without the codec, which a bad run link loads), or null. */
export function lastSession(): string | null {
  let saved: string | null;
  try {
    saved = localStorage.getItem(KEY);
  } catch {
    return null;
  }
  if (!saved) return null;
  if (!saved.startsWith('{')) return saved;
  if (!codecLoaded()) return null;
  try {
    // A session saved before runs had versions was made with the first model (version 1).
    const { v, ...run } = JSON.parse(saved) as SharedRun & { v?: number };
    return encodeRun(run, v ?? 1);
  } catch {
    return null; // not a run this page wrote; the link it makes is checked when opened anyway
  }
}

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
