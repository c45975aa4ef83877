// Installs the speaker shortcuts on the document. Keys keep their native meaning on a focused
// control that has one (nativeKeyFor), so keyboard users are never surprised.
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
      const shortcut = findShortcut(e.key);
      if (!shortcut) return;
      e.preventDefault();
      if (shortcut.needs && !lab.getState().can.commands.includes(shortcut.needs)) {
        view.notify(`${shortcut.label}: this run cannot do that.`);
        return;
      }
      const why = shortcut.run(lab, guided);
      if (why) view.notify(why);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [lab, guided, view]);
}
