// Lease arcs and message dots, drawn every frame on a canvas over the stage's SVG: any SVG change, even one
// path's `d`, has the browser lay out, repaint and re-commit the stage that frame (on a modest machine more
// than the rest of it). A worker owns the canvas where it can (motionWorker.ts). Colours and widths come
// from empty SVG paths the stylesheet styles; an export writes the shapes into them.
import { useEffect, useRef, useState, type RefObject } from 'react';
import type { Experiment, Snapshot } from '../../src/engine';
import { useLabFrame, useLabStore } from '../../src/store/context';
import { AFTER_EXPORT, BEFORE_EXPORT } from '../../src/ui/exportEvents';
import { STAGE_RESIZED, writeStageUnit } from '../../src/ui/stageUnit';
import { arcPath, circlePath, VIEW_H } from './layout';
import { ARC_R, DOT_KINDS, frameMotion, type DotKind, type Motion } from './motion';
import { canvasPainter, type MotionStyles, type Paint } from './motionPaint';
import type { MotionMessage } from './motionWorker';

export interface MotionRefs {
  svg: RefObject<SVGSVGElement | null>;
  canvas: RefObject<HTMLCanvasElement | null>;
  /** The SVG's lease-arc path of each node (styled by role), by node id. */
  arcs: RefObject<Map<string, SVGPathElement>>;
  /** The SVG's group of one path per dot kind, in DOT_KINDS order. */
  dotLayer: RefObject<SVGGElement | null>;
}

function paintOf(el: Element): Paint {
  const cs = getComputedStyle(el);
  const none = (v: string) => (v === 'none' || v === '' ? null : v);
  const dash =
    cs.strokeDasharray === 'none'
      ? []
      : cs.strokeDasharray.split(/[ ,]+/).map(parseFloat).filter(Number.isFinite);
  return { fill: none(cs.fill), stroke: none(cs.stroke), width: parseFloat(cs.strokeWidth) || 0, dash };
}

/**
 * The shapes' styles. Reading a computed style updates the page's styles there and then, so each look is
 * read once (dots, an arc per node class; known after a jump too) until theme or present mode clears `cache`.
 */
function readStyles(refs: MotionRefs, cache: Map<string, Paint>): MotionStyles | null {
  const layer = refs.dotLayer.current;
  if (!layer) return null;
  const cached = (key: string, el: Element) => {
    let p = cache.get(key);
    if (!p) cache.set(key, (p = paintOf(el)));
    return p;
  };
  const dots = {} as Record<DotKind, Paint>;
  DOT_KINDS.forEach((kind, i) => {
    const el = layer.children[i];
    dots[kind] = el ? cached(`dot ${kind}`, el) : { fill: null, stroke: null, width: 0, dash: [] };
  });
  const arcs: Record<string, Paint> = {};
  for (const [id, el] of refs.arcs.current) {
    const look = (el.parentElement?.getAttribute('class') ?? '').replace(/ node-selected/, '');
    arcs[id] = cached(`arc ${look}`, el);
  }
  return { dots, arcs };
}

/** Write one frame's motion into the SVG's own paths (for an export), or clear them (null). */
export function writeMotionSvg(refs: MotionRefs, motion: Motion | null): void {
  for (const [id, el] of refs.arcs.current) {
    const arc = motion?.arcs.find((a) => a.node === id);
    el.setAttribute('d', arc ? arcPath(0, 0, ARC_R, arc.fraction) : '');
  }
  const layer = refs.dotLayer.current;
  if (!layer) return;
  DOT_KINDS.forEach((kind, i) => {
    const path = motion ? motion.dots[kind].map((d) => circlePath(d.x, d.y, d.r)).join(' ') : '';
    layer.children[i]?.setAttribute('d', path);
  });
}

/** Whoever draws the canvas: a worker that owns it, or the page. */
type Painter = ReturnType<typeof canvasPainter> & { dispose(): void };

/** Set once a worker could not start on this page (its script did not load): draw in the page. */
let workerFailed = false;

function workerPainter(canvas: HTMLCanvasElement, onFail: () => void): Painter | null {
  if (workerFailed || typeof Worker !== 'function' || typeof canvas.transferControlToOffscreen !== 'function')
    return null;
  let worker: Worker;
  try {
    const offscreen = canvas.transferControlToOffscreen();
    worker = new Worker(new URL('./motionWorker.ts', import.meta.url), { type: 'module' });
    worker.postMessage({ kind: 'canvas', canvas: offscreen } satisfies MotionMessage, [offscreen]);
  } catch {
    return null;
  }
  // The canvas is the worker's now: if its script fails to load (offline, uncached), a fresh one replaces it.
  worker.onerror = (e) => {
    e.preventDefault();
    workerFailed = true;
    onFail();
  };
  const post = (m: MotionMessage) => worker.postMessage(m);
  return {
    fit: (fit) => post({ kind: 'fit', fit }),
    styles: (styles) => post({ kind: 'styles', styles }),
    draw: (motion) => post({ kind: 'draw', motion }),
    dispose: () => worker.terminate(),
  };
}

// A canvas goes to a worker once only: a remount (StrictMode runs effects twice) keeps its painter.
const painters = new WeakMap<HTMLCanvasElement, { painter: Painter; users: number }>();

