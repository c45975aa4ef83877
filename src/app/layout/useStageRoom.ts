// Present mode draws the stage whole or not at all. A step that names another view (the chain,
// the chart, the failover timeline, the banner) makes that view as tall as it needs, and the
// stage beside it takes what is left: at 1280x720 that was 43 to 260 px, its words at their
// on-screen floor drawn over each other. This measures the stage as the step lays it out and,
// while it is too small for its words, first gives it the failover timeline's place under it;
// where the step names the timeline, or that is still too little, the timeline takes the stage's
// place instead. layout.css lays out each room; the lab keeps running behind a hidden stage.
import { useEffect, useLayoutEffect, useMemo, type RefObject } from 'react';
import { STAGE_RESIZED } from '../../ui/stageEvents';

/** What the stage is given beyond the step's layout: the timeline's place, or none at all. */
type Room = 'alone' | 'hidden';

/**
 * The least scale (screen px per unit of the stage's viewBox) at which its words, at their
 * on-screen floor, keep apart: at 0.5 each node's name sat on its epoch; from 0.56 up nothing
 * touched, on any step of any game day.
 */
const MIN_STAGE_SCALE = 0.55;

/** The stage's scale as laid out now (0 when squeezed flat), or null while it is not drawn (loading, or hidden). */
function stageScale(root: HTMLElement): number | null {
  const svg = root.querySelector<SVGSVGElement>('.area-stage .cluster-svg');
  const view = svg?.viewBox.baseVal;
  if (!svg || svg.getClientRects().length === 0 || !view?.width || !view.height) return null;
  const box = svg.getBoundingClientRect();
  return Math.min(box.width / view.width, box.height / view.height);
}

/**
 * Gives the stage more room, a room at a time from the one it has, while its words do not fit.
 * Each room is measured at once (reading the box lays the page out): only the last is painted.
 */
function fit(root: HTMLElement, rooms: readonly Room[]): void {
  for (let next = rooms.indexOf(root.dataset.stage as Room) + 1; next < rooms.length; next++) {
    const scale = stageScale(root);
    if (scale === null || scale >= MIN_STAGE_SCALE) return;
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
