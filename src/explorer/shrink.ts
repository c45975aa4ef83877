// The shrinker: from a schedule that breaks an invariant to one where every fault matters.
//
// Delta debugging (Zeller and Hildebrandt's ddmin) removes faults, in halves, then quarters, down to one at a
// time. Then the timing: the schedule, or its tail, moves earlier while the violation comes sooner (a shorter
// horizon). Then each remaining fault is made simpler, one dimension at a time: a shorter pause, smaller
// partition groups, a clock rate nearer 1, a plain campaign for a leadership transfer, an earlier start if
// the violation then comes sooner, a later one if it comes no later. Every candidate is run again and kept
// only if it still breaks an invariant. The passes repeat until a whole round changes nothing; that round's
// ddmin tried removing each fault alone and every removal passed, so the result is 1-minimal. The horizon
// then ends at the second after the first violation. Each kept change makes the schedule strictly smaller in
// the order (faults, pause ms + group members + clock skew + transfers, violation time, -start times), so the
// rounds end; a bound on runs is there for safety.
//
// Not fast-check's: the schedules come from the engine's PRNG, not arbitraries, so there is no shrink tree to
// follow; the faults interact (a pause of "the leader" hits whoever leads then), so shrinking them as
// independent values would not reach 1-minimality; and the page should not ship a test library. Each step is
// a generator yield, so a worker can stop it between two runs.
import type { Breach } from './leanRun';
import { byTime, type ExplorerFault, type Schedule } from './schedule';
import { GRID_MS } from './space';

/** Does the setup with these faults, over the found schedule's horizon, break an invariant? (A lean run.) */
export type BreachCheck = (faults: ExplorerFault[]) => Breach | null;

export interface ShrinkOptions {
  /** Clock rates a simpler clockRate fault may take (the search's own band). */
  clockRates: number[];
  /** Runs at most; past it the best schedule so far is returned, marked not minimal. */
  maxRuns: number;
  /** Asked between runs: true ends the shrink early, with the best schedule so far. */
  stopped: () => boolean;
}

export interface Shrunk {
  schedule: Schedule;
  breach: Breach;
  /** Every remaining fault was checked to matter (false when stopped or out of runs). */
  minimal: boolean;
  runs: number;
}

/** Yielded after each run of the shrink (an explorer step), so the driver can report progress or stop. */
export interface ShrinkTick {
  type: 'shrinking';
  runs: number;
  faults: number;
}

class OutOfRuns extends Error {}

