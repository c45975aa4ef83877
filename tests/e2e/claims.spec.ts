// Captions as checked claims, in the page. Every game day's steps are checked in the walk of
// present-fit.spec.ts (claimsInPage.ts: at each pause the caption is the headless run's and every
// declared fact is what the stage, the storage and the chart show); here, every preset's game day
// opened at its end is checked against its declared `claims` the same way, the hint under the
// stage is checked at each moment, and the zombie step's caption and chain card tell one story.
// tests/scenes/claims.test.ts checks every game day and preset headless.
import { readdirSync, readFileSync } from 'node:fs';
import { parseScenario } from '../../src/scenario/schema';
import { runStep } from '../../src/scenario/run';
import { checkStatements, statedFacts } from '../captionChecks';
import { Simulation, type ExperimentInput } from '../../src/engine';
import { nextHint } from '../../src/app/hint';
import { ALL_COMMANDS } from '../../src/store/backend';
import { gameDayExperiment, parsePreset } from '../../src/presets/schema';
import { encodeRun } from '../../src/shared/share';
import type { Claims, Scenario } from '../../src/scenario/types';
import { claimsShown, expectBannerTrue } from './claimsInPage';
import { chainScene, expect, finishStep, simMs, SLOW, test, WHOLE_PAGE } from './lab';

test.use(WHOLE_PAGE);

function load(file: string): Scenario {
  const r = parseScenario(
    JSON.parse(readFileSync(new URL(`../../scenes/scenarios/${file}`, import.meta.url), 'utf8')),
  );
  if (!r.ok) throw new Error(`${file}: ${r.errors.map((e) => `${e.field}: ${e.message}`).join('; ')}`);
  return r.scenario;
}

test('the chain card and the caption tell one story of the zombie write: client-go never hears the refusal', async ({
  page,
}) => {
  const scenario = load('04-gc-pause-long.json');
  const zombieStep = scenario.steps.findIndex((s) => (s.claims?.metrics?.fencingRejections ?? 0) >= 5);
  await page.goto(`/?scenario=${scenario.id}&step=${zombieStep + 1}&speed=64`);
  await finishStep(page);
  const caption = await page.getByTestId('guided-caption').innerText();
  expect(caption).toMatch(/never hears it, so n1 carries on/);
  // The chain's alert says what storage did and what the writer's election made of it, in
  // Kubernetes' words: nothing, so n1 still acts as leader, as the stage and the caption show.
  const alert = chainScene(page).getByTestId('zombie-alert');
  await expect(alert).toContainText(/ZOMBIE WRITE REJECTED: n1 token 0 < 1/);
  await expect(alert).toContainText("client-go's elector never hears of it");
  await expect(alert).not.toContainText('gets a retryable error');
  await expect(page.getByTestId('node-n1')).toHaveAttribute('data-role', 'leader');
});

// The hint under the stage, in the page: every preset's game day opened at its end, and each
// step's pause of two game days opened as a free run (a game day shows its caption in the hint's
// place). The page's words must be the hint of the headless snapshot at that moment, and every
// fact they state true of it; at a preset's end, the facts its game day declares (`claims`) must
// be what the page shows, and the banner true of the moment.
const HINT_CAN = { seek: true, step: true, speed: true, replay: true, commands: ALL_COMMANDS };

function hintMoments(): { where: string; experiment: ExperimentInput; atMs: number; claims?: Claims }[] {
  const dir = new URL('../../scenes/presets/', import.meta.url);
  const out: { where: string; experiment: ExperimentInput; atMs: number; claims?: Claims }[] = readdirSync(
    dir,
  )
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      const r = parsePreset(JSON.parse(readFileSync(new URL(f, dir), 'utf8')));
      if (!r.ok) throw new Error(`${f}: ${r.errors.map((e) => `${e.field}: ${e.message}`).join('; ')}`);
      const experiment = gameDayExperiment(r.preset);
      return {
        where: `preset ${r.preset.id} (end)`,
        experiment,
        atMs: new Simulation(experiment).experiment.untilMs,
        claims: r.preset.gameDay.claims ?? {},
      };
    });
  for (const file of ['02-kill-leader.json', '07-quorum-split-2-3.json']) {
    const scenario = load(file);
    const sim = new Simulation(scenario.experiment);
    scenario.steps.forEach((step, i) => {
      runStep(sim, step, sim.experiment.untilMs);
      out.push({ where: `${scenario.id} step ${i + 1}`, experiment: scenario.experiment, atMs: sim.nowMs });
    });
  }
  return out;
}

test('the hint under the stage says of each moment only what is true of it, and a preset game day what it claims', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const problems: string[] = [];
  let facts = 0;
  let claimsChecked = 0;
  let presets = 0;
  for (const m of hintMoments()) {
    await page.goto(`/?run=${encodeRun({ experiment: m.experiment, commands: [], atMs: m.atMs })}`);
    // The link opens paused at its moment (the clock shows it to a tenth of a second).
    await expect.poll(async () => Math.abs((await simMs(page)) - m.atMs), SLOW).toBeLessThanOrEqual(50);
    const sim = new Simulation(m.experiment);
    sim.runUntil(m.atMs);
    const s = sim.snapshot();
    const expected = nextHint({ snapshot: s, selected: null, experiment: sim.experiment, can: HINT_CAN });
    const hint = page.getByTestId('next-hint');
    await expect(hint, m.where).toHaveText(expected);
    const shown = await hint.innerText();
    facts += statedFacts(shown).length;
    for (const f of checkStatements(shown, s))
      problems.push(
        `${m.where}: "${shown}" says ${f.claim} ${JSON.stringify(f.said)}, is ${JSON.stringify(f.actual)}`,
      );
    if (m.claims) {
      presets++;
      const { said, shown: drawn, count, seen } = await claimsShown(page, m.claims);
      expect(drawn, `${m.where}: the page at the run's end`).toEqual(said);
      expectBannerTrue(seen, s, m.where);
      claimsChecked += count;
    }
  }
  expect(problems).toEqual([]);
  expect(facts, 'facts the hints stated').toBeGreaterThan(10);
  console.log(`presets: ${claimsChecked} claims checked in the page over ${presets} preset game days`);
  expect(presets).toBe(readdirSync(new URL('../../scenes/presets/', import.meta.url)).length);
  expect(claimsChecked, 'claims the presets declare that the page draws').toBeGreaterThanOrEqual(presets);
});
