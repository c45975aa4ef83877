// Each mounted lab (or embedded scene) has its own store, through context; never a global import.
import { createContext, useContext, useEffect, useLayoutEffect, useRef, type ReactNode } from 'react';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import type { Snapshot } from '../engine';
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

/** Select a value, re-rendering only when `equal` says it changed: for records rebuilt every snapshot. */
export function useLabEqual<T>(selector: (s: LabState & LabActions) => T, equal: (a: T, b: T) => boolean): T {
  const last = useRef<{ value: T } | null>(null);
  return useStore(useLabStore(), (s) => {
    const next = selector(s);
    const prev = last.current;
    if (prev && equal(prev.value, next)) return prev.value;
    last.current = { value: next };
    return next;
  });
}

/** Run a callback on each store update, no re-render: for text and attributes cheaper written to the DOM. */
export function useLabUpdate(callback: (s: LabState) => void): void {
  const store = useLabStore();
  const ref = useRef(callback);
  ref.current = callback;
  // Before the first paint, so what it writes is never seen missing.
  useLayoutEffect(() => {
    ref.current(store.getState());
    return store.subscribe((s) => ref.current(s));
  }, [store]);
}

/** Run a callback every frame (its snapshot, the state), no re-render: for motion written to the DOM. */
export function useLabFrame(callback: (frame: Snapshot, s: LabState) => void): void {
  const store = useLabStore();
  const ref = useRef(callback);
  ref.current = callback;
  useEffect(() => {
    ref.current(store.frame(), store.getState());
    return store.onFrame((frame) => ref.current(frame, store.getState()));
  }, [store]);
}
