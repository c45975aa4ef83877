// Present mode draws the chart whole or not at all, as it does the stage (layout/useStageRoom.ts).
// A step that names another view makes that view as tall as it needs, and the chart beside it
// takes what is left, which can pile its labels on each other and cut its time axis. While the
// chart, drawn for its box, has words over each other or is taller than the box (its plot at its
// least height), the lab's `data-chart` is `hidden` and layout.css gives the chart's place to the
// views beside it. A new step or window size starts again from the step's own layout; the lab
// keeps running behind a hidden chart.
import { useEffect, useLayoutEffect, type RefObject } from 'react';
import { wordsMeet } from '../layout/useStageRoom';

const CHART = '.area-chart .metric-svg';

/**
 * Hides the chart if, drawn for the box it has now, it does not fit it. A drawing shorter than
 * its box is one made for an earlier, smaller box (the chart redraws when its box changes size):
 * the next one is judged.
 */
function hideIfSqueezed(root: HTMLElement, svg: SVGSVGElement): void {
  const box = svg.parentElement;
  if (!box || svg.getClientRects().length === 0) return;
  const drawnPx = svg.getBoundingClientRect().height;
  if (drawnPx < box.clientHeight - 1) return;
  if (drawnPx > box.clientHeight + 1 || wordsMeet(svg)) root.dataset.chart = 'hidden';
}

/**
 * While `active` (present mode, on a step that does not name the chart), keeps the lab's
 * `data-chart` at `hidden` when the chart does not fit its box.
 */
export function useChartRoom(
  root: RefObject<HTMLElement | null>,
  active: boolean,
  /** Changes with each step: a new step starts again from its own layout. */
  step: unknown,
): void {
  useLayoutEffect(() => {
    if (root.current) delete root.current.dataset.chart;
  }, [root, active, step]);
  useEffect(() => {
    const el = root.current;
    if (!el || !active) return;
    // The chart's drawing changes size when the chart redraws for a new box (or is shown again):
    // it is judged two frames later, by when it has redrawn, outside the observer's callback
    // (which must not resize what it observes).
    let frame = 0;
    let svg: SVGSVGElement | null = null;
    const judge = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        frame = requestAnimationFrame(() => svg && hideIfSqueezed(el, svg));
      });
    };
    const sized = new ResizeObserver(judge);
    // The chart mounts after the lab (its code loads apart): it is looked for until it is there.
    const mounted = new MutationObserver(() => {
      svg = el.querySelector<SVGSVGElement>(CHART);
      if (!svg) return;
      mounted.disconnect();
      sized.observe(svg);
    });
    svg = el.querySelector<SVGSVGElement>(CHART);
    if (svg) sized.observe(svg);
    else mounted.observe(el, { childList: true, subtree: true });
    const onResize = () => {
      delete el.dataset.chart;
      judge();
    };
    window.addEventListener('resize', onResize);
    return () => {
      cancelAnimationFrame(frame);
      sized.disconnect();
      mounted.disconnect();
      window.removeEventListener('resize', onResize);
    };
  }, [root, active]);
}
