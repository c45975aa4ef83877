// Present mode draws the chart whole or not at all, as the stage (layout/useStageRoom.ts): a chart whose
// words meet or that overflows its box is `data-chart="hidden"`, its place given to its neighbours.
import { useEffect, useLayoutEffect, type RefObject } from 'react';
import { wordsMeet } from '../layout/useStageRoom';

const CHART = '.area-chart .metric-svg';

/** Hides the chart if, drawn for its box, it does not fit it (one shorter was drawn for a smaller box). */
function hideIfSqueezed(root: HTMLElement, svg: SVGSVGElement): void {
  const box = svg.parentElement;
  if (!box || svg.getClientRects().length === 0) return;
  const drawnPx = svg.getBoundingClientRect().height;
  if (drawnPx < box.clientHeight - 1) return;
  if (drawnPx > box.clientHeight + 1 || wordsMeet(svg)) root.dataset.chart = 'hidden';
}

/** While `active`, keeps the lab's `data-chart` at `hidden` when the chart does not fit its box. */
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
    // Judged two frames on, once the chart has redrawn, outside the observer's callback (no resizing there).
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
