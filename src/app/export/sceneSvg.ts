// One scene as it looks now, as an SVG document. HTML scenes go in a foreignObject: browsers draw that
// faithfully (the PNG is made from it), but vector editors such as Inkscape may not, as the panel says.
import { withExportParts } from '../../ui/exportEvents';
import { StyleInliner } from './inlineStyles';

const SVG_NS = 'http://www.w3.org/2000/svg';
const XHTML_NS = 'http://www.w3.org/1999/xhtml';

/** A 1080p slide is 1920 px wide; very tall scenes are narrower so no side passes this. */
export const EXPORT_WIDTH_PX = 1920;
export const EXPORT_MAX_SIDE_PX = 8192;
/** Room around an HTML scene (CSS px), so borders on its edge are not cut by rounding. */
const HTML_MARGIN_PX = 8;

/** The output size for a scene drawn at `w` x `h` CSS px on screen. */
export function presentationSize(w: number, h: number): { width: number; height: number } {
  const scale = Math.min(EXPORT_WIDTH_PX / w, EXPORT_MAX_SIDE_PX / h);
  return { width: Math.max(1, Math.round(w * scale)), height: Math.max(1, Math.round(h * scale)) };
}

export function sceneSvg(source: Element, title: string) {
  const box = source.getBoundingClientRect();
  if (box.width < 1 || box.height < 1) throw new Error('it is not visible on the page right now');
  const margin = source instanceof SVGSVGElement ? 0 : HTML_MARGIN_PX;
  const size = presentationSize(box.width + 2 * margin, box.height + 2 * margin);
  const inliner = new StyleInliner();
  const background = inliner.portable(backgroundOf(source));
  try {
    // Parts a scene draws outside its SVG (the stage's moving parts, on a canvas) are put in for the copy.
    const root = withExportParts(source, () =>
      source instanceof SVGSVGElement
        ? svgCopy(source, inliner, box, background)
        : htmlWrapped(source, inliner, box, background),
    );
    root.setAttribute('width', String(size.width));
    root.setAttribute('height', String(size.height));
    const t = document.createElementNS(SVG_NS, 'title');
    t.textContent = title;
    root.prepend(t);
    for (const hidden of root.querySelectorAll('.visually-hidden')) hidden.remove();
    const text = new XMLSerializer().serializeToString(root);
    return { svg: `<?xml version="1.0" encoding="UTF-8"?>\n${text}\n`, ...size };
  } finally {
    inliner.dispose();
  }
}

function svgCopy(
  source: SVGSVGElement,
  inliner: StyleInliner,
  box: DOMRect,
  background: string,
): SVGSVGElement {
  const copy = source.cloneNode(true) as SVGSVGElement;
  inliner.inline(source, copy, false);
  copy.removeAttribute('class');
  copy.setAttribute('xmlns', SVG_NS);
  const vb = source.viewBox.baseVal;
  const view =
    vb && vb.width > 0
      ? { x: vb.x, y: vb.y, w: vb.width, h: vb.height }
      : { x: 0, y: 0, w: box.width, h: box.height };
  copy.setAttribute('viewBox', `${view.x} ${view.y} ${view.w} ${view.h}`);
  // The page's background, also under any letterbox preserveAspectRatio's default leaves.
  const s = Math.min(box.width / view.w, box.height / view.h);
  const fullW = box.width / s;
  const fullH = box.height / s;
  const rect = svgElement('rect', {
    x: view.x - (fullW - view.w) / 2,
    y: view.y - (fullH - view.h) / 2,
    width: fullW,
    height: fullH,
    fill: background,
  });
  copy.prepend(rect);
  return copy;
}

function htmlWrapped(
  source: Element,
  inliner: StyleInliner,
  box: DOMRect,
  background: string,
): SVGSVGElement {
  const copy = source.cloneNode(true) as HTMLElement;
  inliner.inline(source, copy, true);
  copy.style.margin = '0';
  const m = HTML_MARGIN_PX;
  const area = { x: -m, y: -m, width: box.width + 2 * m, height: box.height + 2 * m };
  const viewBox = `${-m} ${-m} ${area.width} ${area.height}`;
  const svg = svgElement('svg', { xmlns: SVG_NS, viewBox }) as SVGSVGElement;
  // The foreignObject takes the margin too: a border a fraction of a pixel past the box still shows.
  const fo = svgElement('foreignObject', area);
  const body = document.createElementNS(XHTML_NS, 'div');
  body.setAttribute('style', `margin:0;padding:${m}px;width:${box.width}px;height:${box.height}px`);
  if (inliner.pseudoRules.length) {
    const style = document.createElementNS(XHTML_NS, 'style');
    style.textContent = inliner.pseudoRules.join('\n');
    body.append(style);
  }
  body.append(copy);
  fo.append(body);
  svg.append(svgElement('rect', { ...area, fill: background }), fo);
  return svg;
}

function svgElement(tag: string, attrs: Record<string, string | number>): SVGElement {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

/** The colour the scene is drawn over: its own background or the nearest ancestor's. */
function backgroundOf(el: Element): string {
  for (let e: Element | null = el; e; e = e.parentElement) {
    const bg = getComputedStyle(e).backgroundColor;
    if (bg && bg !== 'transparent' && !/rgba\(.*,\s*0\)$/.test(bg)) return bg;
  }
  return '#ffffff';
}
