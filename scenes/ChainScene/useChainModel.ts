// Keeps one lab's chain model current. The store publishes a snapshot up to ten times a second
// while playing, but the chain's words change only a few times a second, so the model is
// recomputed per snapshot and React state is set only when its content differs; the lease ring
// animates on its own, every frame.
import { useEffect, useRef, useState } from 'react';
import { useLabStore } from '../../src/store/context';
import { held, useHeld } from '../../src/store/held';
import type { LabState, LabStore } from '../../src/store/labStore';
import type { LabEngine } from '../../src/store/labEngine';
import { EMPTY_MEMORY, foldEvents, recallEvents, type ChainMemory } from './chainMemory';
import { deriveChain, type ChainModel } from './chainModel';

/** Follows one lab's event stream; per mounted scene, so labs sharing a page never mix. */
export class EventTracker {
  private engine: LabEngine | null = null;
  private cursor = 0;
  private nowMs = -1;
  memory: ChainMemory = EMPTY_MEMORY;

  sync(store: LabStore): ChainMemory {
    const engine = store.engine();
    const sim = engine.sim;
    const total = sim.eventsTotal;
    // A reset swaps the engine; a seek back rewrites history: either way, start over.
    if (engine !== this.engine || total < this.cursor || sim.nowMs < this.nowMs) {
      this.engine = engine;
      this.memory = recallEvents(sim.eventsSince(0));
    } else if (total > this.cursor) {
      this.memory = foldEvents(this.memory, sim.eventsSince(this.cursor));
    }
    this.cursor = total;
    this.nowMs = sim.nowMs;
    return this.memory;
  }
}

export function useChainModel(): ChainModel {
  const store = useLabStore();
  const [tracker] = useState(() => new EventTracker());
  const compute = (s: LabState) => deriveChain(s.snapshot, tracker.sync(store), s.experiment.lease);
  const [model] = useState(() => held(compute(store.getState())));
  const signature = useRef(JSON.stringify(model.get()));
  const derivedFrom = useRef<LabState['snapshot'] | null>(null);
  const computeLatest = useRef(compute);
  computeLatest.current = compute;
  useEffect(() => {
    // Derived from the (throttled) snapshot React renders, once per snapshot, and held outside
    // React state so its render happens in the snapshot's frame (held.ts).
    const follow = (s: LabState) => {
      if (s.snapshot === derivedFrom.current) return;
      derivedFrom.current = s.snapshot;
      const next = computeLatest.current(s);
      const sig = JSON.stringify(next);
      if (sig === signature.current) return;
      signature.current = sig;
      model.set(next);
    };
    follow(store.getState());
    return store.subscribe(follow);
  }, [store, model]);
  return useHeld(model);
}
