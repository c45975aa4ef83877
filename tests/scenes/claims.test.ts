// Captions as checked claims: every step of every game day, and every preset's game day, states
// as data the facts its words assert (who leads or believes it leads, both leader_count lines,
// the counters it quotes, roles), and here each one is compared with the snapshot at the moment
// the reader sees it: the step's pause (for a preset, the run's end). A caption that lags its
// picture by an event fails here, named by scenario, step and fact.
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../src/engine';
import { catalog, loadAllScenarios } from '../../src/scenario/catalog';
import { checkClaims, claimCount, unknownPlaceholders } from '../../src/scenario/claims';
import { runScenario } from '../../src/scenario/run';
import { presetCatalog } from '../../src/presets/catalog';
import { gameDayExperiment } from '../../src/presets/schema';

await loadAllScenarios();

describe('captions are claims true at their pause', () => {
  it('every game day step and every preset game day says what its snapshot shows', () => {
    const failed: string[] = [];
    let checked = 0;
    let steps = 0;
    for (const scenario of catalog.scenarios) {
      const run = runScenario(scenario);
      for (const step of run.steps) {
        steps++;
        checked += step.claimsChecked;
        for (const m of step.claimsFailed)
          failed.push(
            `${scenario.id} step ${step.index + 1} (paused at ${step.endedAtMs} ms): ${m.claim} said ${JSON.stringify(m.said)}, is ${JSON.stringify(m.actual)}`,
          );
      }
    }
    for (const preset of presetCatalog.presets) {
      const sim = new Simulation(gameDayExperiment(preset));
      sim.runUntil(sim.experiment.untilMs);
      const end = sim.snapshot();
      checked += claimCount(preset.gameDay.claims, end);
      for (const m of checkClaims(preset.gameDay.claims, end))
        failed.push(
          `preset ${preset.id} (end, ${end.nowMs} ms): ${m.claim} said ${JSON.stringify(m.said)}, is ${JSON.stringify(m.actual)}`,
        );
    }
    console.log(
      `claims checked: ${checked} over ${steps} game day steps and ${presetCatalog.presets.length} preset game days; ${failed.length} false`,
    );
    expect(failed).toEqual([]);
    expect(checked).toBeGreaterThan(0);
  });

  it('every step that states a fact declares it, and no caption has a placeholder that names nothing', () => {
    const bare: string[] = [];
    const typos: string[] = [];
    for (const scenario of catalog.scenarios) {
      const sim = new Simulation(scenario.experiment);
      scenario.steps.forEach((step, i) => {
        if (!step.claims) bare.push(`${scenario.id} step ${i + 1}`);
        const unknown = unknownPlaceholders(step.caption, sim.snapshot());
        if (unknown.length) typos.push(`${scenario.id} step ${i + 1}: {${unknown.join('}, {')}}`);
      });
    }
    expect(typos).toEqual([]);
    expect(bare).toEqual([]);
  });
});
