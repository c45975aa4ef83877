// The monitor (a fold over nothing but the events) computes what the engine's own summary says:
// leader_count's history, the failovers, the counters and the invariants every algorithm is held
// to. Random clusters, algorithms, safety switches, clients and fault schedules; every failure
// prints the seed and the experiment.
//
// PROPERTY_RUNS sets the number of cases (default 300), PROPERTY_SEED the fast-check seed.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runExperiment, type ExperimentInput, type Fault } from '../../src/engine';
import { ALGORITHM_KINDS, algorithmFor } from '../../src/engine/algorithms';
import { GENERIC_INVARIANTS, monitorEvents } from '../engineChecks';

const RUNS = Number(process.env.PROPERTY_RUNS ?? 300);
const SEED = Number(process.env.PROPERTY_SEED ?? 20_261_203);
const UNTIL_MS = 90_000;

function faultArb(
  names: string[],
  switches: readonly ('quorum' | 'fencing' | 'followersReject')[],
): fc.Arbitrary<Fault> {
  const atMs = fc.integer({ min: 0, max: UNTIL_MS - 1 });
  const node = fc.constantFrom(...names);
  const target = fc.constantFrom(...names, 'leader');
  const groups = fc
    .tuple(
      fc.shuffledSubarray(names, { minLength: names.length, maxLength: names.length }),
      fc.nat(),
      fc.boolean(),
    )
    .map(([order, cut, withStorage]) => {
      const a = 1 + (cut % Math.max(1, order.length - 1));
      const gs = [order.slice(0, a), order.slice(a)].filter((g) => g.length > 0);
      if (withStorage) gs[cut % gs.length].push('storage');
      return gs;
    });
  const safety = fc
    .tuple(fc.constantFrom(...switches), fc.boolean())
    .map(([k, on]) => ({ [k]: on }) as Record<string, boolean>);
  return fc.oneof(
    fc.record({ atMs, do: fc.constant('kill' as const), node: target }),
    fc.record({ atMs, do: fc.constant('restart' as const), node }),
    fc.record({
      atMs,
      do: fc.constant('pause' as const),
      node: target,
      forMs: fc.integer({ min: 1, max: 40_000 }),
    }),
    fc.record({ atMs, do: fc.constant('resume' as const), node }),
    fc.record({ atMs, do: fc.constant('partition' as const), groups }),
    fc.record({ atMs, do: fc.constant('heal' as const) }),
    fc.record({ atMs, do: fc.constant('isolate' as const), node: target }),
    fc.record({
      atMs,
      do: fc.constant('clockRate' as const),
      node: target,
      rate: fc.constantFrom(0.5, 1.5, 3),
    }),
    fc.record({ atMs, do: fc.constant('write' as const), node: target }),
    safety
      .map((s) => ({ atMs: 0, do: 'safety' as const, ...s }))
      .chain((f) => atMs.map((t) => ({ ...f, atMs: t }))),
  ) as fc.Arbitrary<Fault>;
}

const experimentArb: fc.Arbitrary<ExperimentInput> = fc
  .record({
    algorithm: fc.constantFrom(...ALGORITHM_KINDS),
    seed: fc.integer({ min: 0, max: 4294967295 }),
    nodes: fc.integer({ min: 1, max: 7 }),
    clients: fc.constantFrom(0, 0, 5, 30),
  })
  .chain(({ algorithm, seed, nodes, clients }) => {
    const names = Array.from({ length: nodes }, (_, i) => `n${i + 1}`);
    const uses = algorithmFor(algorithm).settings;
    const switches = (['quorum', 'fencing', 'followersReject'] as const).filter(
      (k) => k === 'followersReject' || uses.includes(`safety.${k}`),
    );
    return fc.array(faultArb(names, switches), { maxLength: 14 }).map((faults): ExperimentInput => ({
      ...(algorithm === 'raft' ? {} : { algorithm }),
      seed,
      nodes,
      workload: { clients, clientLeaderCacheMs: 5_000 },
      faults: [...faults].sort((a, b) => a.atMs - b.atMs),
      untilMs: UNTIL_MS,
    }));
  });

describe('the monitor, folding only the events, agrees with the engine', () => {
  it(`on ${RUNS} random runs (seed ${SEED})`, () => {
    fc.assert(
      fc.property(experimentArb, (input) => {
        const trace = runExperiment(input);
        const m = monitorEvents(trace.experiment, trace.events, trace.experiment.untilMs);
        const s = trace.summary;
        const context = `experiment: ${JSON.stringify(input)}`;
        expect(
          {
            leaderTransitions: m.leaderTransitions,
            fencingRejections: m.fencingRejections,
            staleWritesAccepted: m.staleWritesAccepted,
            divergentWrites: m.divergentWrites,
            clientRedirects: m.clientRedirects,
            maxLeaderCount: m.maxLeaderCount,
            msWithoutLeader: m.msWithoutLeader,
            failovers: m.failovers,
            violations: m.violations,
          },
          context,
        ).toEqual({
          leaderTransitions: s.leaderTransitions,
          fencingRejections: s.fencingRejections,
          staleWritesAccepted: s.staleWritesAccepted,
          divergentWrites: s.divergentWrites,
          clientRedirects: s.clientRedirects,
          maxLeaderCount: s.maxLeaderCount,
          msWithoutLeader: s.msWithoutLeader,
          failovers: s.failovers,
          violations: s.violations.filter((v) => GENERIC_INVARIANTS.includes(v.invariant)),
        });
        const last = trace.samples[trace.samples.length - 1];
        expect(m.leaderCount, context).toBe(last.leaderCount);
        expect(m.leaderCountObserved, context).toBe(last.leaderCountObserved);
      }),
      { numRuns: RUNS, seed: SEED },
    );
  });
});
