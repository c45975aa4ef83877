// Property tests: random clusters under random fault schedules, with every safety switch on.
// Phase one injects faults; phase two heals everything and must converge on one leader (a safety
// phase followed by a liveness phase). Every failure prints the seed and the whole experiment.
//
// PROPERTY_RUNS sets the number of cases (default 300; the long run uses 2000) and
// PROPERTY_SEED the fast-check seed, e.g. PROPERTY_RUNS=2000 npx vitest run tests/property
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  normalizeExperiment,
  runExperiment,
  Simulation,
  type Experiment,
  type ExperimentInput,
  type Fault,
} from '../../src/engine';

const RUNS = Number(process.env.PROPERTY_RUNS ?? 300);
const SEED = Number(process.env.PROPERTY_SEED ?? 20_240_611);

const FAULTS_UNTIL_MS = 60_000;

// Clocks drift within bounds here; faster drift is the clock-skew game day's lesson, where only
// fencing protects. Raft's randomized timeouts and client-go's own-clock waits both tolerate this.
const RATES = [0.6, 0.8, 1.25, 1.5];

type Algorithm = 'raft' | 'k8s-lease';

/** When every node must agree on one leader after the last heal, and how long it must hold. */
function bounds(e: Experiment): { convergedByMs: number; untilMs: number } {
  if (e.algorithm === 'k8s-lease') {
    // A challenger waits LeaseDuration from its own observation, tries every RetryPeriod x 2.2 at
    // most, and a zombie holder stops within RetryPeriod + RenewDeadline: three lease durations.
    const l = e.lease!;
    return { convergedByMs: FAULTS_UNTIL_MS + 3 * l.durationMs, untilMs: FAULTS_UNTIL_MS + 4 * l.durationMs };
  }
  const et = e.raft!.electionTimeoutMs;
  return { convergedByMs: FAULTS_UNTIL_MS + 10 * et, untilMs: FAULTS_UNTIL_MS + 15 * et };
}

function faultArb(names: string[], services: string[]): fc.Arbitrary<Fault> {
  const atMs = fc.integer({ min: 0, max: FAULTS_UNTIL_MS - 1 });
  const node = fc.constantFrom(...names);
  const target = fc.constantFrom(...names, 'leader');
  const all = [...names, ...services];
  const groups = fc
    .tuple(
      fc.shuffledSubarray(all, { minLength: all.length, maxLength: all.length }),
      fc.nat(),
      fc.nat(),
      fc.boolean(),
    )
    .map(([order, cut1, cut2, withStorage]) => {
      const a = 1 + (cut1 % Math.max(1, order.length - 1));
      const b = a + (cut2 % Math.max(1, order.length - a));
      const gs = [order.slice(0, a), order.slice(a, b), order.slice(b)].filter((g) => g.length > 0);
      if (withStorage) gs[cut1 % gs.length].push('storage');
      return gs;
    });
  const arbs: fc.Arbitrary<Fault>[] = [
    fc.record({ atMs, do: fc.constant('kill' as const), node: target }),
    fc.record({ atMs, do: fc.constant('restart' as const), node }),
    fc.record({
      atMs,
      do: fc.constant('pause' as const),
      node: target,
      forMs: fc.integer({ min: 1, max: 40_000 }),
    }),
    fc.record({ atMs, do: fc.constant('pause' as const), node: target }),
    fc.record({ atMs, do: fc.constant('resume' as const), node }),
    fc.record({ atMs, do: fc.constant('partition' as const), groups }),
    fc.record({ atMs, do: fc.constant('heal' as const) }),
    fc.record({ atMs, do: fc.constant('isolate' as const), node: target }),
    fc.record({ atMs, do: fc.constant('clockRate' as const), node: target, rate: fc.constantFrom(...RATES) }),
  ];
  if (services.length) {
    const service = fc.constantFrom(...services);
    arbs.push(
      fc.record({ atMs, do: fc.constant('kill' as const), node: service }),
      fc.record({ atMs, do: fc.constant('restart' as const), node: service }),
      fc.record({ atMs, do: fc.constant('isolate' as const), node: service }),
    );
  }
  return fc.oneof(...arbs);
}

function experimentArb(algorithm: Algorithm): fc.Arbitrary<Experiment> {
  return fc
    .record({
      seed: fc.integer({ min: 0, max: 4294967295 }),
      nodes: fc.integer({ min: 1, max: algorithm === 'raft' ? 9 : 5 }),
      witness: fc.boolean(),
      electionTimeoutMs: fc.constantFrom(1000, 5000),
    })
    .chain(({ seed, nodes, witness, electionTimeoutMs }) => {
      const raft = algorithm === 'raft';
      const names = Array.from({ length: nodes }, (_, i) => `n${i + 1}`).concat(raft && witness ? ['w'] : []);
      const services = raft ? [] : ['api', 'm1', 'm2', 'm3'];
      return fc.array(faultArb(names, services), { maxLength: 12 }).map((faults) => {
        // Phase two: heal, bring every node and service back, and let it settle.
        const end = FAULTS_UNTIL_MS;
        const recover: Fault[] = [{ atMs: end, do: 'heal' }];
        for (const id of names)
          recover.push({ atMs: end, do: 'restart', node: id }, { atMs: end, do: 'resume', node: id });
        for (const id of services) recover.push({ atMs: end, do: 'restart', node: id });
        const input: ExperimentInput = raft
          ? {
              seed,
              nodes,
              witness,
              raft: { electionTimeoutMs, heartbeatMs: electionTimeoutMs / 10 },
              faults: [...faults, ...recover],
            }
          : { algorithm, seed, nodes, faults: [...faults, ...recover] };
        const e = normalizeExperiment(input);
        return { ...e, untilMs: bounds(e).untilMs };
      });
    });
}

