// Present mode draws the stage whole or not at all. A step that names another view (the chain,
// the chart, the banner) makes that view as tall as it needs, and the stage beside it takes what
// is left, which can leave its words drawn over each other. This measures the stage as the step
// lays it out and, while it is too small for its words, first gives it the failover timeline's
// place under it; where that is still too little, or the timeline is the step's view, the timeline
// takes the stage's place instead. layout.css lays out each room; the lab runs on behind it.
import { useEffect, useLayoutEffect, useMemo, type RefObject } from 'react';
import { STAGE_RESIZED, writeStageUnit } from '../../ui/stageUnit';

/** What the stage is given beyond the step's layout: the timeline's place, or none at all. */
type Room = 'alone' | 'hidden';

/**
 * The least scale (screen px per unit of the stage's viewBox) for a stage's words: at 0.5 each
 * node's name sat on its epoch; from 0.56 up, three to five nodes kept their words apart. Below
 * it the stage is too small even while its words happen not to meet (squeezed flat, they are
 * drawn at no size at all).
 */
const MIN_STAGE_SCALE = 0.55;

/**
 * Whether two of the stage's words are drawn over each other: their boxes, less the fifth of their
 * height a font keeps above and below its glyphs, overlap by more than half a pixel.
 */
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

/**
 * Whether the stage's words fit it as laid out now (measured at the size they are drawn at its
 * scale, which the stage itself only learns in its next frame), or null while it is not drawn
 * (loading, or hidden).
 */
function stageFits(root: HTMLElement): boolean | null {
  const svg = root.querySelector<SVGSVGElement>('.area-stage .cluster-svg');
  if (!svg || svg.getClientRects().length === 0) return null;
  return writeStageUnit(svg) >= MIN_STAGE_SCALE && !wordsMeet(svg);
}

/**
 * Gives the stage more room, a room at a time from the one it has, while its words do not fit.
 * Each room is measured at once (reading the box lays the page out): only the last is painted.
 */
function fit(root: HTMLElement, rooms: readonly Room[]): void {
  for (let next = rooms.indexOf(root.dataset.stage as Room) + 1; next < rooms.length; next++) {
    if (stageFits(root) !== false) return;
    root.dataset.stage = rooms[next];
  }
}

/**
 * While `active` (present mode, on a step that does not name the stage), keeps the lab's
 * `data-stage` at the least room that draws the stage whole. The attribute is written straight to
 * the element rather than through React state: each try must be laid out and measured before
 * the next, within one frame.
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
    // A new window size starts again from the step's layout; a stage resized within the step (a
    // view beside it grew, or the stage was first drawn) may need more room. The stage reports
    // its size from a ResizeObserver, whose targets must not be resized within its callback: the
    // next frame takes more room.
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
