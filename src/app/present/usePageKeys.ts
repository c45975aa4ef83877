// The page's keyboard, for any lab page (the simulator's, a real run's, a real run's recording):
// the speaker shortcuts the run offers, the help overlay's and controls' state, full screen,
// present mode (left with Esc or its button, keeping the run), and a note when a key could not act.
import { useEffect, useMemo, useRef, useState } from 'react';
import type { GuidedStore } from '../../store/guidedStore';
import type { LabStore } from '../../store/labStore';
import { offeredShortcuts, type Shortcut } from './shortcuts';
import { useShortcuts, type ViewHandlers } from './useShortcuts';

/** How long a note about a key that could not act stays up, at most: less once it is no longer true. */
const KEY_NOTE_MS = 6000;

export interface PageKeys {
  view: ViewHandlers;
  helpOpen: boolean;
  closeHelp(): void;
  controlsHidden: boolean;
  /** Whether the page is in present mode (the `html.present` class follows it). */
  present: boolean;
  /** Why the last key did nothing, for a few seconds. */
  keyNote: string | null;
  /** What the help overlay lists: the shortcuts this run offers. */
  shortcuts: Shortcut[];
}

/** This page's address with present mode on or off, the rest of the link as it is. */
export function presentHref(on: boolean): string {
  const q = new URLSearchParams(window.location.search);
  if (on) q.set('present', '');
  else q.delete('present');
  const s = q.toString().replace(/present=(&|$)/, 'present$1');
  return `${window.location.pathname}${s ? `?${s}` : ''}`;
}

export function usePageKeys(lab: LabStore, guided: GuidedStore | null, presentAtStart = false): PageKeys {
  const [present, setPresent] = useState(presentAtStart);
  const [helpOpen, setHelpOpen] = useState(false);
  // Read by Esc in the same event that may close the help: a state updater runs too late for that.
  const helpOpenNow = useRef(false);
  helpOpenNow.current = helpOpen;
  const [controlsHidden, setControlsHidden] = useState(false);
  const [keyNote, setKeyNote] = useState<string | null>(null);
  const noteTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  // While a note is up: whether what it says still holds (a leader to kill may have been elected).
  const noteHolds = useRef<(() => boolean) | null>(null);
  const view = useMemo<ViewHandlers>(
    () => ({
      toggleHelp: () => setHelpOpen((o) => !o),
      closeHelp: () => {
        const was = helpOpenNow.current;
        helpOpenNow.current = false;
        setHelpOpen(false);
        return was;
      },
      exitPresent: () => {
        setPresent(false);
        setControlsHidden(false);
        // The link stays the page's own, so a reload or a copied link stays out of present mode.
        window.history.replaceState(window.history.state, '', presentHref(false));
        if (document.fullscreenElement) void document.exitFullscreen();
      },
      toggleControls: () => setControlsHidden((h) => !h),
      toggleFullscreen: () => {
        if (document.fullscreenElement) void document.exitFullscreen();
        else void document.documentElement.requestFullscreen?.().catch(() => undefined);
      },
      notify: (message: string, holds?: () => boolean) => {
        noteHolds.current = holds ?? null;
        setKeyNote(message);
        if (noteTimer.current) clearTimeout(noteTimer.current);
        noteTimer.current = setTimeout(() => setKeyNote(null), KEY_NOTE_MS);
      },
    }),
    [],
  );
  useEffect(
    () => () => {
      if (noteTimer.current) clearTimeout(noteTimer.current);
    },
    [],
  );
  // A note about a state goes when the state ends, not seconds later beside its opposite.
  useEffect(() => {
    if (!keyNote) return;
    return lab.subscribe(() => {
      if (noteHolds.current && !noteHolds.current()) setKeyNote(null);
    });
  }, [lab, keyNote]);
  useShortcuts(lab, guided, view, present);
  useEffect(() => {
    document.documentElement.classList.toggle('controls-hidden', controlsHidden);
  }, [controlsHidden]);
  useEffect(() => {
    document.documentElement.classList.toggle('present', present);
  }, [present]);
  // A run's capabilities are fixed for its backend; a reset to another algorithm keeps them.
  const shortcuts = useMemo(() => offeredShortcuts(lab.getState().can, guided !== null), [lab, guided]);
  return { view, helpOpen, closeHelp: () => setHelpOpen(false), controlsHidden, present, keyNote, shortcuts };
}
