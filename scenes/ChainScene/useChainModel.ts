// Keeps one lab's chain model current: React state is set only when the model's content differs (its words
// change a few times a second, snapshots ten); the lease ring animates on its own, every frame.
import { useEffect, useRef, useState } from 'react';
import { useLabFrame, useLabStore } from '../../src/store/context';
import { held, useHeld } from '../../src/store/held';
import { share } from '../../src/store/share';
import type { LabState, LabStore } from '../../src/store/labStore';
import type { LabBackend } from '../../src/store/backend';
import { EMPTY_MEMORY, foldEvents, recallEvents, type ChainMemory } from './chainMemory';
import { deriveChain, type ChainModel } from './chainModel';
import { electionOf } from './electStep';

/** More simulated time than this between two frames is a jump, not play (64x moves ~1 s a frame). */
const JUMP_MS = 5_000;

/** Follows one lab's event stream; per mounted scene, so labs sharing a page never mix. */
export class EventTracker {
  private backend: LabBackend | null = null;
  private cursor = 0;
  private nowMs = -1;
  memory: ChainMemory = EMPTY_MEMORY;

  /**
   * Fold what came since the last sync if the run moved forward (a jump back or new backend waits for
   * sync()). Called every frame, so a jump's own task does not also rebuild the memory from every event.
   */
  follow(store: LabStore): void {
    const run = store.backend();
    const forward = run === this.backend && run.eventsTotal >= this.cursor && run.nowMs >= this.nowMs;
    // A frame while playing moves the run by at most a few simulated seconds; more is a jump.
    if (forward && run.nowMs - this.nowMs <= JUMP_MS) this.sync(store);
  }

  sync(store: LabStore): ChainMemory {
    const run = store.backend();
    const total = run.eventsTotal;
    // A reset or a seek back rewrites history: start over, from the kept events (up to 200,000), uncopied.
    const events = run.events;
    if (run !== this.backend || total < this.cursor || run.nowMs < this.nowMs) {
      this.backend = run;
      this.memory = recallEvents(events);
    } else if (total > this.cursor) {
      this.memory = foldEvents(this.memory, events, Math.max(0, this.cursor - (total - events.length)));
    }
    this.cursor = total;
    this.nowMs = run.nowMs;
    return this.memory;
  }
}

export function useChainModel(): ChainModel {
  const store = useLabStore();
  const [tracker] = useState(() => new EventTracker());
  const compute = (s: LabState) =>
    deriveChain(s.snapshot, tracker.sync(store), s.experiment.lease, electionOf(s.experiment));
  const [model] = useState(() => held(compute(store.getState())));
  const derivedFrom = useRef<LabState['snapshot'] | null>(null);
  // Events fold as they come, a frame's worth at a time, so the snapshot's frame does not fold them all.
  useLabFrame(() => tracker.follow(store));
  const computeLatest = useRef(compute);
  computeLatest.current = compute;
  useEffect(() => {
    // Derived once per snapshot and held outside React state, to render in the snapshot's frame (held.ts).
    const follow = (s: LabState) => {
      if (s.snapshot === derivedFrom.current) return;
      derivedFrom.current = s.snapshot;
      // Unchanged parts keep their identity so their steps skip rendering (counters change, quorum rarely).
      model.set(share(model.get(), computeLatest.current(s)));
    };
    // A frame after the snapshot's (the chart in another): all three in one could stall a slow machine.
    let queued = false;
    const onUpdate = () => {
      if (queued) return;
      queued = true;
      store.nextFrame(() => {
        queued = false;
        follow(store.getState());
      });
    };
    follow(store.getState());
    return store.subscribe(onUpdate);
  }, [store, model]);
  return useHeld(model);
}
