// The lab store is provided through context so that each mounted lab (or embedded scene) has
// its own; components read it with useLab(selector) and never import a global store.
import { createContext, useContext, useEffect, useRef, type ReactNode } from 'react';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import type { LabActions, LabState, LabStore } from './labStore';

const LabContext = createContext<LabStore | null>(null);

export function LabProvider({ store, children }: { store: LabStore; children: ReactNode }) {
  return <LabContext.Provider value={store}>{children}</LabContext.Provider>;
}

export function useLabStore(): LabStore {
  const store = useContext(LabContext);
  if (!store) throw new Error('useLab must be used inside <LabProvider>');
  return store;
}

export function useLab<T>(selector: (s: LabState & LabActions) => T): T {
  return useStore(useLabStore(), selector);
}

/** Select several fields with shallow comparison (re-render only when one of them changes). */
export function useLabShallow<T extends object>(selector: (s: LabState & LabActions) => T): T {
  return useStore(useLabStore(), useShallow(selector));
}

/**
 * Run a callback on every store update without re-rendering: for per-frame motion (message
 * dots, lease arcs, pause timers) that writes straight to the DOM.
 */
export function useLabFrame(callback: (s: LabState) => void): void {
  const store = useLabStore();
  const ref = useRef(callback);
  ref.current = callback;
  useEffect(() => {
    ref.current(store.getState());
    return store.subscribe((s) => ref.current(s));
  }, [store]);
}
