// A guided step that names a view in the tabs below the fold brings it into view: "Watch the znode queue"
// must not point at nothing. Scrolled to only when off screen, without motion for a reader who asks none.
import { sceneWatching } from '../../shared/scenes';
import type { View } from '../../scenario/types';
import { reduced } from '../../ui/pointAt';

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

let settling: (() => void) | null = null;
/** A reader's own scrolling or key press, which ends the settling. */
const READER_MOVES = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;
/** A top on screen with room under it. */
const inView = (top: number) => top >= 0 && top < window.innerHeight * 0.6;

/** Scroll `el` to the top of the window unless its top is already on screen with room under it. */
export function revealView(el: HTMLElement | null): void {
  settling?.();
  if (!el || typeof el.scrollIntoView !== 'function') return;
  const box = el.getBoundingClientRect();
  if (box.width === 0 && box.height === 0) return; // not shown (a phone's other view)
  if (inView(box.top)) return;
  el.scrollIntoView({ block: 'start', behavior: reduced() ? 'auto' : 'smooth' });
  // While the page is still loading the scroll may stop short or the view move away: each time the page
  // changes size it is brought back (for a few seconds, and not after the reader has scrolled or typed).
  if (typeof ResizeObserver !== 'function') return;
  const stop = () => {
    settling = null;
    ro.disconnect();
    clearTimeout(timer);
    for (const type of READER_MOVES) removeEventListener(type, stop);
  };
  let first = true; // the call observe() makes at once: the scroll above is under way
  const ro = new ResizeObserver(() => {
    if (first) return void (first = false);
    if (!inView(el.getBoundingClientRect().top)) el.scrollIntoView({ block: 'start', behavior: 'auto' });
  });
  const timer = setTimeout(stop, 8000);
  for (const type of READER_MOVES) addEventListener(type, stop, { passive: true });
  ro.observe(document.body);
  settling = stop;
}
