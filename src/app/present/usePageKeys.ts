// The page's keyboard, for any lab page (the simulator's, a real run's, a real run's recording):
// the speaker shortcuts the run offers, the help overlay's and controls' state, full screen, and
// a note when a key could not act.
import { useEffect, useMemo, useRef, useState } from 'react';
import type { GuidedStore } from '../../store/guidedStore';
import type { LabStore } from '../../store/labStore';
import { offeredShortcuts, type Shortcut } from './shortcuts';
import { useShortcuts, type ViewHandlers } from './useShortcuts';

/** How long a note about a key that could not act stays up. */
const KEY_NOTE_MS = 6000;

export interface PageKeys {
  view: ViewHandlers;
  helpOpen: boolean;
  closeHelp(): void;
  controlsHidden: boolean;
  /** Why the last key did nothing, for a few seconds. */
  keyNote: string | null;
  /** What the help overlay lists: the shortcuts this run offers. */
  shortcuts: Shortcut[];
}

export function usePageKeys(lab: LabStore, guided: GuidedStore | null): PageKeys {
  const [helpOpen, setHelpOpen] = useState(false);
  const [controlsHidden, setControlsHidden] = useState(false);
  const [keyNote, setKeyNote] = useState<string | null>(null);
  const noteTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const view = useMemo<ViewHandlers>(
    () => ({
      toggleHelp: () => setHelpOpen((o) => !o),
      closeHelp: () => {
        let was = false;
        setHelpOpen((o) => ((was = o), false));
        return was;
      },
      toggleControls: () => setControlsHidden((h) => !h),
      toggleFullscreen: () => {
        if (document.fullscreenElement) void document.exitFullscreen();
        else void document.documentElement.requestFullscreen?.().catch(() => undefined);
      },
      notify: (message: string) => {
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
  useShortcuts(lab, guided, view);
  useEffect(() => {
    document.documentElement.classList.toggle('controls-hidden', controlsHidden);
  }, [controlsHidden]);
  // A run's capabilities are fixed for its backend; a reset to another algorithm keeps them.
  const shortcuts = useMemo(() => offeredShortcuts(lab.getState().can, guided !== null), [lab, guided]);
  return { view, helpOpen, closeHelp: () => setHelpOpen(false), controlsHidden, keyNote, shortcuts };
}
