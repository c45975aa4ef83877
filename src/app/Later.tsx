// Mounting the page in steps, one part per idle task: the whole lab in one commit kept a phone's main thread
// busy for over a second (Lighthouse: total blocking time). One queue per page shares out its main thread.
import { createContext, startTransition, useContext, useEffect, useState, type ReactNode } from 'react';

/** True on the hosted page; off (everything at once) in tests that render a lab directly. */
export const StagedMount = createContext(false);

interface Step {
  order: number;
  start(): void;
}

const waiting: Step[] = [];
const settledListeners = new Set<() => void>();
let running = false;

export function whenIdle(run: () => void, timeoutMs = 300): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(() => run(), { timeout: timeoutMs });
  else setTimeout(run, 16);
}

function pump(): void {
  if (running) return;
  if (waiting.length === 0) {
    for (const listener of [...settledListeners]) listener();
    settledListeners.clear();
    return;
  }
  running = true;
  whenIdle(() => {
    waiting.sort((a, b) => a.order - b.order);
    const step = waiting.shift();
    if (step) step.start();
    else running = false;
  });
}

function stepDone(): void {
  running = false;
  pump();
}

/** Run once every waiting part has mounted (at once when none waits, or unstaged). Returns a cancel. */
export function whenSettled(run: () => void, staged = true): () => void {
  if (!staged || (!running && waiting.length === 0)) {
    run();
    return () => undefined;
  }
  settledListeners.add(run);
  return () => settledListeners.delete(run);
}

/** Mount the children at their turn, `load` fetching their chunk first so the render does not suspend. */
export function Later({
  order,
  load,
  children,
}: {
  order: number;
  load?: () => Promise<unknown>;
  children: ReactNode;
}) {
  const staged = useContext(StagedMount);
  const [ready, setReady] = useState(!staged);
  useEffect(() => {
    if (!staged) return;
    let live = true;
    const step: Step = {
      order,
      start: () => {
        const show = () => {
          if (live) startTransition(() => setReady(true));
          else stepDone();
        };
        if (load) load().then(show, show);
        else show();
      },
    };
    waiting.push(step);
    pump();
    return () => {
      live = false;
      const i = waiting.indexOf(step);
      if (i >= 0) waiting.splice(i, 1);
    };
  }, [staged, order, load]);
  // The step ends once its content is on the page, not when it was asked for.
  useEffect(() => {
    if (staged && ready) stepDone();
  }, [staged, ready]);
  return ready ? children : null;
}
