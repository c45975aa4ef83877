// The client view: what a run's clients saw, kept in the leadership books (ledger.ts) and read
// into every sample (readModel.ts sampleOf), so the chart's client panel, a recorded run's fold
// and the claims read the same counts. Checked here against the engine's own events.
import '../../../src/engine/algorithms/all';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  Simulation,
  WARM_UP_PRESETS,
  clientsNow,
  normalizeExperiment,
  type ExperimentInput,
  type SimEvent,
} from '../../../src/engine';
import { createMonitor, observe } from '../../../src/engine/monitor';
import { clientBins, clientNow } from '../../../scenes/MetricLineScene/clientView';
import { columnsOf } from '../../scenes/columns';

const scenario = JSON.parse(
  readFileSync(join(import.meta.dirname, '../../../scenes/scenarios/15-warm-up-under-load.json'), 'utf8'),
) as { experiment: ExperimentInput };
const warmUpUnderLoad = scenario.experiment;

function run(input: ExperimentInput, untilMs = input.untilMs ?? 35_000): Simulation {
  const sim = new Simulation({ ...input, limits: { maxEvents: 1_000_000, maxSamples: 100_000 } });
  sim.runUntil(untilMs);
  return sim;
}

type ClientWrite = Extract<SimEvent, { type: 'clientWrite' }>;
const clientWrites = (sim: Simulation) =>
  sim.events.filter((e): e is ClientWrite => e.type === 'clientWrite');

describe('the client view in the samples', () => {
  it('counts what the clientWrite events say: failures, served writes and their waits', () => {
    const sim = run(warmUpUnderLoad);
    const writes = clientWrites(sim);
    const last = sim.samples[sim.samples.length - 1];
    const upTo = writes.filter((w) => w.atMs <= last.atMs);
    const failed = upTo.filter((w) => w.result === 'unavailable' || w.result === 'redirected').length;
    const served = upTo.filter((w) => w.waitedMs !== undefined);
    expect(failed).toBeGreaterThan(0);
    expect(last.clientErrors).toBe(failed);
    expect(last.clientServed).toBe(served.length);
    expect(last.clientWaitedMs).toBe(served.reduce((t, w) => t + w.waitedMs!, 0));
    // Every sample carries them, from the first on.
    expect(sim.samples.every((s) => s.clientErrors !== undefined)).toBe(true);
  });

  it('a run without clients has no client view, and its samples are as they were', () => {
    const sim = run({ ...warmUpUnderLoad, workload: { clients: 0 } });
    expect(sim.samples.some((s) => 'clientErrors' in s || 'clientServed' in s)).toBe(false);
    expect(sim.snapshot().clients.view).toBeUndefined();
  });

  it('the monitor folds the same counts from the events alone', () => {
    const sim = run(warmUpUnderLoad);
    const m = createMonitor(normalizeExperiment(warmUpUnderLoad));
    for (const ev of sim.events) observe(m, ev);
    const { lastErrorAtMs, lastServedAtMs, ...counts } = sim.snapshot().clients.view!;
    expect(m.books.clients).toMatchObject(counts);
    expect([m.books.clients!.lastErrorAtMs, m.books.clients!.lastServedAtMs]).toEqual([
      lastErrorAtMs,
      lastServedAtMs,
    ]);
  });

  it('draws the recovery curve: errors while leader_count reads 1 in warm-up, then the waiting writes served', () => {
    const sim = run(warmUpUnderLoad);
    const f = sim.snapshot().failovers[0];
    const during = sim.samples.filter((s) => s.atMs > f.electedAtMs + 500 && s.atMs < f.readyAtMs);
    expect(during.length).toBeGreaterThan(10);
    for (const s of during) expect(s.leaderCountObserved).toBe(1);
    expect(during[during.length - 1].clientErrors! - during[0].clientErrors!).toBeGreaterThan(0);
    expect(during[during.length - 1].clientServed).toBe(during[0].clientServed);

    const bins = clientBins(columnsOf(sim.samples), { x0: 0, x1: 35_000 }, 1000);
    const readyBin = bins.find((b) => b.startMs === Math.floor(f.readyAtMs / 1000) * 1000)!;
    // The first writes served after warm-up had waited since about the kill.
    expect(readyBin.latencyMs!).toBeGreaterThan(f.readyAtMs - f.lostAtMs - 2_000);
    // Two seconds on, a write is served in a network trip.
    const later = bins.find((b) => b.startMs === readyBin.startMs + 3000)!;
    expect(later.errorsPerS).toBe(0);
    expect(later.latencyMs!).toBeLessThanOrEqual(warmUpUnderLoad.network!.delayMsMax!);
  });

  it("says what the clients see now, in the snapshot and the chart's last second alike", () => {
    const probe = run(warmUpUnderLoad).snapshot().failovers[0];
    const inWarmUp = run(warmUpUnderLoad, probe.electedAtMs + 3000);
    const s = inWarmUp.snapshot();
    expect(clientsNow(s.clients.view!, s.nowMs)).toBe('unavailable');
    const now = clientNow(columnsOf(inWarmUp.samples));
    expect(now.latencyMs).toBeNull();
    expect(now.errorsPerS).toBeGreaterThan(0);
    const warm = run(warmUpUnderLoad, probe.readyAtMs + 3000).snapshot();
    expect(clientsNow(warm.clients.view!, warm.nowMs)).toBe('served');
  });
});

describe('the warm-up setting', () => {
  it("a cold leader, a pre-warmed standby and a duration set the warm-up phase and the clients' outage", () => {
    const outage = (warmUpMs: number) => {
      const sim = run({ ...warmUpUnderLoad, warmUpMs });
      const f = sim.snapshot().failovers[0];
      const failedAfterKill = clientWrites(sim).filter(
        (w) => w.atMs >= f.lostAtMs && (w.result === 'unavailable' || w.result === 'redirected'),
      );
      return { warmUp: f.readyAtMs - f.electedAtMs, lastFailure: failedAfterKill.at(-1)!.atMs - f.readyAtMs };
    };
    for (const ms of [WARM_UP_PRESETS.cold, WARM_UP_PRESETS.prewarmed, 4000]) {
      const o = outage(ms);
      expect(o.warmUp).toBe(ms);
      // The clients' failures end within a network trip of the leader being ready.
      expect(o.lastFailure).toBeGreaterThanOrEqual(-1000);
      expect(o.lastFailure).toBeLessThanOrEqual(warmUpUnderLoad.network!.delayMsMax!);
    }
  });
});
