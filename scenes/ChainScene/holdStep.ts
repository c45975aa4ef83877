// The chain's second step, and what the others wait out, in the words of the run's algorithm:
// each algorithm's page description (src/engine/algorithms/pages/) says it.
import { pageOf, type Experiment, type Expiry, type HoldStep } from '../../src/engine';

export type { Expiry, HoldStep };

export function holdStep(e: Experiment): HoldStep {
  return pageOf(e).hold(e);
}

/** What the others wait out before they replace a silent leader, in the algorithm's words. */
export function expiry(e: Experiment): Expiry {
  return pageOf(e).expiry(e);
}
