// The chain's memory read from the newest end (after a jump back) must equal the memory built by
// folding the same events in order (while playing), on real runs with failovers, zombie writes and
// stale writes.
import { describe, expect, it } from 'vitest';
import { Simulation, type Command } from '../../src/engine';
import { EMPTY_MEMORY, foldEvents, recallEvents } from '../../scenes/ChainScene/chainMemory';

function run(seed: number, fencing: boolean, steps: [number, Command][]) {
  const sim = new Simulation({ seed, nodes: 5, workload: { clients: 20 }, safety: { fencing } });
  for (const [at, cmd] of steps) {
    sim.runUntil(at);
    sim.apply(cmd);
  }
  sim.runUntil(180_000);
  return sim.eventsSince(0);
}

const faults: [number, Command][] = [
  [20_000, { do: 'pause', node: 'leader', forMs: 30_000 }],
  [70_000, { do: 'kill', node: 'leader' }],
  [90_000, { do: 'restart', node: 'n1' }],
  [110_000, { do: 'pause', node: 'leader', forMs: 25_000 }],
];

describe('chain memory recalled from the newest end', () => {
  for (const fencing of [true, false]) {
    for (const seed of [1, 2, 3]) {
      it(`equals the in-order fold (seed ${seed}, fencing ${fencing ? 'on' : 'off'})`, () => {
        const events = run(seed, fencing, faults);
        const folded = foldEvents(EMPTY_MEMORY, events);
        expect(recallEvents(events)).toEqual(folded);
        // and for every prefix a jump back could land on
        for (const cut of [
          1,
          10,
          Math.floor(events.length / 3),
          Math.floor(events.length / 2),
          events.length - 1,
        ]) {
          expect(recallEvents(events.slice(0, cut))).toEqual(foldEvents(EMPTY_MEMORY, events.slice(0, cut)));
        }
      });
    }
  }

  it('covers what the chain shows: a rejected zombie write and, with fencing off, a stale one', () => {
    expect(recallEvents(run(1, true, faults)).lastRejected).not.toBeNull();
    expect(recallEvents(run(1, false, faults)).lastStale).not.toBeNull();
  });

  it('is empty for no events', () => {
    expect(recallEvents([])).toEqual(EMPTY_MEMORY);
  });
});
