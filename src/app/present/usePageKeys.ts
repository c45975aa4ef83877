// The keyboard of any lab page: the shortcuts the run's backend offers, help, controls, full screen and
// present mode, with a note when a key could not act. Focused controls keep their keys (keyBelongsToTarget).
import { useEffect, useMemo, useRef, useState } from 'react';
import type { GuidedStore } from '../../store/guidedStore';
import type { LabStore } from '../../store/labStore';
import {
  ARROW_STEP_KEYS,
  CLICKER_KEYS,
  findShortcut,
  keyBelongsToTarget,
  offeredShortcuts,
  VIEW_KEYS,
  type Shortcut,
} from './shortcuts';

export interface ViewHandlers {
  toggleHelp(): void;
  toggleControls(): void;
  toggleFullscreen(): void;
  closeHelp(): boolean;
  /** Leave present mode, keeping the run where it is. */
  exitPresent(): void;
  /** Tell the reader why a key did nothing, while `holds` (the state it speaks of) lasts. */
  notify(message: string, holds?: () => boolean): void;
}

/**
 * How long a step stays on screen at least before the next-step key leaves it: a clicker's double press
 * would otherwise pass a short step unseen. A press in that time still finishes a waiting step (Skip).
 */
export const MIN_STEP_SHOWN_MS = 500;

const NEXT_KEYS = new Set(['PageDown', 'ArrowRight']);

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
  useEffect(() => {
    // When the current step began, on the page's clock (a step begun again by Replay counts anew).
    let stepShownAt = performance.now();
    const unwatch = guided?.subscribe((s, was) => {
      if (s.step !== was.step || s.stepStartMs !== was.stepStartMs) stepShownAt = performance.now();
    });
    const tooSoonToLeave = (key: string) =>
      guided !== null &&
      NEXT_KEYS.has(key) &&
      guided.getState().status !== 'waiting' &&
      performance.now() - stepShownAt < MIN_STEP_SHOWN_MS;

    // The control the pointer last pressed: focus it holds from a click, not from Tab.
    let pressed: EventTarget | null = null;
    const onPointerDown = (e: PointerEvent) => (pressed = e.target);
    const byPointer = (target: EventTarget | null) => target !== null && target === pressed;

    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Tab') pressed = null;
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
      if (keyBelongsToTarget(e.target, e.key, present, byPointer(e.target))) return;
      if (e.key === 'Escape') {
        if (view.closeHelp()) e.preventDefault();
        else if (present) {
          e.preventDefault();
          view.exitPresent();
        }
        return;
      }
      const own = VIEW_KEYS.find((v) => v.keys[0] === e.key.toLowerCase());
      if (own) return void (e.preventDefault(), view[own.act]());
      // A key the run does not offer (a real run's step, say) is left alone: hidden, not faked.
      const shortcut = findShortcut(e.key, lab.getState().can, guided !== null);
      if (!shortcut) return;
      e.preventDefault();
      if (tooSoonToLeave(e.key)) return;
      const why = shortcut.run(lab, guided);
      const { noteHolds } = shortcut;
      if (why) view.notify(why, noteHolds && (() => noteHolds(lab)));
    };
    // In present mode the clicker's keys are taken before any control sees them (a node selects itself
    // on Space): on the window, in the capture phase. A key pressed inside the open help is the help's.
    const onClickerKey = (e: KeyboardEvent) => {
      const clicker = CLICKER_KEYS.has(e.key) || (ARROW_STEP_KEYS.has(e.key) && byPointer(e.target));
      if (!clicker || (e.target as Element | null)?.closest?.('dialog[open]')) return;
      onKey(e);
      if (e.defaultPrevented) e.stopPropagation();
    };
    document.addEventListener('keydown', onKey);
    if (present) {
      window.addEventListener('keydown', onClickerKey, { capture: true });
      window.addEventListener('pointerdown', onPointerDown, { capture: true });
    }
    return () => {
      unwatch?.();
      document.removeEventListener('keydown', onKey);
      window.removeEventListener('keydown', onClickerKey, { capture: true });
      window.removeEventListener('pointerdown', onPointerDown, { capture: true });
    };
  }, [lab, guided, view, present]);
  useEffect(() => {
    document.documentElement.classList.toggle('controls-hidden', controlsHidden);
    document.documentElement.classList.toggle('present', present);
  }, [controlsHidden, present]);
  // A run's capabilities are fixed for its backend; a reset to another algorithm keeps them.
  const shortcuts = useMemo(() => offeredShortcuts(lab.getState().can, guided !== null), [lab, guided]);
  return { view, helpOpen, closeHelp: () => setHelpOpen(false), controlsHidden, present, keyNote, shortcuts };
}
