// Guided mode in Chromium: six game days run through their steps to the summary, whose numbers
// must equal the headless run of the same scenario file; and a deep link opens a given step.
import { readFileSync } from 'node:fs';
import { parseScenario } from '../../src/scenario/schema';
import { runScenario } from '../../src/scenario/run';
import { fillCaption } from '../../src/scenario/claims';
import type { Scenario } from '../../src/scenario/types';
import { expect, finishStep, test } from './lab';

function load(file: string): Scenario {
  const r = parseScenario(
    JSON.parse(readFileSync(new URL(`../../scenes/scenarios/${file}`, import.meta.url), 'utf8')),
  );
  if (!r.ok) throw new Error(`${file}: ${r.errors.map((e) => `${e.field}: ${e.message}`).join('; ')}`);
  return r.scenario;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const CASES = [
  { file: '02-kill-leader.json', expect: /failover took \d+\.\d s: \d+\.\d s detection/ },
  { file: '04-gc-pause-long.json', expect: /10 zombie writes rejected; 0 stale writes accepted/ },
  { file: '05-gc-pause-long-no-fencing.json', expect: /0 zombie writes rejected; 10 stale writes accepted/ },
  { file: '07-quorum-split-2-3.json', expect: /believed leader_count peaked at 1/ },
  { file: '12b-two-nodes-witness.json', expect: /failover took/ },
  { file: '18b-zookeeper-herd-effect.json', expect: /8 watch notifications and 8 reads they triggered/ },
];

for (const c of CASES) {
  test(`guided: ${c.file} reaches its summary with the headless run's numbers`, async ({ page }) => {
    test.setTimeout(90_000);
    const scenario = load(c.file);
    const run = runScenario(scenario);
    const expected = run.summary;
    // A caption's numbers read "…" while its step runs and the run's own once it paused.
    const caption = (i: number) =>
      new RegExp(
        `^(${[fillCaption(scenario.steps[i].caption, null), run.steps[i].caption].map(escape).join('|')})$`,
      );
    expect(expected).toMatch(c.expect);
    await page.goto(`/?scenario=${scenario.id}&speed=64`);
    const guided = page.getByTestId('guided');
    await expect(guided).toContainText(scenario.title);
    const total = scenario.steps.length;
    const summary = page.getByTestId('guided-summary');
    const seen = new Set<number>();
    const status = page.getByTestId('guided-status');
    const phase = async () => `${await guided.locator('h2').innerText()} | ${await status.innerText()}`;
    // PageDown finishes a waiting step (skip) or, once it is met, goes to the next one: each press
    // moves one phase, so reading the panel between presses sees every step. A press that comes
    // too soon after a step began is ignored (MIN_STEP_SHOWN_MS), so after each press the walk waits
    // for the phase to move rather than counting presses, which a loaded machine would run out of.
    const deadline = Date.now() + 60_000;
    while (!(await summary.isVisible()) && Date.now() < deadline) {
      const before = await phase();
      const step = Number(/step (\d+) of/.exec(before)![1]);
      if (!seen.has(step)) {
        seen.add(step);
        await expect(page.getByTestId('guided-caption')).toHaveText(caption(step - 1));
      }
      await page.keyboard.press('PageDown');
      await expect
        .poll(async () => (await summary.isVisible()) || (await phase()) !== before, { timeout: 1_000 })
        .toBe(true)
        .catch(() => undefined);
    }
    // The last step may be met the moment it begins: its panel is still the one on screen.
    seen.add(Number(/step (\d+) of/.exec(await guided.locator('h2').innerText())![1]));
    await expect(page.getByTestId('guided-caption')).toHaveText(caption(total - 1));
    expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
    await expect(summary).toBeVisible({ timeout: 20_000 });
    await expect(summary).toHaveText(`What happened: ${expected}.`);
  });
}

test('a deep link opens a scenario at a given step, with the run fast-forwarded to it', async ({ page }) => {
  const scenario = load('04-gc-pause-long.json');
  await page.goto(`/?scenario=${scenario.id}&step=4&speed=1`);
  await expect(page.getByTestId('guided')).toContainText(`step 4 of ${scenario.steps.length}`);
  await expect(page.getByTestId('guided-caption')).toHaveText(fillCaption(scenario.steps[3].caption, null));
  // The steps before it really happened: the run is past them, not at 0.
  const seconds = parseFloat(await page.getByTestId('sim-time').innerText());
  expect(seconds).toBeGreaterThan(5);
  // Previous goes back to step 3, deterministically.
  await page.getByRole('button', { name: '◀ Previous' }).click();
  await expect(page.getByTestId('guided')).toContainText(`step 3 of ${scenario.steps.length}`);
});

test('Previous on a step that is done goes to the step before it, so a clicker walks back to step 1', async ({
  page,
}) => {
  await page.goto('/?present&scenario=gc-pause-long&speed=16');
  const guided = page.getByTestId('guided');
  await expect(guided).toContainText('step 1 of');
  // Forward to step 3 and let it finish: PageDown skips a waiting step, then moves on. (A short
  // step may finish by itself at this speed, so the panel is read before each press.)
  for (let press = 0; press < 12 && !/step 3 of/.test(await guided.locator('h2').innerText()); press++) {
    await page.keyboard.press('PageDown');
  }
  await expect(guided).toContainText('step 3 of');
  await finishStep(page);
  await page.keyboard.press('PageUp');
  await expect(guided).toContainText('step 2 of');
  await page.keyboard.press('PageUp');
  await expect(guided).toContainText('step 1 of');
});
