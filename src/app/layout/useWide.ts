// Whether the lab is laid out as one screen or one view at a time: layout.css's breakpoint.
import { useSyncExternalStore } from 'react';

export const WIDE_QUERY = '(min-width: 1100px)';

function subscribe(onChange: () => void): () => void {
  const mq = window.matchMedia?.(WIDE_QUERY);
  mq?.addEventListener('change', onChange);
  return () => mq?.removeEventListener('change', onChange);
}

const read = () => window.matchMedia?.(WIDE_QUERY).matches ?? true;

export function useWide(): boolean {
  return useSyncExternalStore(subscribe, read, () => true);
}
