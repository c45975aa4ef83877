// One frame of the stage's motion on a 2D canvas, with no DOM: the page and the worker draw alike.
import type { Motion } from './motion';
import { ARC_R, DOT_KINDS, type DotKind } from './shapes';

/** How one kind of shape is painted: read from the stylesheet's styles of the SVG's paths. */
export interface Paint {
  fill: string | null;
  stroke: string | null;
  width: number;
  dash: number[];
}

export interface MotionStyles {
  dots: Record<DotKind, Paint>;
  /** Each node's lease arc (its role decides the colour and width), by node id. */
  arcs: Record<string, Paint>;
}

/** How the stage's viewBox maps onto the canvas: CSS px per unit, the letterbox, the pixel ratio. */
export interface Fit {
  scale: number;
  x: number;
  y: number;
  dpr: number;
  /** The canvas's backing store, in device pixels. */
  width: number;
  height: number;
}

type Ctx = CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D;

function applyPaint(ctx: Ctx, p: Paint, fill: boolean): void {
  ctx.setLineDash(p.dash);
  if (fill && p.fill) {
    ctx.fillStyle = p.fill;
    ctx.fill();
  }
  if (p.stroke && p.width > 0) {
    ctx.strokeStyle = p.stroke;
    ctx.lineWidth = p.width;
    ctx.stroke();
  }
}

/** Clear the canvas and draw one frame's motion, in viewBox units scaled by `fit`. */
export function paintMotion(ctx: Ctx, fit: Fit, motion: Motion, styles: MotionStyles): void {
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, fit.width, fit.height);
  const k = fit.scale * fit.dpr;
  ctx.setTransform(k, 0, 0, k, fit.x * fit.dpr, fit.y * fit.dpr);
  ctx.lineCap = 'round';
  for (const arc of motion.arcs) {
    const p = styles.arcs[arc.node];
    if (!p) continue;
    const start = -Math.PI / 2;
    ctx.beginPath();
    ctx.arc(arc.at.x, arc.at.y, ARC_R, start, start + 2 * Math.PI * Math.min(0.9999, arc.fraction));
    applyPaint(ctx, p, false);
  }
  ctx.lineCap = 'butt';
  for (const kind of DOT_KINDS) {
    const list = motion.dots[kind];
    if (!list.length) continue;
    ctx.beginPath();
    for (const d of list) {
      ctx.moveTo(d.x + d.r, d.y);
      ctx.arc(d.x, d.y, d.r, 0, 2 * Math.PI);
    }
    applyPaint(ctx, styles.dots[kind], true);
  }
}

/** Draws on `canvas` (the page's or a worker's OffscreenCanvas), redrawing on a new size or new styles. */
export function canvasPainter(canvas: HTMLCanvasElement | OffscreenCanvas) {
  let ctx: Ctx | null = null;
  let fit: Fit | null = null;
  let styles: MotionStyles | null = null;
  let last: Motion | null = null;
  const draw = () => {
    if (!fit || !styles || !last) return;
    ctx ??= canvas.getContext('2d') as Ctx | null;
    if (ctx) paintMotion(ctx, fit, last, styles);
  };
  return {
    fit: (f: Fit) => {
      fit = f;
      canvas.width = f.width;
      canvas.height = f.height;
      draw();
    },
    styles: (s: MotionStyles) => {
      styles = s;
      draw();
    },
    draw: (motion: Motion) => {
      last = motion;
      draw();
    },
  };
}
