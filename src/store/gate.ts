// A view of a lab store that goes quiet while its scene is off screen: following the lab costs a scene React
// renders ten times a second and DOM writes every frame, seen or not. Hidden, the view keeps the state and
// frame it last showed; shown again, it catches up in one update. Actions pass straight through.
import type { FrameListener, LabState, LabActions, LabStore } from './labStore';

type State = LabState & LabActions;
type Listener = (state: State, prev: State) => void;

export interface LabGate {
  /** The store a hidden-aware scene reads (same interface as the lab's own). */
  store: LabStore;
  shown(): boolean;
  /** Whether the scene is on screen (or near it): what an IntersectionObserver reports. */
  setVisible(visible: boolean): void;
  /** Follow the lab even while hidden (an export reads the scene); returns the release. */
  reveal(): () => void;
}

export function gateLab(source: LabStore): LabGate {
  let visible = true;
  let reveals = 0;
  let shown = true;
  // What the scene last saw, kept while it is hidden.
  let heldState = source.getState();
  let heldFrame = source.frame();
  const listeners = new Set<Listener>();
  const frameListeners = new Set<FrameListener>();
  let detach: (() => void) | null = null;

  // Subscribe only while someone listens, so a gate made in a render React throws away leaves nothing behind.
  const attach = () => {
    if (detach) return;
    const stopState = source.subscribe((state, prev) => {
      if (!shown) return;
      for (const l of [...listeners]) l(state, prev);
    });
    const stopFrame = source.onFrame((frame) => {
      if (!shown) return;
      for (const l of [...frameListeners]) l(frame);
    });
    detach = () => {
      stopState();
      stopFrame();
    };
  };
  /** Add a listener (attached to the lab while any listens); returns its removal. */
  const listen = <L>(set: Set<L>, listener: L) => {
    set.add(listener);
    attach();
    return () => {
      set.delete(listener);
      if (listeners.size || frameListeners.size || !detach) return;
      detach();
      detach = null;
    };
  };

  const store: LabStore = {
    getState: () => (shown ? source.getState() : heldState),
    getInitialState: () => source.getInitialState(),
    setState: source.setState,
    subscribe: (listener: Listener) => listen(listeners, listener),
    backend: () => source.backend(),
    nextFrame: (work: () => void) => source.nextFrame(work),
    flushDeferred: () => source.flushDeferred(),
    setClocked: (on: boolean) => source.setClocked(on),
    setAdvanceLimit: (limit) => source.setAdvanceLimit(limit),
    frame: () => (shown ? source.frame() : heldFrame),
    onFrame: (listener: FrameListener) => listen(frameListeners, listener),
  };

  const update = () => {
    const next = visible || reveals > 0;
    if (next === shown) return;
    if (!next) {
      heldState = source.getState();
      heldFrame = source.frame();
      shown = false;
      return;
    }
    shown = true;
    const state = source.getState();
    if (state !== heldState) for (const l of [...listeners]) l(state, heldState);
    const frame = source.frame();
    for (const l of [...frameListeners]) l(frame);
  };

  return {
    store,
    shown: () => shown,
    setVisible: (next) => {
      visible = next;
      update();
    },
    reveal: () => {
      reveals++;
      update();
      let released = false;
      return () => {
        if (released) return;
        released = true;
        reveals--;
        update();
      };
    },
  };
}

const gatesByLab = new WeakMap<LabStore, Set<LabGate>>();

/** Count a gate among its lab's, for revealScenes; returns the function that forgets it. */
export function trackGate(source: LabStore, gate: LabGate): () => void {
  let gates = gatesByLab.get(source);
  if (!gates) gatesByLab.set(source, (gates = new Set()));
  gates.add(gate);
  return () => gates.delete(gate);
}

/** Keep a lab's scenes current, hidden too, until released: an export sees the moment (wrap in flushSync). */
export function revealScenes(source: LabStore): () => void {
  const releases = [...(gatesByLab.get(source) ?? [])].map((g) => g.reveal());
  return () => {
    for (const release of releases) release();
  };
}
