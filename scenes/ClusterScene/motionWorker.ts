// The worker that owns the stage's motion canvas (transferred to it as an OffscreenCanvas). The
// page sends it the canvas size, the styles and each frame's shapes; it draws them, and the
// browser shows its frames without the page's main thread committing a canvas every frame.
import { paintMotion, type Fit, type MotionStyles } from './motionPaint';
import type { Motion } from './motion';

export type MotionMessage =
  | { kind: 'canvas'; canvas: OffscreenCanvas }
  | { kind: 'fit'; fit: Fit }
  | { kind: 'styles'; styles: MotionStyles }
  | { kind: 'draw'; motion: Motion };

let canvas: OffscreenCanvas | null = null;
let ctx: OffscreenCanvasRenderingContext2D | null = null;
let fit: Fit | null = null;
let styles: MotionStyles | null = null;
let last: Motion | null = null;

function draw(): void {
  if (ctx && fit && styles && last) paintMotion(ctx, fit, last, styles);
}

self.onmessage = (e: MessageEvent<MotionMessage>) => {
  const m = e.data;
  if (m.kind === 'canvas') {
    canvas = m.canvas;
    ctx = canvas.getContext('2d');
  } else if (m.kind === 'fit') {
    fit = m.fit;
    if (canvas) {
      canvas.width = fit.width;
      canvas.height = fit.height;
    }
  } else if (m.kind === 'styles') {
    styles = m.styles;
  } else {
    last = m.motion;
  }
  draw();
};
