// The shrinker's algorithm on a known answer. The explorer's tests shrink real engine runs, where
// the minimal schedules found are one to three faults; here an oracle that needs exactly three
// particular faults hides them among twelve, so ddmin has to go down to single faults and every
// simplification has something to do. The oracle stands for "this schedule breaks an invariant".
import { describe, expect, it } from 'vitest';
import type { Breach } from '../../../src/explorer/leanRun';
import type { ExplorerFault } from '../../../src/explorer/schedule';
import { shrink, type ShrinkOptions, type Shrunk } from '../../../src/explorer/shrink';
import { DEFAULT_CLOCK_RATES } from '../../../src/explorer/space';

/**
 * Fails when three things are there together: a pause of n2 of at least 7.3 s, n3's clock off by
 * at least 20 %, and a partition with n1 and n4 in one group. The violation comes a second after
 * the last fault, so the sooner the faults, the sooner it comes.
 */
function oracle(faults: ExplorerFault[]): Breach | null {
  const pause = faults.some((f) => f.do === 'pause' && f.node === 'n2' && (f.forMs ?? 0) >= 7300);
  const clock = faults.some((f) => f.do === 'clockRate' && f.node === 'n3' && Math.abs(f.rate - 1) >= 0.2);
  const split = faults.some(
    (f) => f.do === 'partition' && f.groups.some((g) => g.includes('n1') && g.includes('n4')),
  );
  if (!(pause && clock && split)) return null;
  return { atMs: Math.max(...faults.map((f) => f.atMs)) + 1000, invariant: 'staleWriteAccepted' };
}

const FOUND: ExplorerFault[] = [
  { atMs: 3000, do: 'kill', node: 'n5' },
  { atMs: 8100, do: 'heal' },
  { atMs: 12_000, do: 'clockRate', node: 'n3', rate: 0.6 },
  { atMs: 15_000, do: 'restart', node: 'n5' },
  { atMs: 21_300, do: 'isolate', node: 'leader' },
  { atMs: 30_000, do: 'pause', node: 'n2', forMs: 41_000 },
  { atMs: 34_500, do: 'kill', node: 'leader' },
  { atMs: 40_000, do: 'partition', groups: [['n1', 'n4', 'n2', 'storage'], ['n3']] },
  { atMs: 52_000, do: 'pause', node: 'n5', forMs: 2000 },
  { atMs: 60_000, do: 'resume', node: 'n2' },
  { atMs: 77_700, do: 'clockRate', node: 'n1', rate: 1.5 },
  { atMs: 90_000, do: 'heal' },
];

function run(options: Partial<ShrinkOptions> = {}, check = oracle): Shrunk {
  const found = { horizonMs: 120_000, faults: FOUND };
  const breach = check(FOUND);
  if (!breach) throw new Error('the found schedule must fail');
  const steps = shrink(found, breach, check, {
    clockRates: DEFAULT_CLOCK_RATES,
    maxRuns: 5000,
    stopped: () => false,
    ...options,
  });
  let step = steps.next();
  while (!step.done) step = steps.next();
  return step.value;
}

