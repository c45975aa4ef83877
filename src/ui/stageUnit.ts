// The cluster stage's size, as its words see it: its font sizes take a floor from its unit (CSS px per
// viewBox unit) in a CSS variable (clusterScene.css). The stage writes it on each resize and announces
// that (STAGE_RESIZED); present mode measures again then, and writes it for layouts the stage has not seen.
export const STAGE_RESIZED = 'lab:stage-resized';

/** The stage's scale as laid out now (screen px per viewBox unit; 0 with no size), written as its unit. */
export function writeStageUnit(svg: SVGSVGElement): number {
  const view = svg.viewBox.baseVal;
  const box = svg.getBoundingClientRect();
  const scale = view.width && view.height ? Math.min(box.width / view.width, box.height / view.height) : 0;
  if (scale > 0) svg.style.setProperty('--stage-unit', (1 / scale).toFixed(3));
  return scale;
}
