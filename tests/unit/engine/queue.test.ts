// The event queue orders by (atMs, seq): same-millisecond events run in the order they were
// scheduled, whatever shape the heap happens to have.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { heapPop, heapPush, type QueuedEvent } from '../../../src/engine/queue';
import { Simulation } from '../../../src/engine';
import { eventsOf, nodeView } from './harness';

function ev(atMs: number, seq: number): QueuedEvent {
  return { atMs, seq, kind: 0, node: 0, gen: 0, msg: null };
}

describe('event queue', () => {
  it('pops in (atMs, seq) order for any push order', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 200 }), (times) => {
        const heap: QueuedEvent[] = [];
        times.forEach((t, seq) => heapPush(heap, ev(t, seq)));
        const popped: QueuedEvent[] = [];
        for (let e = heapPop(heap); e; e = heapPop(heap)) popped.push(e);
        const expected = times.map((t, seq) => ev(t, seq)).sort((a, b) => a.atMs - b.atMs || a.seq - b.seq);
        expect(popped).toEqual(expected);
      }),
      { seed: 20240601, numRuns: 300 },
    );
  });

  it('pops nothing from an empty heap', () => {
    expect(heapPop([])).toBeUndefined();
  });

  it('applies faults due at the same millisecond in the order they are listed', () => {
    const killThenRestart = new Simulation({
      faults: [
        { atMs: 5000, do: 'kill', node: 'n3' },
        { atMs: 5000, do: 'restart', node: 'n3' },
      ],
    });
    killThenRestart.runUntil(6000);
    expect(nodeView(killThenRestart, 'n3').alive).toBe(true);

    // Reversed, the restart finds n3 alive (skipped) and the kill then takes it down.
    const restartThenKill = new Simulation({
      faults: [
        { atMs: 5000, do: 'restart', node: 'n3' },
        { atMs: 5000, do: 'kill', node: 'n3' },
      ],
    });
    restartThenKill.runUntil(6000);
    expect(nodeView(restartThenKill, 'n3').alive).toBe(false);
    expect(eventsOf(restartThenKill, 'fault').map((f) => [f.fault.do, f.skipped ?? false])).toEqual([
      ['restart', true],
      ['kill', false],
    ]);
  });
});
