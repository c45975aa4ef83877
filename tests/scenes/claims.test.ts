// Captions as checked claims: every step of every game day, and every preset's game day, states
// as data the facts its words assert (who leads or believes it leads, both leader_count lines,
// the counters it quotes, roles), and here each one is compared with the snapshot at the moment
// the reader sees it: the step's pause (for a preset, the run's end). A caption that lags its
// picture by an event fails here, named by scenario, step and fact.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../src/engine';
import { catalog, loadAllScenarios } from '../../src/scenario/catalog';
import { checkClaims, claimCount } from '../../src/scenario/claims';
import { checkStatements, handTypedNumbers, statedFacts } from '../captionChecks';
import { runScenario, runStep } from '../../src/scenario/run';
import { nextHint } from '../../src/app/hint';
import { bannerLine, bannerText } from '../../src/app/controls/bannerText';
import { ALL_COMMANDS } from '../../src/store/backend';
import { presetCatalog } from '../../src/presets/catalog';
import { gameDayExperiment } from '../../src/presets/schema';
import { parseScenario } from '../../src/scenario/schema';
import type { Scenario } from '../../src/scenario/types';

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

  it('every step declares its claims, and every placeholder in a caption has a value at its pause', () => {
    const bare: string[] = [];
    const unfilled: string[] = [];
    for (const scenario of catalog.scenarios) {
      const run = runScenario(scenario);
      scenario.steps.forEach((step, i) => {
        if (!step.claims) bare.push(`${scenario.id} step ${i + 1}`);
        if (run.steps[i].unfilled.length)
          unfilled.push(`${scenario.id} step ${i + 1}: {${run.steps[i].unfilled.join('}, {')}}`);
      });
    }
    expect(unfilled).toEqual([]);
    expect(bare).toEqual([]);
  });
});

describe('the hint under the stage and the safety banner are true at every pause', () => {
  const CAN = { seek: true, step: true, speed: true, replay: true, commands: ALL_COMMANDS };
  /** What the page says of the moment beside the caption, and what of it is false. */
  function said(sim: Simulation, where: string, failed: string[]): number {
    const s = sim.snapshot();
    const texts = {
      hint: nextHint({ snapshot: s, selected: null, experiment: sim.experiment, can: CAN }),
      banner: bannerLine(bannerText(s, sim.experiment)),
    };
    let count = 0;
    for (const [name, text] of Object.entries(texts)) {
      count += statedFacts(text).length;
      for (const m of checkStatements(text, s))
        failed.push(
          `${where}, the ${name} "${text}": ${m.claim} said ${JSON.stringify(m.said)}, is ${JSON.stringify(m.actual)}`,
        );
    }
    return count;
  }

  it('every game day step and every preset game day: each fact the hint and the banner state holds', () => {
    const failed: string[] = [];
    let checked = 0;
    for (const scenario of catalog.scenarios) {
      const sim = new Simulation(scenario.experiment);
      scenario.steps.forEach((step, i) => {
        runStep(sim, step, sim.experiment.untilMs);
        checked += said(sim, `${scenario.id} step ${i + 1} (paused at ${sim.nowMs} ms)`, failed);
      });
    }
    for (const preset of presetCatalog.presets) {
      const sim = new Simulation(gameDayExperiment(preset));
      sim.runUntil(sim.experiment.untilMs);
      checked += said(sim, `preset ${preset.id} (end)`, failed);
    }
    console.log(`hint and banner facts checked: ${checked}; ${failed.length} false`);
    expect(failed).toEqual([]);
    expect(checked).toBeGreaterThan(100);
  });

  it('reads the facts a sentence states, so a stale one fails', () => {
    expect(
      statedFacts(
        '⚠ believed leader_count 2, observed 1: n1 (leaderTransitions 0, paused) and n2 (leaderTransitions 1) believe they lead · 3 stale writes accepted.',
      ),
    ).toEqual([
      ['leaderCount', 2],
      ['leaderCountObserved', 1],
      ['believes.n1', { token: 0, paused: true }],
      ['believes.n2', { token: 1, paused: false }],
      ['staleWritesAccepted', 3],
    ]);
    expect(
      statedFacts('The holder is n3: select it (click it on the stage) and press Pause 30 s or Kill.'),
    ).toEqual([['leader', 'n3']]);
  });
});