describe('the shrinker', () => {
  it('keeps exactly the three faults that matter, each as simple as it can be, as early as it can be', () => {
    const r = run();
    expect(r.minimal).toBe(true);
    const byKind = Object.fromEntries(r.schedule.faults.map((f) => [f.do, f]));
    expect(r.schedule.faults).toHaveLength(3);
    expect(byKind.pause).toEqual({ atMs: 0, do: 'pause', node: 'n2', forMs: 7300 });
    expect(byKind.partition).toEqual({ atMs: 0, do: 'partition', groups: [['n1', 'n4']] });
    // 0.8 and 1.25 are equally calm (1.25 = 1 / 0.8): either is as simple as the other.
    expect(byKind.clockRate).toMatchObject({ atMs: 0, do: 'clockRate', node: 'n3' });
    expect([0.8, 1.25]).toContain((byKind.clockRate as { rate: number }).rate);
    // The violation comes at 1 s; the horizon ends at the next whole second.
    expect(r.breach.atMs).toBe(1000);
    expect(r.schedule.horizonMs).toBe(2000);
  });

  it('is deterministic, and counts only the runs it made (a candidate seen before is not run again)', () => {
    let calls = 0;
    const counted = (faults: ExplorerFault[]) => {
      calls++;
      return oracle(faults);
    };
    const a = run({}, counted);
    const first = calls - 1; // the test's own check of the found schedule
    expect(a.runs).toBe(first);
    expect(run()).toEqual(a);
  });

  it('out of runs, or stopped: the smallest failing schedule so far, marked not minimal', () => {
    const out = run({ maxRuns: 10 });
    expect(out.minimal).toBe(false);
    expect(out.runs).toBe(10);
    expect(oracle(out.schedule.faults)).not.toBeNull();
    expect(out.schedule.faults.length).toBeLessThan(FOUND.length);

    let asked = 0;
    const stopped = run({ stopped: () => ++asked > 4 });
    expect(stopped).toMatchObject({ minimal: false, runs: 4 });
    expect(oracle(stopped.schedule.faults)).not.toBeNull();
  });

  it('moves a fault ahead of another when the violation then comes sooner', () => {
    // Fails with a kill at 12 s exactly and a pause at any time; the violation comes 20 s after
    // the pause. Found with the pause after the kill: shifting the schedule would move the kill,
    // shifting the tail keeps the order, so only moving the pause alone puts it first, at 0.
    const order = (faults: ExplorerFault[]): Breach | null => {
      const kill = faults.find((f) => f.do === 'kill');
      const pause = faults.find((f) => f.do === 'pause');
      if (!kill || !pause || kill.atMs !== 12_000) return null;
      return { atMs: Math.max(pause.atMs + 20_000, kill.atMs + 1000), invariant: 'staleWriteAccepted' };
    };
    const found = {
      horizonMs: 120_000,
      faults: [
        { atMs: 12_000, do: 'kill', node: 'n5' },
        { atMs: 40_000, do: 'pause', node: 'n2', forMs: 1000 },
      ] as ExplorerFault[],
    };
    const steps = shrink(found, order(found.faults)!, order, {
      clockRates: DEFAULT_CLOCK_RATES,
      maxRuns: 5000,
      stopped: () => false,
    });
    let step = steps.next();
    while (!step.done) step = steps.next();
    const r = step.value;
    expect(r.schedule.faults[0]).toMatchObject({ atMs: 0, do: 'pause' });
    expect(r.breach.atMs).toBe(20_000);
  });

  it('moves a fault whose time does not matter as late as the violation allows', () => {
    // Fails with a pause and a heal that comes before the violation (20 s after the pause).
    const heal = (faults: ExplorerFault[]): Breach | null => {
      const pause = faults.find((f) => f.do === 'pause');
      const atMs = pause ? pause.atMs + 20_000 : 0;
      return pause && faults.some((f) => f.do === 'heal' && f.atMs < atMs)
        ? { atMs, invariant: 'staleWriteAccepted' }
        : null;
    };
    const found = {
      horizonMs: 120_000,
      faults: [
        { atMs: 5000, do: 'heal' },
        { atMs: 30_000, do: 'pause', node: 'n2', forMs: 100 },
      ] as ExplorerFault[],
    };
    const steps = shrink(found, heal(found.faults)!, heal, {
      clockRates: DEFAULT_CLOCK_RATES,
      maxRuns: 5000,
      stopped: () => false,
    });
    let step = steps.next();
    while (!step.done) step = steps.next();
    expect(step.value.schedule.faults).toEqual([
      { atMs: 0, do: 'pause', node: 'n2', forMs: 100 },
      { atMs: 19_900, do: 'heal' },
    ]);
  });

  it('turns a leadership transfer into a plain campaign unless the transfer is what fails', () => {
    // Fails with a campaign by n3 (a transfer, or any campaign), 1 s after it; the API server's
    // isolation is noise.
    const found = {
      horizonMs: 120_000,
      faults: [
        { atMs: 4000, do: 'isolate', node: 'api' },
        { atMs: 9000, do: 'campaign', node: 'n3', transfer: true },
      ] as ExplorerFault[],
    };
    const shrunk = (needsTransfer: boolean) => {
      const check = (faults: ExplorerFault[]): Breach | null => {
        const c = faults.find(
          (f) => f.do === 'campaign' && f.node === 'n3' && (!needsTransfer || f.transfer),
        );
        return c ? { atMs: c.atMs + 1000, invariant: 'leaderHasMajority' } : null;
      };
      const steps = shrink(found, check(found.faults)!, check, {
        clockRates: DEFAULT_CLOCK_RATES,
        maxRuns: 5000,
        stopped: () => false,
      });
      let step = steps.next();
      while (!step.done) step = steps.next();
      return step.value;
    };
    expect(shrunk(false).schedule.faults).toEqual([{ atMs: 0, do: 'campaign', node: 'n3' }]);
    expect(shrunk(true).schedule.faults).toEqual([{ atMs: 0, do: 'campaign', node: 'n3', transfer: true }]);
  });

  it('keeps the found schedule when nothing smaller fails', () => {
    const all = (faults: ExplorerFault[]) =>
      faults.length === FOUND.length && faults.every((f, i) => JSON.stringify(f) === JSON.stringify(FOUND[i]))
        ? { atMs: 100_500, invariant: 'oneLeaderPerTerm' as const }
        : null;
    const r = run({}, all);
    expect(r.minimal).toBe(true);
    expect(r.schedule.faults).toEqual(FOUND);
    expect(r.schedule.horizonMs).toBe(101_000);
  });
});
