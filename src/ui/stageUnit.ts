// The stage's unit (CSS px per viewBox unit), a CSS variable flooring its font sizes (clusterScene.css):
// written on each resize (announced as STAGE_RESIZED), and by present mode for layouts it tries.
export const STAGE_RESIZED = 'lab:stage-resized';

/** The stage's scale as laid out now (screen px per viewBox unit; 0 with no size), written as its unit. */
export function writeStageUnit(svg: SVGSVGElement): number {
  const view = svg.viewBox.baseVal;
  const box = svg.getBoundingClientRect();
  const scale = view.width && view.height ? Math.min(box.width / view.width, box.height / view.height) : 0;
  if (scale > 0) svg.style.setProperty('--stage-unit', (1 / scale).toFixed(3));
  return scale;
}
