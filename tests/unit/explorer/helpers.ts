// Shared helpers for the explorer's tests: explore with a fixed seed and budget, and the checks
// every finding must pass when replayed on the real engine with its normal outputs.
import { expect } from 'vitest';
import { normalizeExperiment, runExperiment, type Experiment } from '../../../src/engine';
import {
  explore,
  type ExploreOptions,
  type ExploreResult,
  type Finding,
} from '../../../src/explorer/explore';
import type { ExplorerFault } from '../../../src/explorer/schedule';
import { DEFAULT_CLOCK_RATES, GRID_MS } from '../../../src/explorer/space';

export function exploreOk(setup: unknown, options: ExploreOptions = {}): ExploreResult {
  const r = explore(setup, { seed: 1, budgetSchedules: 2000, ...options });
  if (!r.ok) throw new Error(`bad setup: ${JSON.stringify(r.errors)}`);
  return r.result;
}

export function mustFind(setup: unknown, options: ExploreOptions = {}): Finding {
  const r = exploreOk(setup, options);
  expect(r.outcome).toBe('found');
  if (!r.finding) throw new Error('nothing found');
  return r.finding;
}

/** The experiment's violations in a normal full run, as the page or `npm run sim` would see them. */
export function violationsOf(e: Experiment) {
  return runExperiment(normalizeExperiment(e)).summary.violations;
}

/** The experiment without its i-th fault. */
export function withoutFault(e: Experiment, i: number): Experiment {
  return { ...e, faults: e.faults.filter((_, j) => j !== i) };
}

/** Minimal: the full run breaks an invariant, and removing any one fault makes it pass. */
export function expectMinimal(f: Finding): void {
  expect(f.minimal).toBe(true);
  expect(violationsOf(f.experiment).length).toBeGreaterThan(0);
  f.experiment.faults.forEach((_, i) => {
    expect(violationsOf(withoutFault(f.experiment, i)), `without fault ${i}`).toEqual([]);
  });
}

/**
 * Each simpler form of a fault: 100 ms shorter, one member fewer in a group (a node, storage or a
 * service), a calmer clock, a plain campaign for a leadership transfer.
 */
function simplerForms(f: ExplorerFault): ExplorerFault[] {
  if (f.do === 'pause' && f.forMs !== undefined && f.forMs > GRID_MS)
    return [{ ...f, forMs: f.forMs - GRID_MS }];
  if (f.do === 'partition')
    return f.groups
      .flatMap((g, gi) =>
        g.map((m) => ({
          ...f,
          groups: f.groups
            .map((h, hi) => (hi === gi ? h.filter((x) => x !== m) : h))
            .filter((h) => h.length > 0),
        })),
      )
      .filter((x) => x.groups.length > 0);
  if (f.do === 'campaign' && f.transfer !== undefined)
    return [{ atMs: f.atMs, do: 'campaign', node: f.node }];
  if (f.do === 'clockRate') {
    const skew = (r: number) => Math.abs(Math.log(r));
    return DEFAULT_CLOCK_RATES.filter((r) => skew(r) < skew(f.rate)).map((rate) => ({ ...f, rate }));
  }
  return [];
}

/** Simplest: no fault can be made simpler (shorter, smaller, calmer) and still break an invariant. */
export function expectSimplest(f: Finding): void {
  f.experiment.faults.forEach((fault, i) => {
    for (const simpler of simplerForms(fault as ExplorerFault)) {
      const e = { ...f.experiment, faults: f.experiment.faults.map((x, j) => (j === i ? simpler : x)) };
      expect(violationsOf(e), `fault ${i} as ${JSON.stringify(simpler)}`).toEqual([]);
    }
  });
}