function acquirePainter(canvas: HTMLCanvasElement, onFail: () => void): Painter {
  let entry = painters.get(canvas);
  if (!entry) {
    const painter = workerPainter(canvas, onFail) ?? { ...canvasPainter(canvas), dispose: () => undefined };
    entry = { painter, users: 0 };
    painters.set(canvas, entry);
  }
  entry.users++;
  return entry.painter;
}

function releasePainter(canvas: HTMLCanvasElement): void {
  const entry = painters.get(canvas);
  if (!entry) return;
  entry.users--;
  // Later, so an immediate remount of the same canvas finds the painter still there.
  setTimeout(() => {
    if (entry.users > 0 || painters.get(canvas) !== entry) return;
    entry.painter.dispose();
    painters.delete(canvas);
  }, 0);
}

/**
 * Keep the canvas drawn with the latest frame. `nodes`: new only when a node changed (its role decides its
 * arc); `viewW`: the viewBox's width. Returns the canvas's key (new when its worker failed) and the unit.
 */
export function useMotionLayer(
  refs: MotionRefs,
  nodes: unknown,
  viewW: number,
): { canvasKey: string; unit: number } {
  const store = useLabStore();
  const [canvasKey, setCanvasKey] = useState('motion');
  // The unit as state too, rounded (a pixel's resize need not redraw): group outlines fit the shown words.
  const [unit, setUnit] = useState(1);
  const painter = useRef<Painter | null>(null);
  const ready = useRef({ fit: false, styles: false });
  const looks = useRef(new Map<string, Paint>());
  const drawn = useRef<Snapshot | null>(null);

  const draw = (frame: Snapshot, lease: Experiment['lease'], force = false) => {
    const p = painter.current;
    if (!p || !ready.current.fit || (!force && frame === drawn.current)) return;
    if (!ready.current.styles) {
      const styles = readStyles(refs, looks.current);
      if (!styles) return;
      p.styles(styles);
      ready.current.styles = true;
    }
    drawn.current = frame;
    p.draw(frameMotion(frame, lease));
  };
  const redrawLatest = useRef(() => {});
  redrawLatest.current = () => draw(store.frame(), store.getState().experiment.lease, true);

  // A node changed role: look up the arcs' styles again, redrawing next frame, not in the jump's task.
  useEffect(() => {
    ready.current.styles = false;
    const raf = requestAnimationFrame(() => redrawLatest.current());
    return () => cancelAnimationFrame(raf);
  }, [nodes]);

  useEffect(() => {
    const svg = refs.svg.current;
    const canvas = refs.canvas.current;
    if (!svg || !canvas) return;
    const p = acquirePainter(canvas, () => setCanvasKey('motion-page'));
    painter.current = p;
    const fit = () => {
      const box = svg.getBoundingClientRect();
      if (box.width < 1 || box.height < 1) return;
      const dpr = window.devicePixelRatio || 1;
      const scale = Math.min(box.width / viewW, box.height / VIEW_H);
      p.fit({
        scale,
        x: (box.width - viewW * scale) / 2,
        y: (box.height - VIEW_H * scale) / 2,
        dpr,
        width: Math.round(box.width * dpr),
        height: Math.round(box.height * dpr),
      });
      ready.current.fit = true;
      redrawLatest.current();
    };
    // Its unit floors its font sizes at 12 px on screen (stageUnit.ts); each new size is announced.
    const measure = () => {
      fit();
      svg.dispatchEvent(new Event(STAGE_RESIZED, { bubbles: true }));
      const scale = writeStageUnit(svg);
      if (scale > 0) setUnit(Math.round(20 / scale) / 20);
    };
    // Theme, present mode and the colour scheme change the stylesheet's colours and widths.
    const restyle = () => {
      ready.current.styles = false;
      looks.current.clear();
      redrawLatest.current();
    };
    const ro = typeof ResizeObserver === 'function' ? new ResizeObserver(measure) : null;
    ro?.observe(svg);
    const mo = new MutationObserver(restyle);
    mo.observe(document.documentElement, {
      attributes: true,
      attributeFilter: ['class', 'data-theme', 'style'],
    });
    const scheme = window.matchMedia?.('(prefers-color-scheme: dark)');
    scheme?.addEventListener('change', restyle);
    // An export copies the SVG with the canvas's shapes, and no selection (the reader's, not the run's).
    const before = () => {
      svg.setAttribute('data-exporting', '');
      writeMotionSvg(refs, frameMotion(store.frame(), store.getState().experiment.lease));
    };
    const after = () => {
      svg.removeAttribute('data-exporting');
      writeMotionSvg(refs, null);
    };
    svg.addEventListener(BEFORE_EXPORT, before);
    svg.addEventListener(AFTER_EXPORT, after);
    return () => {
      ro?.disconnect();
      mo.disconnect();
      scheme?.removeEventListener('change', restyle);
      svg.removeEventListener(BEFORE_EXPORT, before);
      svg.removeEventListener(AFTER_EXPORT, after);
      painter.current = null;
      ready.current = { fit: false, styles: false };
      releasePainter(canvas);
    };
  }, [refs, store, canvasKey, viewW]);

  useLabFrame((frame, s) => draw(frame, s.experiment.lease));
  return { canvasKey, unit };
}
