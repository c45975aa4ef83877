// One frame loop, outside React, advancing a lab by wall time x speed; tests drive it with tick().
import { SNAPSHOT_EVERY_MS, type LabStore } from './labStore';

/** Longest wall-clock gap one frame may advance (a background tab must not jump minutes). */
export const MAX_FRAME_MS = 100;

/** The slowest pace at which the page's words and numbers follow the lab on a slow machine. */
export const SLOWEST_VIEW_EVERY_MS = 10 * SNAPSHOT_EVERY_MS;
/** Frames are judged in windows of this much wall time. */
const PACE_WINDOW_MS = 1000;
/** When more than this share of a window's frames overran, the pace slows... */
const OVERRUN_SHARE = 0.04;
/** ...and after this many windows in a row with no overrun it speeds up again. */
const CALM_WINDOWS = 3;

/**
 * How often the page follows a playing lab: every SNAPSHOT_EVERY_MS, unless the machine lags. DOM-changing
 * frames (a new snapshot) cost a layout, a paint and a commit however little changed; those between, where
 * only the motion canvas moves, cost little. On a slow machine the former overrun. So the clock times each,
 * from frame start to the browser's finish, and when over OVERRUN_SHARE of a window's frames overran (longer
 * than the usual interval: a 120 Hz screen is judged by its own rate), the pace halves, down to
 * SLOWEST_VIEW_EVERY_MS, keeping motion smooth; after CALM_WINDOWS calm windows it doubles again.
 */
export class ViewPacer {
  everyMs = SNAPSHOT_EVERY_MS;
  private intervals: number[] = [];
  private windowMs = 0;
  private overruns: number[] = [];
  private calm = 0;

  /** Count one frame that came `intervalMs` after the one before; returns the pace. */
  frame(intervalMs: number): number {
    this.intervals.push(intervalMs);
    this.windowMs += intervalMs;
    if (this.windowMs >= PACE_WINDOW_MS) this.judge();
    return this.everyMs;
  }

  /** A frame that changed the DOM took `workMs` from its start until the browser was done. */
  viewFrame(workMs: number): void {
    this.overruns.push(workMs);
  }

  private judge(): void {
    const sorted = [...this.intervals].sort((a, b) => a - b);
    const usual = sorted[Math.floor(sorted.length / 2)];
    const over = this.overruns.filter((w) => w > usual).length;
    const frames = sorted.length;
    this.intervals = [];
    this.overruns = [];
    this.windowMs = 0;
    if (over > OVERRUN_SHARE * frames) {
      this.everyMs = Math.min(SLOWEST_VIEW_EVERY_MS, this.everyMs * 2);
      this.calm = 0;
    } else if (over > 0) {
      this.calm = 0;
    } else if (++this.calm >= CALM_WINDOWS) {
      this.everyMs = Math.max(SNAPSHOT_EVERY_MS, this.everyMs / 2);
      this.calm = 0;
    }
  }
}

export class FrameClock {
  private raf = 0;
  private last = -1;
  readonly pacer = new ViewPacer();
  // A message posted in a frame is handled once the browser finished it (style, layout, paint): its cost.
  private timing: MessageChannel | null = null;
  constructor(private readonly lab: LabStore) {}

  start(): void {
    if (this.raf) return;
    this.lab.setClocked(true);
    if (!this.timing && typeof MessageChannel === 'function') {
      this.timing = new MessageChannel();
      this.timing.port1.onmessage = (e: MessageEvent<number>) =>
        this.pacer.viewFrame(performance.now() - e.data);
    }
    const loop = (t: number) => {
      const started = performance.now();
      if (this.last >= 0) {
        this.pacer.frame(t - this.last);
        if (this.tick(t - this.last)) this.timing?.port2.postMessage(started);
      }
      this.last = t;
      this.raf = requestAnimationFrame(loop);
    };
    this.raf = requestAnimationFrame(loop);
  }

  stop(): void {
    this.lab.setClocked(false);
    cancelAnimationFrame(this.raf);
    this.raf = 0;
    this.last = -1;
    this.timing?.port1.close();
    this.timing = null;
  }

  /** Advance by wallMs of real time (clamped to one frame's worth); true when the DOM follows. */
  tick(wallMs: number): boolean {
    return this.lab.getState().advanceWall(Math.min(MAX_FRAME_MS, Math.max(0, wallMs)), this.pacer.everyMs);
  }
}
