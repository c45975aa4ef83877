// The cluster stage's size, as its words see it. Its SVG is scaled to its box, and its font sizes
// take a floor from its unit (CSS px per viewBox unit, inverted) in a CSS variable
// (clusterScene.css), so what its words take on screen follows its size. The stage writes that
// unit each time it is resized, and announces the size to the page (STAGE_RESIZED); present mode,
// which gives up a stage too small for its words, measures it again then, and writes the unit
// itself for a layout it tries before the stage has seen it.
export const STAGE_RESIZED = 'lab:stage-resized';

/**
 * The stage's scale as laid out now (screen px per unit of its viewBox; 0 with no size), written
 * as its unit: its words are then measured at the size they are drawn at that scale.
 */
export function writeStageUnit(svg: SVGSVGElement): number {
  const view = svg.viewBox.baseVal;
  const box = svg.getBoundingClientRect();
  const scale = view.width && view.height ? Math.min(box.width / view.width, box.height / view.height) : 0;
  if (scale > 0) svg.style.setProperty('--stage-unit', (1 / scale).toFixed(3));
  return scale;
}