function reproduce(e: Experiment): string {
  return `reproduce with seed=${e.seed}: ${JSON.stringify(e)}`;
}

for (const algorithm of ['raft', 'k8s-lease'] as const) {
  describe(`${algorithm}: properties over ${RUNS} random fault schedules (fast-check seed ${SEED})`, () => {
    it(
      'keeps every invariant, converges on one leader after healing, and replays identically',
      () => {
        fc.assert(
          fc.property(experimentArb(algorithm), (e) => {
            const trace = runExperiment(e);
            const why = reproduce(e);
            const { convergedByMs } = bounds(e);

            expect(trace.summary.violations, why).toEqual([]);

            const after = trace.samples.filter((s) => s.atMs >= convergedByMs);
            expect(after.length, why).toBeGreaterThan(0);
            expect(
              after.filter((s) => s.leaderCount !== 1 || s.leaderCountObserved !== 1).map((s) => s.atMs),
              why,
            ).toEqual([]);
            const transitionsAtConvergence = after[0].leaderTransitions;
            expect(
              after.at(-1)!.leaderTransitions - transitionsAtConvergence,
              `${why}\n(leadership moved after converging)`,
            ).toBe(0);

            // Same experiment, advanced in uneven steps: a byte-identical trace.
            const again = new Simulation(e);
            for (let t = 0; t < e.untilMs; t += 7919) again.runUntil(t);
            again.runUntil(e.untilMs);
            expect(
              JSON.stringify(again.trace()) === JSON.stringify(trace),
              `${why}\n(trace differs on replay)`,
            ).toBe(true);
          }),
          { seed: SEED, numRuns: RUNS },
        );
      },
      Math.max(60_000, RUNS * 200),
    );
  });
}

describe(`raft with candidates paused mid-campaign (fast-check seed ${SEED})`, () => {
  // Random schedules rarely pause a node within milliseconds of its campaign, where votes wait at
  // a paused candidate while the others move on. This drives exactly that: every real campaign
  // may get its candidate paused a few ms in, and leaders are killed to force new elections.
  it(
    'keeps one leader per term and one vote per term, with candidates paused mid-campaign',
    () => {
      const caseArb = fc.record({
        seed: fc.integer({ min: 0, max: 4294967295 }),
        nodes: fc.integer({ min: 3, max: 7 }),
        pauses: fc.array(
          fc.record({
            skip: fc.boolean(),
            afterMs: fc.integer({ min: 0, max: 30 }),
            forMs: fc.integer({ min: 1, max: 9000 }),
          }),
          { minLength: 1, maxLength: 30 },
        ),
      });
      fc.assert(
        fc.property(caseArb, ({ seed, nodes, pauses }) => {
          const sim = new Simulation({
            seed,
            nodes,
            raft: { heartbeatMs: 100, electionTimeoutMs: 1000 },
            untilMs: 150_000,
          });
          let next = 0;
          let seen = 0;
          let killAtMs = 10_000;
          while (sim.nowMs < 150_000 && sim.step()) {
            const fresh = sim.eventsSince(seen);
            seen = sim.eventsTotal;
            for (const e of fresh) {
              if (e.type !== 'campaign' || e.preVote || next >= pauses.length) continue;
              const p = pauses[next++];
              if (p.skip) continue;
              sim.runUntil(sim.nowMs + p.afterMs);
              sim.apply({ do: 'pause', node: e.node, forMs: p.forMs });
            }
            if (sim.nowMs >= killAtMs) {
              sim.apply({ do: 'kill', node: 'leader' });
              killAtMs += 20_000;
            }
            seen = sim.eventsTotal;
          }
          // The case reproduces the run through this driver; the commands it applied are listed
          // too. (As experiment faults they would not: a fault runs before the events due in its
          // millisecond, a live command after them.)
          const commands = sim.events.flatMap((e) => (e.type === 'fault' ? [e.fault] : []));
          const why = `reproduce with seed=${seed}: case ${JSON.stringify({ seed, nodes, pauses })}, commands ${JSON.stringify(commands)}`;
          expect(sim.summary().violations, why).toEqual([]);
        }),
        { seed: SEED, numRuns: RUNS },
      );
    },
    Math.max(60_000, RUNS * 100),
  );
});
