// A part of the lab page that follows the lab only while on screen (gate.ts says why). Only the lab page has
// scenes to scroll out of view, so this is not in the code every page loads first (vite.config.ts, CORE).
import { useEffect, useMemo, type ReactNode, type RefObject } from 'react';
import { LabProvider, useLabStore } from './context';
import { gateLab, trackGate } from './gate';

/** How far outside the viewport a scene counts as on screen: current as it scrolls in, not catching up. */
export const ON_SCREEN_MARGIN = '200px 0px';

/** Children follow the lab while `watch` is on screen or near (gate.ts); no IntersectionObserver: always. */
export function LabGate({
  watch,
  margin = ON_SCREEN_MARGIN,
  children,
}: {
  watch: RefObject<Element | null>;
  /** How near the viewport counts as on screen (a panel just under the fold may ask for less). */
  margin?: string;
  children: ReactNode;
}) {
  const source = useLabStore();
  const gate = useMemo(() => gateLab(source), [source]);
  useEffect(() => {
    const forget = trackGate(source, gate);
    const el = watch.current;
    let io: IntersectionObserver | null = null;
    if (el && typeof IntersectionObserver === 'function') {
      io = new IntersectionObserver(
        (entries) => {
          const last = entries[entries.length - 1];
          if (last) gate.setVisible(last.isIntersecting);
        },
        { rootMargin: margin },
      );
      io.observe(el);
    }
    return () => {
      io?.disconnect();
      gate.setVisible(true);
      forget();
    };
  }, [source, gate, watch, margin]);
  return <LabProvider store={gate.store}>{children}</LabProvider>;
}
