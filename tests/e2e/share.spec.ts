// Share: a copied link opened in a fresh page shows the same state and events; a broken link
// shows what could not be read, and a working lab.
import { encodeRun } from '../../src/shared/share';
import {
  eventLog,
  expect,
  openLab,
  selectNode,
  simMs,
  SLOW,
  stageLeaders,
  test,
  waitForLeader,
  waitForSimMs,
  WHOLE_PAGE,
} from './lab';

// The chain, the chart and the log are read while the stage plays: all of them on screen.
test.use(WHOLE_PAGE);

test('a link to this moment reproduces the same state and events in a fresh page', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  await openLab(page, 'speed=16&seed=5');
  const first = await waitForLeader(page);
  await waitForSimMs(page, 6000);
  await selectNode(page, first.id);
  await page.getByRole('button', { name: `Kill ${first.id}` }).click();
  const second = await waitForLeader(page, [first.id]);
  await page.getByRole('button', { name: 'Pause', exact: true }).click();
  await page.getByTestId('copy-link').click();
  const link = await page.getByTestId('share-link').inputValue();
  expect(link).toContain('run=');
  const atMs = await simMs(page);
  const log = await eventLog(page).locator('li').allInnerTexts();
  const roles = await stageLeaders(page).evaluateAll((els) =>
    els.map((e) => `${e.getAttribute('data-testid')}:${e.getAttribute('data-term')}`),
  );

  const context = await browser.newContext(WHOLE_PAGE);
  const fresh = await context.newPage();
  await fresh.goto(link);
  await expect(fresh.getByTestId('sim-time')).toHaveText(`${(atMs / 1000).toFixed(1)} s`, SLOW);
  await expect(fresh.getByRole('button', { name: 'Play', exact: true })).toBeVisible();
  // The stage's code loads beside the lab's: wait for its nodes before reading their roles.
  await expect(fresh.locator('[data-testid^="node-"][data-role]')).toHaveCount(5);
  expect(await eventLog(fresh).locator('li').allInnerTexts()).toEqual(log);
  const freshRoles = await fresh
    .locator('[data-testid^="node-"][data-role="leader"]')
    .evaluateAll((els) => els.map((e) => `${e.getAttribute('data-testid')}:${e.getAttribute('data-term')}`));
  expect(freshRoles).toEqual(roles);
  expect(freshRoles).toContain(`node-${second.id}:${second.term}`);
  await context.close();
});

test('a truncated link opens a working lab with a message naming what could not be read', async ({
  page,
}) => {
  await page.goto('/?run=eNqrVkrOz0nNS8_MSy1WsjI0qgUAOWEGHg&speed=zoom&nodes=12');
  const problems = page.getByTestId('link-problems');
  await expect(problems).toContainText('could not be read');
  await expect(problems).toContainText('"speed"');
  await expect(problems).toContainText('"nodes"');
  await expect(problems).toContainText('run');
  // Defaults: five nodes that elect a leader.
  await expect(page.locator('[data-testid^="node-"][data-role]')).toHaveCount(5);
  // At 1x: Raft's teaching preset waits an election timeout (5-10 s) before its first campaign.
  await waitForLeader(page, [], 60_000);
});

test('when the link codec cannot load, a run link says so and the lab still works', async ({
  page,
  problems,
}) => {
  // The codec is a chunk of its own (src/app/codec.ts); offline without it cached, its request fails.
  await page.route(/codecLib/, (route) => route.abort());
  const run = encodeRun({ experiment: { seed: 9 }, commands: [], atMs: 4000 });
  await page.goto(`/?run=${run}`);
  const problemsShown = page.getByTestId('link-problems');
  await expect(problemsShown).toContainText('"run" could not be read');
  await expect(problemsShown).toContainText('did not load');
  await expect(page.locator('[data-testid^="node-"][data-role]')).toHaveCount(5);
  // At 1x: Raft's teaching preset waits an election timeout (5-10 s) before its first campaign.
  await waitForLeader(page, [], 60_000);
  // The failed requests are this test's doing; anything else the page logged still fails it.
  const ours = (p: string) => /codecLib|Failed to load resource|dynamically imported module/.test(p);
  expect(problems.filter(ours).length).toBeGreaterThan(0);
  problems.splice(0, problems.length, ...problems.filter((p) => !ours(p)));
});

test('a broken link offers back the last session, which opens where it was left', async ({ page }) => {
  await openLab(page, 'speed=16&seed=5');
  await waitForLeader(page);
  await waitForSimMs(page, 6000);
  await page.getByRole('button', { name: 'Pause', exact: true }).click();
  const atMs = await simMs(page);
  // The session is saved every 3 s while the page is open, and when it is hidden.
  await page.waitForTimeout(3500);
  await page.goto('/?run=eNqrVkrOz0nNS8_MSy1WsjI0qgUAOWEGHg');
  await expect(page.getByTestId('link-problems')).toContainText('could not be read');
  await page.getByRole('link', { name: 'Restore your last session' }).click();
  await expect(page).toHaveURL(/[?&]run=/);
  await expect(page.getByTestId('sim-time')).toHaveText(`${(atMs / 1000).toFixed(1)} s`, SLOW);
  await expect(page.getByTestId('link-problems')).toHaveCount(0);
});

test('a link copied during a game day opens the same game day, at the same step and moment', async ({
  page,
  browser,
}) => {
  await page.goto('/?scenario=gc-pause-long&step=3&speed=16');
  const guided = page.getByTestId('guided');
  await expect(guided).toContainText('step 3 of');
  // Paused, whether by the step's end or by this click.
  await page.evaluate(() => {
    const play = document.querySelector<HTMLButtonElement>('[data-testid="play"]');
    if (play?.getAttribute('aria-label') === 'Pause') play.click();
  });
  await expect(page.getByTestId('play')).toHaveAttribute('aria-label', 'Play');
  // Read once paused: the caption speaks of its moment, so it changes while the step runs.
  const caption = await page.getByTestId('guided-caption').innerText();
  const atMs = await simMs(page);
  await page.getByTestId('copy-link').click();
  const link = await page.getByTestId('share-link').inputValue();

  const context = await browser.newContext(WHOLE_PAGE);
  const fresh = await context.newPage();
  await fresh.goto(link);
  await expect(fresh.getByTestId('guided')).toContainText('step 3 of', SLOW);
  await expect(fresh.getByTestId('guided-caption')).toHaveText(caption);
  await expect(fresh.getByTestId('sim-time')).toHaveText(`${(atMs / 1000).toFixed(1)} s`, SLOW);
  await expect(fresh.getByTestId('link-problems')).toHaveCount(0);
  await context.close();
});
