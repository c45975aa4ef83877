// The store's two channels: every advance reaches the per-frame listeners; React's store updates
// come at most once per view interval while the clock plays; and the clock's pacer, which slows
// that interval when the frames that change the DOM overrun.
import { describe, expect, it } from 'vitest';
import { SLOWEST_VIEW_EVERY_MS, ViewPacer } from '../../src/store/clock';
import { SNAPSHOT_EVERY_MS, createLabStore } from '../../src/store/labStore';

describe('lab store channels', () => {
  it('tells frame listeners of every advance, and React only of snapshots it is due', () => {
    const store = createLabStore({ experiment: { nodes: 5 } });
    const frames: number[] = [];
    let updates = 0;
    store.onFrame((f) => frames.push(f.nowMs));
    store.subscribe(() => updates++);
    // Sixty back-to-back clock advances take far less wall time than one view interval.
    let viewed = 0;
    for (let i = 0; i < 60; i++) if (store.getState().advanceWall(16)) viewed++;
    expect(frames).toHaveLength(60);
    expect(frames[59]).toBe(store.backend().nowMs);
    expect(store.frame().nowMs).toBe(store.backend().nowMs);
    expect(viewed).toBeLessThanOrEqual(2);
    expect(updates).toBe(viewed);
    // The snapshot React renders lags the frame until the next view, and an action shows at once.
    expect(store.getState().snapshot.nowMs).toBeLessThanOrEqual(store.frame().nowMs);
    store.getState().pause();
    expect(store.getState().snapshot.nowMs).toBe(store.frame().nowMs);
    expect(store.getState().snapshot).toBe(store.frame());
  });

  it('stops telling a frame listener once it unsubscribes, and plays nothing while paused', () => {
    const store = createLabStore({ experiment: { nodes: 3 }, playing: false });
    let n = 0;
    const stop = store.onFrame(() => n++);
    expect(store.getState().advanceWall(16)).toBe(false);
    expect(n).toBe(0);
    store.getState().advanceBy(100);
    expect(n).toBe(1);
    stop();
    store.getState().advanceBy(100);
    expect(n).toBe(1);
  });
});

describe('view pacer', () => {
  /** One second of 60 Hz frames, `views` of which changed the DOM and took `workMs`. */
  const second = (p: ViewPacer, views: number, workMs: number) => {
    for (let i = 0; i < 60; i++) {
      if (i < views) p.viewFrame(workMs);
      p.frame(16.7);
    }
  };

  it('keeps the full pace while the DOM frames fit in a frame', () => {
    const p = new ViewPacer();
    for (let s = 0; s < 5; s++) second(p, 10, 8);
    expect(p.everyMs).toBe(SNAPSHOT_EVERY_MS);
  });

  it('halves the pace while too many frames overrun, down to the slowest, and holds it there', () => {
    const p = new ViewPacer();
    second(p, 10, 25);
    expect(p.everyMs).toBe(2 * SNAPSHOT_EVERY_MS);
    second(p, 5, 25);
    expect(p.everyMs).toBe(4 * SNAPSHOT_EVERY_MS);
    for (let s = 0; s < 5; s++) second(p, 5, 25);
    expect(p.everyMs).toBe(SLOWEST_VIEW_EVERY_MS);
    // At the slowest pace two overruns a second (3 % of frames) are tolerated, not undone.
    for (let s = 0; s < 5; s++) second(p, 2, 25);
    expect(p.everyMs).toBe(SLOWEST_VIEW_EVERY_MS);
  });

  it('speeds up again only after three calm windows in a row', () => {
    const p = new ViewPacer();
    second(p, 10, 25);
    expect(p.everyMs).toBe(2 * SNAPSHOT_EVERY_MS);
    second(p, 5, 5);
    second(p, 5, 5);
    second(p, 1, 25); // one overrun breaks the calm, without slowing down
    expect(p.everyMs).toBe(2 * SNAPSHOT_EVERY_MS);
    second(p, 5, 5);
    second(p, 5, 5);
    expect(p.everyMs).toBe(2 * SNAPSHOT_EVERY_MS);
    second(p, 5, 5);
    expect(p.everyMs).toBe(SNAPSHOT_EVERY_MS);
  });

  it('judges a faster screen by its own frame interval', () => {
    const p = new ViewPacer();
    // 120 Hz: 8.3 ms frames; a 12 ms DOM frame overruns there, and ten a second are too many.
    for (let i = 0; i < 120; i++) {
      if (i % 12 === 0) p.viewFrame(12);
      p.frame(8.35);
    }
    expect(p.everyMs).toBe(2 * SNAPSHOT_EVERY_MS);
  });
});
