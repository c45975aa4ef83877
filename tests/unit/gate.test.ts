// A gated view of a lab: quiet while its scene is off screen, caught up in one update when shown,
// and shown on demand for an export.
import { describe, expect, it } from 'vitest';
import { gateLab, revealScenes, trackGate } from '../../src/store/gate';
import { createLabStore } from '../../src/store/labStore';

describe('gateLab', () => {
  it('passes everything through while visible', () => {
    const lab = createLabStore({ experiment: { nodes: 3 } });
    const gate = gateLab(lab);
    let updates = 0;
    let frames = 0;
    gate.store.subscribe(() => updates++);
    gate.store.onFrame(() => frames++);
    lab.getState().advanceBy(500);
    expect(updates).toBe(1);
    expect(frames).toBe(1);
    expect(gate.store.getState()).toBe(lab.getState());
    expect(gate.store.frame()).toBe(lab.frame());
    expect(gate.store.backend()).toBe(lab.backend());
  });

  it('holds what it showed while hidden, then catches up in one update', () => {
    const lab = createLabStore({ experiment: { nodes: 3 } });
    const gate = gateLab(lab);
    const seen: number[] = [];
    let frames = 0;
    gate.store.subscribe((s) => seen.push(s.snapshot.nowMs));
    gate.store.onFrame(() => frames++);
    lab.getState().advanceBy(500);
    gate.setVisible(false);
    const held = gate.store.getState();
    for (let i = 0; i < 10; i++) lab.getState().advanceBy(500);
    expect(seen).toEqual([500]);
    expect(frames).toBe(1);
    expect(gate.store.getState()).toBe(held);
    expect(gate.store.frame().nowMs).toBe(500);
    gate.setVisible(true);
    expect(seen).toEqual([500, 5500]);
    expect(frames).toBe(2);
    expect(gate.store.getState().snapshot.nowMs).toBe(5500);
  });

  it('acts on the live lab even while hidden', () => {
    const lab = createLabStore({ experiment: { nodes: 3 } });
    const gate = gateLab(lab);
    gate.store.subscribe(() => undefined);
    gate.setVisible(false);
    gate.store.getState().advanceBy(700);
    expect(lab.getState().snapshot.nowMs).toBe(700);
    expect(gate.store.getState().snapshot.nowMs).toBe(0);
  });

  it('reveals every hidden scene of a lab until released, and leaves the others alone', () => {
    const lab = createLabStore({ experiment: { nodes: 3 } });
    const other = createLabStore({ experiment: { nodes: 3 } });
    const a = gateLab(lab);
    const b = gateLab(other);
    trackGate(lab, a);
    const forgetB = trackGate(other, b);
    a.setVisible(false);
    b.setVisible(false);
    lab.getState().advanceBy(300);
    const release = revealScenes(lab);
    expect(a.shown()).toBe(true);
    expect(a.store.getState().snapshot.nowMs).toBe(300);
    expect(b.shown()).toBe(false);
    release();
    expect(a.shown()).toBe(false);
    // Visible again in the meantime: the release does not hide it.
    const again = revealScenes(lab);
    a.setVisible(true);
    again();
    expect(a.shown()).toBe(true);
    forgetB();
  });

  it('subscribes to the lab only while it has listeners', () => {
    const lab = createLabStore({ experiment: { nodes: 3 } });
    const gate = gateLab(lab);
    let calls = 0;
    const listen = () => calls++;
    const stop = gate.store.subscribe(listen);
    const stopFrame = gate.store.onFrame(listen);
    lab.getState().advanceBy(100);
    expect(calls).toBe(2);
    stop();
    stopFrame();
    lab.getState().advanceBy(100);
    expect(calls).toBe(2);
  });
});