export function* shrink(
  found: Schedule,
  foundBreach: Breach,
  check: BreachCheck,
  options: ShrinkOptions,
): Generator<ShrinkTick, Shrunk> {
  const cache = new Map<string, Breach | null>();
  let runs = 0;
  let best = { faults: found.faults, breach: foundBreach };

  /** Does this candidate still break an invariant? Counts and yields a run (cached ones are free). */
  function* fails(faults: ExplorerFault[]): Generator<ShrinkTick, Breach | null> {
    const key = JSON.stringify(faults);
    const known = cache.get(key);
    if (known !== undefined) return known;
    if (runs >= options.maxRuns || options.stopped()) throw new OutOfRuns();
    const breach = check(faults);
    runs++;
    cache.set(key, breach);
    yield { type: 'shrinking', runs, faults: best.faults.length };
    return breach;
  }

  /** Keep a candidate if it still fails (a timing change: if its violation comes no later, or sooner). */
  function* keep(faults: ExplorerFault[], timing: Timing = 'any'): Generator<ShrinkTick, boolean> {
    const sorted = byTime(faults);
    const breach = yield* fails(sorted);
    const ok =
      breach !== null &&
      (timing === 'any' ||
        (timing === 'sooner' ? breach.atMs < best.breach.atMs : breach.atMs <= best.breach.atMs));
    if (ok) best = { faults: sorted, breach };
    return ok;
  }

  let minimal = false;
  try {
    for (;;) {
      const removed = yield* ddmin();
      const sooner = yield* allSooner();
      const simpler = yield* simplifyEach();
      if (!removed && !sooner && !simpler) break;
    }
    minimal = true;
  } catch (err) {
    if (!(err instanceof OutOfRuns)) throw err;
  }
  const horizonMs = Math.min(found.horizonMs, (Math.floor(best.breach.atMs / 1000) + 1) * 1000);
  return { schedule: { horizonMs, faults: best.faults }, breach: best.breach, minimal, runs };

  /** ddmin over the faults; true if it removed any. */
  function* ddmin(): Generator<ShrinkTick, boolean> {
    const before = best.faults.length;
    let n = Math.min(2, best.faults.length);
    while (best.faults.length > 0) {
      const c = best.faults;
      const chunks = split(c, n);
      let reduced = false;
      // A chunk alone (skipped when it is everything), then everything but a chunk.
      for (const chunk of n > 1 ? chunks : []) {
        if (yield* keep(chunk)) {
          n = Math.min(2, best.faults.length);
          reduced = true;
          break;
        }
      }
      if (!reduced) {
        for (let i = 0; i < chunks.length; i++) {
          if (yield* keep(chunks.filter((_, j) => j !== i).flat())) {
            n = Math.max(Math.min(n - 1, best.faults.length), 1);
            reduced = true;
            break;
          }
        }
      }
      if (reduced) continue;
      if (n >= c.length) break;
      n = Math.min(2 * n, c.length);
    }
    return best.faults.length < before;
  }

  /** One pass of simplifications over every fault; true if any was kept. */
  function* simplifyEach(): Generator<ShrinkTick, boolean> {
    let changed = false;
    for (const original of best.faults) {
      let current = original;
      // Try the fault with `g` in its place; keep it (and follow it) if the run still fails.
      const test: Test = function* (g, timing = 'any') {
        const kept = yield* keep(
          best.faults.map((x) => (x === current ? g : x)),
          timing,
        );
        if (kept) {
          current = g;
          changed = true;
        }
        return kept;
      };
      const simplifications = [
        shorterPause,
        smallerGroups,
        calmerClock,
        plainCampaign,
        soonerStart,
        laterStart,
      ];
      for (const simplify of simplifications) yield* simplify(current, test);
    }
    return changed;
  }

  /** The shortest pause on the grid that still fails (a binary search: longer pauses fail more). */
  function* shorterPause(f: ExplorerFault, test: Test): Generator<ShrinkTick, void> {
    if (f.do !== 'pause' || f.forMs === undefined) return;
    let lo = 0;
    let hi = Math.ceil(f.forMs / GRID_MS);
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (mid * GRID_MS >= f.forMs) break;
      if (yield* test({ ...f, forMs: mid * GRID_MS })) hi = mid;
      else lo = mid;
    }
  }

  /** Fewer members in the partition's groups (a node left out joins the unnamed rest). */
  function* smallerGroups(f: ExplorerFault, test: Test): Generator<ShrinkTick, void> {
    if (f.do !== 'partition') return;
    let groups = f.groups;
    let smaller = true;
    while (smaller) {
      smaller = false;
      for (const candidate of withOneLess(groups)) {
        if (yield* test({ ...f, groups: candidate })) {
          groups = candidate;
          smaller = true;
          break;
        }
      }
    }
  }

  /** A clock rate nearer 1, the nearest first. */
  function* calmerClock(f: ExplorerFault, test: Test): Generator<ShrinkTick, void> {
    if (f.do !== 'clockRate') return;
    const skew = (r: number) => Math.abs(Math.log(r));
    const calmer = options.clockRates.filter((r) => skew(r) < skew(f.rate)).sort((a, b) => skew(a) - skew(b));
    for (const rate of calmer) if (yield* test({ ...f, rate })) return;
  }

  /** A campaign rather than a leadership transfer (which skips Raft's pre-vote and stickiness). */
  function* plainCampaign(f: ExplorerFault, test: Test): Generator<ShrinkTick, void> {
    if (f.do !== 'campaign' || f.transfer === undefined) return;
    yield* test({ atMs: f.atMs, do: 'campaign', node: f.node });
  }

  /**
   * Close the gaps: faults from the k-th on move earlier together (keeping their spacing) while the violation
   * comes sooner (a shorter run to watch); k = 0 moves all. Not monotone: biggest shift first, then halves.
   */
  function* allSooner(): Generator<ShrinkTick, boolean> {
    const before = best.breach.atMs;
    for (let k = 0; k < best.faults.length; k++) {
      const gap = () => best.faults[k].atMs - (k > 0 ? best.faults[k - 1].atMs : 0);
      for (let step = lastGridPoint(gap()); step >= GRID_MS;) {
        const shifted = best.faults.map((f, i) => (i < k ? f : { ...f, atMs: f.atMs - step }));
        if (yield* keep(shifted, 'sooner')) step = lastGridPoint(gap());
        else step = lastGridPoint(step / 2);
      }
    }
    return best.breach.atMs < before;
  }

  /** This fault earlier, while the violation comes sooner. */
  function* soonerStart(f: ExplorerFault, test: Test): Generator<ShrinkTick, void> {
    let atMs = f.atMs;
    for (let step = lastGridPoint(atMs); step >= GRID_MS;) {
      if (yield* test({ ...f, atMs: atMs - step }, 'sooner')) {
        atMs -= step;
        step = lastGridPoint(atMs);
      } else step = lastGridPoint(step / 2);
    }
  }

  /** This fault later, while the violation comes no later: the cluster settles first, the fault nears it. */
  function* laterStart(f: ExplorerFault, test: Test): Generator<ShrinkTick, void> {
    let atMs = f.atMs;
    for (let step = lastGridPoint(best.breach.atMs) - atMs; step >= GRID_MS;) {
      if (yield* test({ ...f, atMs: atMs + step }, 'no later')) {
        atMs += step;
        step = lastGridPoint(best.breach.atMs) - atMs;
      } else step = lastGridPoint(step / 2);
    }
  }
}

type Timing = 'any' | 'sooner' | 'no later';
type Test = (f: ExplorerFault, timing?: Timing) => Generator<ShrinkTick, boolean>;

const lastGridPoint = (ms: number) => Math.floor(ms / GRID_MS) * GRID_MS;

/** Each way to take one member out of one group (a group left empty goes; at least one stays). */
function withOneLess(groups: string[][]): string[][][] {
  const out: string[][][] = [];
  groups.forEach((group, gi) => {
    for (const member of group) {
      const next = groups
        .map((g, j) => (j === gi ? g.filter((m) => m !== member) : g))
        .filter((g) => g.length > 0);
      if (next.length > 0) out.push(next);
    }
  });
  return out;
}

/** `list` in n nearly equal consecutive chunks. */
function split<T>(list: readonly T[], n: number): T[][] {
  const chunks: T[][] = [];
  let start = 0;
  for (let i = 0; i < n; i++) {
    const end = start + Math.floor((list.length - start) / (n - i));
    chunks.push(list.slice(start, end));
    start = end;
  }
  return chunks.filter((c) => c.length > 0);
}
