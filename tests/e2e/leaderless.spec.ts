// "Don't have a leader" in Chromium: the game day measures a Raft failover, the comparison takes
// that window and is stepped to its summary, whose numbers must be the headless model's; and the
// embed, with no run's failover, uses the stated default.
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { DEFAULT_CONFIG, runLeaderless, type LeaderlessRun } from '../../src/leaderless/model';
import { windowFromRun } from '../../src/leaderless/window';
import { runScenario } from '../../src/scenario/run';
import { parseScenario } from '../../src/scenario/schema';
import type { Page } from '@playwright/test';
import { sceneById } from '../../src/shared/scenes';
import { expect, test } from './lab';

function gameDay() {
  const file = new URL('../../scenes/scenarios/19-leaderless-partition-the-work.json', import.meta.url);
  const r = parseScenario(JSON.parse(readFileSync(file, 'utf8')));
  if (!r.ok) throw new Error(r.errors.map((e) => `${e.field}: ${e.message}`).join('; '));
  return r.scenario;
}

const keySec = (ms: number) => (ms / 1000).toFixed(1);

/** Press Next through the comparison, checking each step's count, to its summary. */
async function playToSummary(page: Page, run: LeaderlessRun): Promise<void> {
  const scene = page.getByTestId('leaderless');
  await expect(scene.getByTestId('ll-step')).toHaveText(`Part 1 of ${run.steps.length}`);
  await expect(scene.getByTestId('ll-summary')).toHaveCount(0);
  for (let i = 1; i < run.steps.length; i++) {
    await scene.getByTestId('ll-next').click();
    await expect(scene.getByTestId('ll-step')).toHaveText(`Part ${i + 1} of ${run.steps.length}`);
  }
  await expect(scene.getByTestId('ll-next')).toBeDisabled();
  const summary = scene.getByTestId('ll-summary');
  await expect(summary).toBeVisible();
  await expect(summary.getByTestId('ll-sum-leader')).toHaveText(keySec(run.unavailableKeyMs.leader));
  await expect(summary.getByTestId('ll-sum-ring')).toHaveText(keySec(run.unavailableKeyMs.ring));
  const [first] = run.moved;
  await expect(summary.getByTestId('ll-moved-0')).toContainText(`ring ${first.ring} (`);
  await expect(summary.getByTestId('ll-moved-0')).toContainText(`hash % N ${first.modN} (`);
  await expect(scene.getByTestId('ll-keysec-leader')).toHaveText(keySec(run.unavailableKeyMs.leader));
  await expect(scene.getByTestId('ll-keysec-ring')).toHaveText(keySec(run.unavailableKeyMs.ring));
  await expect(scene.getByTestId('ll-worst-leader')).toHaveText(String(run.config.keys));
  await expect(scene.getByTestId('ll-caption')).toContainText('times as many with a leader');
}

test('the game day measures the failover and the comparison plays to its summary with it', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const scenario = gameDay();
  const headless = runScenario(scenario);
  const window = windowFromRun(headless.trace.summary.failovers, 'Raft');
  const run = runLeaderless({ ...DEFAULT_CONFIG, window });
  // The numbers it pins: about 1/N of the keys move on the ring, most with hash % N, and a
  // leader's failover costs far more key-seconds than the ring's pauses.
  expect(run.moved[0].ring / run.config.keys).toBeLessThan(0.3);
  expect(run.moved[0].modN / run.config.keys).toBeGreaterThan(0.6);
  expect(run.unavailableKeyMs.leader).toBeGreaterThan(3 * run.unavailableKeyMs.ring);

  await page.goto(`/?scenario=${scenario.id}&speed=64`);
  const guided = page.getByTestId('guided');
  await expect(guided).toContainText(scenario.title);
  // Step 1 points at the comparison: its tab opens and, before any failover, it says so.
  await expect(page.getByTestId('leaderless')).toBeVisible({ timeout: 20_000 });
  const summary = page.getByTestId('guided-summary');
  for (let press = 0; press < 12 && !(await summary.isVisible()); press++) {
    await page.keyboard.press('PageDown');
    await page.waitForTimeout(200);
  }
  await expect(summary).toHaveText(`What happened: ${headless.summary}.`, { timeout: 20_000 });
  // The last step points at the comparison again, now with this run's failover window.
  await expect(page.getByTestId('ll-window')).toContainText("this run's failover (Raft, n2 lost at 10.0 s)");
  await expect(page.getByTestId('ll-window')).toContainText('8.8 s');
  await playToSummary(page, run);
  await page.getByRole('button', { name: /Start over/ }).click();
  await expect(page.getByTestId('ll-step')).toHaveText('Part 1 of 4');
});

