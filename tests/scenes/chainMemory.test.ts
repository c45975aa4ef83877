// The chain's memory, read from the newest end, must equal the plain definition (each event
// folded in order, as it happened), whether the events come all at once (a jump back) or a
// frame's worth at a time (while playing), on real runs with failovers, zombie writes and stale
// writes.
import { describe, expect, it } from 'vitest';
import { Simulation, type Command, type SimEvent } from '../../src/engine';
import {
  EMPTY_MEMORY,
  foldEvents,
  recallEvents,
  type ChainMemory,
} from '../../scenes/ChainScene/chainMemory';

/** The definition: every event in order, each kept if it is the latest of its kind. */
function inOrder(events: readonly SimEvent[]): ChainMemory {
  const m: ChainMemory = { ...EMPTY_MEMORY };
  for (const ev of events) {
    if (ev.type === 'campaign') {
      m.campaign = { node: ev.node, term: ev.term, preVote: ev.preVote, atMs: ev.atMs };
    } else if (ev.type === 'elected') {
      m.election = { node: ev.node, term: ev.term, votes: [...ev.votes], atMs: ev.atMs };
      if (ev.term > m.highestElectedTerm) m.highestElectedTerm = ev.term;
    } else if (ev.type === 'write') {
      const { type: _type, ...write } = ev;
      m.lastWrite = write;
      if (write.result === 'rejected') m.lastRejected = write;
      if (write.stale)
        m.lastStale = { ...write, newerToken: Math.max(m.highestElectedTerm, write.maxTokenSeen) };
    }
  }
  return m;
}

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
        expect(recallEvents(events)).toEqual(inOrder(events));
        // a frame's worth at a time, as while playing
        let m = EMPTY_MEMORY;
        for (let i = 0; i < events.length; i += 37) m = foldEvents(m, events.slice(i, i + 37));
        expect(m).toEqual(inOrder(events));
        // and for every prefix a jump back could land on
        for (const cut of [
          1,
          10,
          Math.floor(events.length / 3),
          Math.floor(events.length / 2),
          events.length - 1,
        ]) {
          expect(recallEvents(events.slice(0, cut))).toEqual(inOrder(events.slice(0, cut)));
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
