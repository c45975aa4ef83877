// The lean run: does an experiment break an invariant, and when first? Asked thousands of times a second, it
// keeps almost no output (one sample an hour, a short event log) and stops at the first violation. The engine
// decides nothing from its outputs, so the answer is the full run's. Public engine API only.
import { Simulation, type Experiment, type InvariantName } from '../engine';

export interface Breach {
  /** Simulated time of the first violation. */
  atMs: number;
  invariant: InvariantName;
}

/** How far a run goes between looks at its new events: small enough to stop soon after a violation. */
const LOOK_EVERY_MS = 1000;
/** The engine's smallest event bound; a slice that emits more than half of it falls back to the summary. */
const LEAN_MAX_EVENTS = 1000;

/** The same experiment with its outputs cut to the bone. */
export function leanExperiment(e: Experiment): Experiment {
  return { ...e, sampleEveryMs: 3_600_000, limits: { maxEvents: LEAN_MAX_EVENTS, maxSamples: 100 } };
}

/** The first violation of the experiment's run up to its untilMs, or null when none breaks. */
export function firstBreach(e: Experiment): Breach | null {
  const sim = new Simulation(leanExperiment(e));
  let seen = 0;
  for (let t = 0; ;) {
    t = Math.min(e.untilMs, t + LOOK_EVERY_MS);
    sim.runUntil(t);
    const breach = newViolation(sim, seen);
    if (breach) return breach;
    seen = sim.eventsTotal;
    if (t >= e.untilMs) return null;
  }
}

/** A violation among the events emitted since absolute index `seen`. */
function newViolation(sim: Simulation, seen: number): Breach | null {
  const events = sim.events;
  const base = sim.eventsTotal - events.length;
  if (seen < base) {
    // The bound dropped events this slice emitted unseen: ask the summary, whose violations no bound touches.
    const v = sim.summary().violations[0];
    return v ? { atMs: v.atMs, invariant: v.invariant } : null;
  }
  for (let i = seen - base; i < events.length; i++) {
    const ev = events[i];
    if (ev.type === 'violation') return { atMs: ev.atMs, invariant: ev.invariant };
  }
  return null;
}
