// Present mode draws the stage whole or not at all: too small for its words, it first gets the failover
// timeline's place; where that is too little, or the step names the timeline, it gives its own (layout.css).
import { useEffect, useLayoutEffect, useMemo, type RefObject } from 'react';
import { STAGE_RESIZED, writeStageUnit } from '../../ui/stageUnit';

/** What the stage is given beyond the step's layout: the timeline's place, or none at all. */
type Room = 'alone' | 'hidden';

/**
 * The least scale (screen px per viewBox unit) for a stage's words: at 0.5 each node's name sat on its
 * epoch; from 0.56 up, 3-5 nodes kept them apart. Below it, even words that do not meet are too small.
 */
const MIN_STAGE_SCALE = 0.55;

/** Whether two words overlap by over half a pixel, less the fifth of their height a font pads glyphs with. */
export function wordsMeet(svg: SVGSVGElement): boolean {
  const boxes = [...svg.querySelectorAll('text')].flatMap((t) => {
    const r = t.getBoundingClientRect();
    const inset = r.height / 5;
    return t.textContent?.trim() && r.height > 0
      ? [{ left: r.left, right: r.right, top: r.top + inset, bottom: r.bottom - inset }]
      : [];
  });
  return boxes.some((a, i) =>
    boxes
      .slice(i + 1)
      .some(
        (b) =>
          Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 &&
          Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5,
      ),
  );
}

/** Whether the stage's words fit it as laid out now (a scale it learns only next frame); null if undrawn. */
function stageFits(root: HTMLElement): boolean | null {
  const svg = root.querySelector<SVGSVGElement>('.area-stage .cluster-svg');
  if (!svg || svg.getClientRects().length === 0) return null;
  return writeStageUnit(svg) >= MIN_STAGE_SCALE && !wordsMeet(svg);
}

/** Gives the stage a room more at a time while its words do not fit; only the last room is painted. */
function fit(root: HTMLElement, rooms: readonly Room[]): void {
  for (let next = rooms.indexOf(root.dataset.stage as Room) + 1; next < rooms.length; next++) {
    if (stageFits(root) !== false) return;
    root.dataset.stage = rooms[next];
  }
}

/**
 * While `active`, keeps the lab's `data-stage` at the least room that draws the stage whole. Written
 * straight to the element, not through React state: each try is laid out and measured within one frame.
 */
export function useStageRoom(
  root: RefObject<HTMLElement | null>,
  active: boolean,
  /** The step's view names the failover timeline: it keeps its place. */
  timelineNamed: boolean,
  /** Changes with each step: a new step starts again from its own layout. */
  step: unknown,
): void {
  const rooms = useMemo<readonly Room[]>(
    () => (timelineNamed ? ['hidden'] : ['alone', 'hidden']),
    [timelineNamed],
  );
  // Before the step is painted: from the step's own layout, as much room as it takes.
  useLayoutEffect(() => {
    const el = root.current;
    if (!el) return;
    delete el.dataset.stage;
    if (active) fit(el, rooms);
  }, [root, active, rooms, step]);
  useEffect(() => {
    const el = root.current;
    if (!el || !active) return;
    // A new window size starts again from the step's layout; a stage resized within the step may need
    // more room, taken in the next frame (a ResizeObserver's targets must not resize in its callback).
    let frame = 0;
    const onResize = () => {
      delete el.dataset.stage;
      fit(el, rooms);
    };
    const onStage = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => fit(el, rooms));
    };
    window.addEventListener('resize', onResize);
    el.addEventListener(STAGE_RESIZED, onStage);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('resize', onResize);
      el.removeEventListener(STAGE_RESIZED, onStage);
    };
  }, [root, active, rooms]);
}
