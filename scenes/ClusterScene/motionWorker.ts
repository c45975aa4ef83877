// The worker owning the motion canvas (an OffscreenCanvas): it draws each frame off the main thread.
import { canvasPainter, type Fit, type MotionStyles } from './motionPaint';
import type { Motion } from './motion';

export type MotionMessage =
  | { kind: 'canvas'; canvas: OffscreenCanvas }
  | { kind: 'fit'; fit: Fit }
  | { kind: 'styles'; styles: MotionStyles }
  | { kind: 'draw'; motion: Motion };

let painter: ReturnType<typeof canvasPainter> | null = null;

self.onmessage = (e: MessageEvent<MotionMessage>) => {
  const m = e.data;
  if (m.kind === 'canvas') painter = canvasPainter(m.canvas);
  else if (m.kind === 'fit') painter?.fit(m.fit);
  else if (m.kind === 'styles') painter?.styles(m.styles);
  else painter?.draw(m.motion);
};