test("in present mode the comparison counts its own parts apart from the game day's steps, and names itself once", async ({
  page,
}) => {
  await page.goto('/?present&scenario=leaderless-partition-the-work&step=3&paused');
  await expect(page.getByTestId('guided')).toContainText('step 3 of 3');
  const scene = page.getByTestId('leaderless');
  // Its Next button's parts are not the game day's steps: "Step 1 of 4" beside "step 3 of 3" read
  // as two counts of the same thing.
  await expect(scene.getByTestId('ll-step')).toHaveText('Part 1 of 4');
  await expect(scene).not.toContainText(/step \d+ of \d+/i);
  // The scene's name and its game day's, once.
  await expect(scene).toHaveAccessibleName("Don't have a leader: partition the work");
  await expect(page.getByText("Don't have a leader: Don't have a leader")).toHaveCount(0);
});

test('embedded without a failover, the comparison uses the stated default window', async ({ page }) => {
  const run = runLeaderless();
  // As wide as an "Embed this" frame: the summary must fit its height.
  await page.setViewportSize({ width: 720, height: 1200 });
  await page.goto('/embed.html?scene=leaderless&autoplay=0&theme=dark');
  await expect(page.getByTestId('ll-window')).toContainText(
    "from the default (the Raft failover measured by the game day “Don't have a leader: partition the work”",
  );
  await playToSummary(page, run);
  const bottom = await page.locator('main').evaluate((el) => el.getBoundingClientRect().bottom);
  expect(bottom).toBeLessThanOrEqual(sceneById('leaderless').embedHeightPx);
});

test("the lab's first load fetches neither new scene: each loads when its tab first opens", async ({
  page,
}) => {
  const scripts: string[] = [];
  page.on('request', (req) => {
    if (req.url().endsWith('.js')) scripts.push(new URL(req.url()).pathname);
  });
  await page.goto('/?speed=4');
  await expect(page.locator('[data-testid^="node-"][data-role]').first()).toBeAttached({ timeout: 20_000 });
  // The lab mounts its idle-time panels (the failover timeline among them) after the first screen.
  await expect
    .poll(() => scripts.some((s) => /FailoverTimelineScene/.test(s)), { timeout: 20_000 })
    .toBe(true);
  await page.waitForTimeout(1500);
  expect(scripts.filter((s) => /LeaderlessScene|ZnodeQueueScene/.test(s))).toEqual([]);
  await page.getByRole('tab', { name: "Don't have a leader", exact: true }).click();
  await expect(page.getByTestId('leaderless')).toBeVisible();
  expect(scripts.some((s) => /LeaderlessScene/.test(s))).toBe(true);
  expect(scripts.some((s) => /ZnodeQueueScene/.test(s))).toBe(false);
});

test('the export panel saves the leaderless comparison and the znode queue once their tabs have opened', async ({
  page,
}) => {
  await page.goto('/?scenario=zookeeper-herd-effect&step=2&speed=1&paused');
  await expect(page.getByTestId('guided')).toContainText('step 2 of');
  for (const [tab, name, text] of [
    ['Znode queue', 'znode queue', '/election/n_0000000001'],
    ["Don't have a leader", 'leaderless comparison', 'partition the work'],
  ]) {
    await page.getByRole('tab', { name: tab, exact: true }).click();
    await page.getByRole('tab', { name: 'Export', exact: true }).click();
    const [file] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: `Export the ${name} as SVG`, exact: true }).click(),
    ]);
    const svg = await readFile((await file.path()) as string, 'utf8');
    expect(svg).toContain('<svg');
    expect(svg).toContain(text);
  }
});
