// A copied element loses its stylesheets and variables, so the copy gets computed styles inline: SVG shapes
// a fixed list of paint and text properties (small, and readable by vector editors); HTML layout boxes,
// drawn only by browsers, every property that differs from the tag's default or from what it inherits.

const SVG_PROPS = (
  'fill fill-opacity fill-rule stroke stroke-width stroke-opacity stroke-dasharray stroke-dashoffset ' +
  'stroke-linecap stroke-linejoin stroke-miterlimit opacity font-family font-size font-weight font-style ' +
  'letter-spacing text-anchor dominant-baseline paint-order display visibility ' +
  'marker-start marker-mid marker-end'
).split(' ');

/** The two listed properties SVG does not inherit, with their initial values. */
const SVG_NOT_INHERITED: Record<string, string> = { opacity: '1', display: 'inline' };

/** Motion and interaction state: a file is one still moment, so none of it is copied. */
const SKIP_HTML =
  /^(transition|animation|will-change|cursor|pointer-events|user-select|-webkit-user|caret|outline|scroll|touch-action|view-transition|(inset|margin|padding|border)-(block|inline)|(min-|max-)?(block|inline)-size|contain)/;

/** Colour spaces other SVG readers may not know (color-mix() computes to color(srgb ...)). */
const MODERN_COLOR = /\b(color|oklch|oklab|lab|lch|hwb)\(/;

export class StyleInliner {
  /** Rules for ::before and ::after boxes (chevrons, badges), which a clone does not carry. */
  readonly pseudoRules: string[] = [];
  private defaults = new Map<string, Map<string, string>>();
  private colors = new Map<string, string>();
  private probe: HTMLIFrameElement | null = null;
  private pixel: CanvasRenderingContext2D | null = null;

  /** Copy the computed styles of `source`'s tree onto its deep clone `copy`; `boxes`: layout too. */
  inline(source: Element, copy: Element, boxes: boolean): void {
    const from = [source, ...source.querySelectorAll('*')];
    const to = [copy, ...copy.querySelectorAll('*')];
    const computed = new Map<Element, CSSStyleDeclaration>();
    from.forEach((el, i) => {
      const cs = getComputedStyle(el);
      computed.set(el, cs);
      const target = to[i] as SVGElement | HTMLElement;
      const parent = (el !== source && el.parentElement && computed.get(el.parentElement)) || null;
      if (boxes && isLayoutBox(el)) {
        this.inlineBox(el, cs, parent, target);
        this.inlinePseudo(el, target);
      }
      if (el instanceof SVGElement) this.inlineSvg(cs, parent, target);
    });
  }

  dispose(): void {
    this.probe?.remove();
    this.probe = null;
  }

  /** Only what differs from what the element would inherit (or start with): a readable file. */
  private inlineSvg(
    cs: CSSStyleDeclaration,
    parent: CSSStyleDeclaration | null,
    target: SVGElement | HTMLElement,
  ): void {
    for (const p of SVG_PROPS) {
      const v = cs.getPropertyValue(p);
      if (!v) continue;
      const initial = SVG_NOT_INHERITED[p];
      if (parent && (initial !== undefined ? v === initial : v === parent.getPropertyValue(p))) continue;
      target.style.setProperty(p, this.portable(v));
    }
  }

  private inlineBox(
    el: Element,
    cs: CSSStyleDeclaration,
    parent: CSSStyleDeclaration | null,
    target: SVGElement | HTMLElement,
  ) {
    const defaults = this.defaultsFor(el);
    for (let i = 0; i < cs.length; i++) {
      const p = cs[i];
      if (SKIP_HTML.test(p)) continue;
      const v = cs.getPropertyValue(p);
      // Also written where it differs from the parent's: a default-valued inherited property (black
      // text under white) would otherwise inherit the parent's written value.
      if (v === defaults.get(p) && (!parent || v === parent.getPropertyValue(p))) continue;
      target.style.setProperty(p, this.portable(v));
    }
  }

  private inlinePseudo(el: Element, target: Element): void {
    for (const pseudo of ['::before', '::after']) {
      const cs = getComputedStyle(el, pseudo);
      const content = cs.getPropertyValue('content');
      if (!content || content === 'none' || content === 'normal') continue;
      const cls = `export-pseudo-${this.pseudoRules.length}`;
      target.classList.add(cls);
      const decls: string[] = [];
      for (let i = 0; i < cs.length; i++) {
        const p = cs[i];
        if (!SKIP_HTML.test(p)) decls.push(`${p}:${this.portable(cs.getPropertyValue(p))}`);
      }
      this.pseudoRules.push(`.${cls}${pseudo}{${decls.join(';')}}`);
    }
  }

  /** The browser's own style for a bare element of this tag, read in an empty same-origin frame. */
  private defaultsFor(el: Element): Map<string, string> {
    const key = `${el.namespaceURI} ${el.localName}`;
    const known = this.defaults.get(key);
    if (known) return known;
    if (!this.probe) {
      this.probe = document.createElement('iframe');
      this.probe.setAttribute('aria-hidden', 'true');
      this.probe.tabIndex = -1;
      this.probe.style.cssText =
        'position:fixed;left:-10000px;top:0;width:800px;height:600px;visibility:hidden';
      document.body.append(this.probe);
    }
    const doc = this.probe.contentDocument as Document;
    const bare = doc.createElementNS(el.namespaceURI, el.localName);
    doc.body.append(bare);
    const cs = (this.probe.contentWindow as Window).getComputedStyle(bare);
    const map = new Map<string, string>();
    for (let i = 0; i < cs.length; i++) map.set(cs[i], cs.getPropertyValue(cs[i]));
    bare.remove();
    this.defaults.set(key, map);
    return map;
  }

  /** Same-page references and colours every SVG reader understands. */
  portable(value: string): string {
    let v = value.replace(/url\((["']?)[^)"']*?(#[^)"']+)\1\)/g, 'url($2)');
    if (MODERN_COLOR.test(v))
      v = v.replace(/\b(?:color|oklch|oklab|lab|lch|hwb)\([^()]*\)/g, (c) => this.toRgb(c));
    return v;
  }

  private toRgb(color: string): string {
    const known = this.colors.get(color);
    if (known) return known;
    if (!this.pixel) {
      const canvas = document.createElement('canvas');
      canvas.width = canvas.height = 1;
      this.pixel = canvas.getContext('2d', { willReadFrequently: true });
    }
    const ctx = this.pixel;
    if (!ctx) return color;
    ctx.clearRect(0, 0, 1, 1);
    ctx.fillStyle = color;
    ctx.fillRect(0, 0, 1, 1);
    const [r, g, b, a] = ctx.getImageData(0, 0, 1, 1).data;
    const rgb = a === 255 ? `rgb(${r}, ${g}, ${b})` : `rgba(${r}, ${g}, ${b}, ${(a / 255).toFixed(3)})`;
    this.colors.set(color, rgb);
    return rgb;
  }
}

/** Elements that take part in CSS layout: HTML elements and an <svg> placed among them. */
function isLayoutBox(el: Element): boolean {
  return (
    el instanceof HTMLElement || (el instanceof SVGSVGElement && el.parentElement instanceof HTMLElement)
  );
}
