// A guided step that names a view brings it into view: the views on the first screen are where
// the reader already looks, but one in the strip of tabs below (the znode queue, the failover
// timeline, the event log) sits under the fold, and "Watch the znode queue" must not point at
// nothing. Scrolled to only when it is not already on screen, and without motion for a reader
// who asked for none.
import { sceneWatching } from '../../shared/scenes';
import type { View } from '../../scenario/types';

/** The element of the lab that shows `view`: its tab (with its panel under it), or its panel. */
export function viewElement(lab: Element, view: View): HTMLElement | null {
  const scene = sceneWatching(view);
  const id =
    scene?.labPlace === 'tab'
      ? `more-tab-${scene.id}`
      : scene
        ? `view-${scene.id}`
        : view === 'log'
          ? 'more-tab-events'
          : null;
  if (id) return lab.querySelector<HTMLElement>(`#${id}`);
  if (view === 'banner') return lab.querySelector<HTMLElement>('[data-testid="safety-banner"]');
  return null;
}

/** Scroll `el` to the top of the window unless its top is already on screen with room under it. */
export function revealView(el: HTMLElement | null): void {
  if (!el || typeof el.scrollIntoView !== 'function') return;
  const box = el.getBoundingClientRect();
  if (box.width === 0 && box.height === 0) return; // not shown (a phone's other view)
  if (box.top >= 0 && box.top < window.innerHeight * 0.6) return;
  const still = typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
  el.scrollIntoView({ block: 'start', behavior: still ? 'auto' : 'smooth' });
  // A tab's panel that is still loading leaves the page too short to bring its tab to the top:
  // the scroll stops where the page ends. Once the page has grown enough, it goes on (within a
  // few seconds, and not after the reader has scrolled or pressed a key themselves).
  const page = document.scrollingElement;
  if (!page || typeof ResizeObserver !== 'function') return;
  const wanted = box.top + window.scrollY;
  if (page.scrollHeight - window.innerHeight >= wanted - 1) return;
  const stop = () => {
    ro.disconnect();
    clearTimeout(timer);
    for (const type of ['wheel', 'touchstart', 'keydown'] as const) removeEventListener(type, stop);
  };
  const ro = new ResizeObserver(() => {
    if (page.scrollHeight - window.innerHeight < wanted - 1) return;
    stop();
    el.scrollIntoView({ block: 'start', behavior: still ? 'auto' : 'smooth' });
  });
  const timer = setTimeout(stop, 5000);
  for (const type of ['wheel', 'touchstart', 'keydown'] as const)
    addEventListener(type, stop, { passive: true });
  ro.observe(document.body);
}
