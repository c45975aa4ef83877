// Installs the speaker shortcuts on the document. Keys keep their native meaning on a focused
// control that has one (nativeKeyFor), so keyboard users are never surprised. A run's backend
// decides which it offers: a real run's faults go to the real cluster through its commands.
import { useEffect } from 'react';
import type { GuidedStore } from '../../store/guidedStore';
import type { LabStore } from '../../store/labStore';
import { findShortcut, isTyping, nativeKeyFor, VIEW_KEYS } from './shortcuts';

export interface ViewHandlers {
  toggleHelp(): void;
  toggleControls(): void;
  toggleFullscreen(): void;
  closeHelp(): boolean;
  /** Tell the reader why a key did nothing. */
  notify(message: string): void;
}

export function useShortcuts(lab: LabStore, guided: GuidedStore | null, view: ViewHandlers): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
      if (isTyping(e.target) || nativeKeyFor(e.target, e.key)) return;
      if (e.key === 'Escape') {
        if (view.closeHelp()) e.preventDefault();
        return;
      }
      if (e.key === VIEW_KEYS.help) {
        e.preventDefault();
        view.toggleHelp();
        return;
      }
      const k = e.key.toLowerCase();
      if (k === VIEW_KEYS.controls) return void (e.preventDefault(), view.toggleControls());
      if (k === VIEW_KEYS.fullscreen) return void (e.preventDefault(), view.toggleFullscreen());
      // A key the run does not offer (a real run's step, say) is left alone: hidden, not faked.
      const shortcut = findShortcut(e.key, lab.getState().can, guided !== null);
      if (!shortcut) return;
      e.preventDefault();
      const why = shortcut.run(lab, guided);
      if (why) view.notify(why);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [lab, guided, view]);
}
