// Keeps one lab's chain model current. The store publishes a new snapshot every frame, but the
// chain's words change only a few times a second, so the model is recomputed per update and
// React state is set only when its content differs; the lease ring animates on its own.
import { useRef, useState } from 'react';
import { useLabFrame, useLabStore } from '../../src/store/context';
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
  const [model, setModel] = useState(() => compute(store.getState()));
  const signature = useRef(JSON.stringify(model));
  const derivedFrom = useRef<LabState['snapshot'] | null>(null);
  useLabFrame((s) => {
    // The model is React state: derive it from the (throttled) snapshot React renders, once per snapshot.
    if (s.snapshot === derivedFrom.current) return;
    derivedFrom.current = s.snapshot;
    const next = compute(s);
    const sig = JSON.stringify(next);
    if (sig === signature.current) return;
    signature.current = sig;
    setModel(next);
  });
  return model;
}
