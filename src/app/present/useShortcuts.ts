// Installs the speaker shortcuts on the document. Space and the arrow keys keep their native
// meaning on focused controls (a button, a slider), so keyboard users are never surprised.
import { useEffect } from 'react';
import type { GuidedStore } from '../../store/guidedStore';
import type { LabStore } from '../../store/labStore';
import { findShortcut, isTyping, VIEW_KEYS } from './shortcuts';

export interface ViewHandlers {
  toggleHelp(): void;
  toggleControls(): void;
  toggleFullscreen(): void;
  closeHelp(): boolean;
}

function nativeKeyFor(target: EventTarget | null, key: string): boolean {
  const el = target as HTMLElement | null;
  if (!el || !el.tagName) return false;
  const tag = el.tagName.toLowerCase();
  const role = el.getAttribute('role');
  if (
    (key === ' ' || key === 'Enter') &&
    (tag === 'button' || tag === 'a' || tag === 'summary' || role === 'button' || tag === 'input')
  )
    return true;
  if (key.startsWith('Arrow') && tag === 'input') return true;
  return false;
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
      shortcut.run(lab, guided);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [lab, guided, view]);
}
