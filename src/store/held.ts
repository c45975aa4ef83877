// A hook's value kept outside React state, given to React via useSyncExternalStore. Not useState: a setState
// from a store subscription renders in a later scheduler task, its DOM change in its own frame; an external
// store's update renders synchronously, in the snapshot's frame, as the page needs (clock.ts says why).
import { useSyncExternalStore } from 'react';

export interface Held<T> {
  get(): T;
  set(value: T): void;
  subscribe(listener: () => void): () => void;
}

export function held<T>(initial: T): Held<T> {
  let value = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    set: (next) => {
      if (Object.is(next, value)) return;
      value = next;
      for (const l of [...listeners]) l();
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export function useHeld<T>(h: Held<T>): T {
  return useSyncExternalStore(h.subscribe, h.get, h.get);
}