describe('references point somewhere', () => {
  // The menu lists game days by title: a file's number ("18a", "game day 19") names nothing a
  // reader can find, and "the next scenario" depends on an order the menu need not keep.
  const FILE_NUMBER =
    /\b(?:game days?|scenarios?|files?) \d+[ab]?\b|(?<!\w)\(\d{1,2}[ab]?\)|\b\d{1,2}[ab]\b|\b(?:earlier|previous|next) (?:game day|scenario)\b/i;

  it('no game day or preset text cites another by file number or position', () => {
    const cited: string[] = [];
    const look = (where: string, text: string | undefined) => {
      const m = text && FILE_NUMBER.exec(text);
      if (m) cited.push(`${where}: "${m[0]}"`);
    };
    for (const s of catalog.scenarios) {
      look(`${s.id} description`, s.description);
      look(`${s.id} teaches`, s.teaches);
      look(`${s.id} compare`, s.compare?.why);
      s.steps.forEach((step, i) => look(`${s.id} step ${i + 1}`, step.caption));
    }
    for (const p of presetCatalog.presets) {
      look(`preset ${p.id} lesson`, p.lesson);
      look(`preset ${p.id} shows`, p.gameDay.shows);
    }
    expect(cited).toEqual([]);
  });
});

describe('numbers in captions come from the run or the experiment', () => {
  // The files as written: a setting's number is a `{setting:path}` there, filled as the file loads.
  const DIR = new URL('../../scenes/scenarios/', import.meta.url);
  const files = readdirSync(DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(new URL(f, DIR), 'utf8')) as Scenario);

  it('no caption has a hand-typed number: each is a placeholder, a setting, or declared quoted', () => {
    const typed: string[] = [];
    const unused: string[] = [];
    let placeholders = 0;
    for (const scenario of files)
      scenario.steps.forEach((step, i) => {
        for (const n of handTypedNumbers(step.caption, step.quoted))
          typed.push(`${scenario.id} step ${i + 1}: "${n}" in "${step.caption}"`);
        for (const n of Object.keys(step.quoted ?? {}))
          if (!handTypedNumbers(step.caption).includes(n))
            unused.push(`${scenario.id} step ${i + 1} quotes ${n}, which its caption does not say`);
        placeholders += step.caption.match(/\{[a-zA-Z]+(?::[\w.]+)?\}/g)?.length ?? 0;
      });
    console.log(`caption placeholders: ${placeholders} over ${files.length} game days`);
    expect(typed).toEqual([]);
    expect(unused).toEqual([]);
    expect(placeholders).toBeGreaterThan(200);
  });

  it('flags a figure typed by hand, not a node name, a placeholder or a declared quote', () => {
    expect(handTypedNumbers('n2 took the Lease at 25.5 s with token {term:n2}, n1..n9')).toEqual(['25.5']);
    expect(
      handTypedNumbers('At {setting:faults.0.atMs} n1 was killed: {fencingRejections} rejections'),
    ).toEqual([]);
    expect(handTypedNumbers('in 2018, token 34', { '2018': 'the year' })).toEqual(['34']);
  });

  it('a setting the experiment lacks fails the file; the ones it has are filled as it loads', () => {
    const file = files.find((s) => s.id === 'kill-leader')!;
    const step = (caption: string) => ({ ...file, steps: [{ ...file.steps[0], caption }] });
    const bad = parseScenario(step('After {setting:lease.durationMss} n2 may take it.'));
    expect(bad.ok ? [] : bad.errors).toEqual([
      {
        field: 'steps.0.caption',
        message: 'names {setting:lease.durationMss}, which the experiment does not have',
      },
    ]);
    const good = parseScenario(
      step('After {setting:lease.durationMs} n2 may take it; n1 wakes at {setting:faults.0.atMs}.'),
    );
    expect(good.ok && good.scenario.steps[0].caption).toBe('After 15 s n2 may take it; n1 wakes at 10 s.');
  });
});
