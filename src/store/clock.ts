// One animation-frame loop, outside React, that advances a lab by wall time x speed. Tests and
// benchmarks drive it by hand with tick(); the page starts it with start().
import type { LabStore } from './labStore';

/** Longest wall-clock gap one frame may advance (a background tab must not jump minutes). */
export const MAX_FRAME_MS = 100;

export class FrameClock {
  private raf = 0;
  private last = -1;
  constructor(private readonly lab: LabStore) {}

  start(): void {
    if (this.raf) return;
    const loop = (t: number) => {
      if (this.last >= 0) this.tick(t - this.last);
      this.last = t;
      this.raf = requestAnimationFrame(loop);
    };
    this.raf = requestAnimationFrame(loop);
  }

  stop(): void {
    cancelAnimationFrame(this.raf);
    this.raf = 0;
    this.last = -1;
  }

  /** Advance by wallMs of real time (clamped to one frame's worth). */
  tick(wallMs: number): void {
    this.lab.getState().advanceWall(Math.min(MAX_FRAME_MS, Math.max(0, wallMs)));
  }
}
