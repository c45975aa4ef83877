// The diagram's model, rebuilt once per snapshot in a later frame (store.nextFrame), as chain and chart are.
import { useEffect, useState } from 'react';
import { bisector } from 'd3';
import { algorithmFor, type SimEvent } from '../../src/engine';
import type { RunView } from '../../src/store/backend';
import { useLab, useLabStore } from '../../src/store/context';
import type { LabState } from '../../src/store/labStore';
import { messageLogFromMs, messagesBetween } from './messageLog';
import {
  buildSpacetime,
  groupsAfterCut,
  isCut,
  kindTable,
  windowOf,
  type Family,
  type Spacetime,
} from './spacetimeModel';

/** The window the diagram draws: a minute, the most a reader follows message by message. */
export const WINDOW_MS = 60_000;
/** The diagram's time axis: the window in 480 px, so a second is 8 px. */
export const PLOT_H = 480;
export const PX_PER_MS = PLOT_H / WINDOW_MS;

/** The index of the first retained event at or after ms, by bisection (they are in time order). */
const firstAtOrAfter = bisector((ev: SimEvent) => ev.atMs).left;

export function eventsBetween(run: RunView, fromMs: number, toMs: number): SimEvent[] {
  const list = run.events;
  const out: SimEvent[] = [];
  for (let i = firstAtOrAfter(list, fromMs); i < list.length && list[i].atMs <= toMs; i++) out.push(list[i]);
  return out;
}

/** The cut just before fromMs: the last cut's groups, null if healed or none, undefined if events gone. */
export function partitionBefore(run: RunView, fromMs: number): string[][] | null | undefined {
  const list = run.events;
  for (let i = firstAtOrAfter(list, fromMs) - 1; i >= 0; i--) {
    const ev = list[i];
    if (isCut(ev)) return groupsAfterCut(ev);
  }
  return run.eventsTotal > list.length ? undefined : null;
}

export interface SpacetimeOptions {
  pxPerMs: number;
  hiddenFamilies: ReadonlySet<Family>;
  hiddenLanes: ReadonlySet<string>;
}

type Drawn = Spacetime & { logFromMs: number };

/** The diagram of the window ending at the snapshot's moment, read from the run. */
export function spacetimeOf(s: LabState, run: RunView, o: SpacetimeOptions): Drawn {
  const snap = s.snapshot;
  const { fromMs } = windowOf(snap.nowMs, WINDOW_MS);
  const alg = algorithmFor(s.experiment.algorithm);
  const model = buildSpacetime({
    nowMs: snap.nowMs,
    windowMs: WINDOW_MS,
    nodes: snap.nodes,
    services: snap.services,
    partition: snap.partition,
    records: messagesBetween(run, snap, fromMs, snap.nowMs) ?? [],
    inFlight: snap.messages,
    events: eventsBetween(run, fromMs, snap.nowMs),
    partitionBefore: partitionBefore(run, fromMs),
    kinds: kindTable(alg.messages),
    ...o,
  });
  return { ...model, logFromMs: run.messageLog ? messageLogFromMs(run.messageLog) : -1 };
}

export function useSpacetime(o: SpacetimeOptions): Drawn | null {
  const store = useLabStore();
  const snapshot = useLab((s) => s.snapshot);
  const experiment = useLab((s) => s.experiment);
  const [model, setModel] = useState<Drawn | null>(null);
  const { pxPerMs, hiddenFamilies, hiddenLanes } = o;
  useEffect(() => {
    let live = true;
    // Built in one frame, drawn in the next: with 200 clients (~20,000 messages a minute) one was too short.
    store.nextFrame(() => {
      if (!live) return;
      const next = spacetimeOf(store.getState(), store.backend(), { pxPerMs, hiddenFamilies, hiddenLanes });
      store.nextFrame(() => {
        if (live) setModel(next);
      });
    });
    return () => {
      live = false;
    };
  }, [store, snapshot, experiment, pxPerMs, hiddenFamilies, hiddenLanes]);
  return model;
}
