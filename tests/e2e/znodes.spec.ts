// The znode queue in Chromium: the herd-effect game day's queue (nine znodes, eight watches on
// the leader's), the dead leader's znode outliving it until its session expires, the game day's
// steps that talk about watches opening the scene's tab, and the one line other algorithms get
// (etcd's election, keys not znodes, under a title of its own).
// And the chart's count of the same watches: 8 and 8 for the herd's failover, 1 and 1 for the
// recipe's, in the lab's header and in the full chart's watch panel that "Embed this" frames.
import { sceneById } from '../../src/shared/scenes';
import { SLOW, expect, openEmbed, openLab, test } from './lab';

test("the herd's queue: eight arrows to the leader's znode, its dead owner's session running down", async ({
  page,
}) => {
  // As wide as an "Embed this" frame: nine candidates (the most a run has) must fit its height.
  await page.setViewportSize({ width: 720, height: 1000 });
  // Step 3 begins at 23.8 s: n2 was killed at 15 s and its session is a moment from expiring.
  await page.goto('/embed.html?scene=znodes&scenario=zookeeper-herd-effect&step=3&autoplay=0');
  const scene = page.getByTestId('znode-queue');
  const rows = scene.getByTestId('zq-row');
  await expect(rows).toHaveCount(9);
  await expect(rows.first()).toHaveAttribute('data-owner', 'n2');
  await expect(rows.first()).toHaveAttribute('data-leads', '');
  await expect(rows.first()).toContainText('(dead)');
  await expect(scene.locator('.zq-arrow')).toHaveCount(8);
  await expect(scene.locator('.zq-arrow[data-to="0"]')).toHaveCount(8);
  await expect(scene.getByTestId('zq-facts')).toContainText('watches the leader (the herd effect)');
  await expect(scene.getByTestId('zq-notifications')).toHaveText('0');
  await expect(rows.first().getByTestId('zq-timer')).toContainText('0.1 s');
  // Played on, the session expires: n1 leads, and the eight notifications were sent.
  await page.getByRole('button', { name: 'Play' }).click();
  await expect(rows.first()).toHaveAttribute('data-owner', 'n1', { timeout: 30_000 });
  await expect(scene.getByTestId('zq-notifications')).toHaveText('8');
  await expect(scene.getByTestId('zq-reads')).toHaveText('8', { timeout: 10_000 });
  // The scene itself, under the game day's caption (for which the embed reserves room of its own).
  const height = await scene.evaluate((el) => el.getBoundingClientRect().height);
  expect(height).toBeLessThanOrEqual(sceneById('znodes').embedHeightPx);
});

test("the recipe's queue in the lab: a chain of predecessor watches, the tab opened by the game day", async ({
  page,
}) => {
  await page.goto('/?scenario=zookeeper-watch-predecessor&speed=1');
  const scene = page.getByTestId('znode-queue');
  await expect(scene).toBeVisible({ timeout: 20_000 });
  await expect(scene.getByTestId('zq-row')).toHaveCount(9, { timeout: 20_000 });
  for (let i = 1; i < 9; i++)
    await expect(scene.locator(`.zq-arrow[data-from="${i}"]`)).toHaveAttribute('data-to', String(i - 1));
  await expect(scene.getByTestId('zq-timer').first()).toContainText(' s');
});

test('another algorithm: the scene says what it shows and how to switch to it', async ({ page }) => {
  await page.goto('/embed.html?scene=znodes&autoplay=0');
  await expect(page.getByTestId('zq-switch')).toContainText('algorithm=zookeeper');
  await page.goto('/embed.html?scene=queue&algorithm=etcd-election&autoplay=0');
  await expect(page.getByRole('heading', { name: 'Election keys' })).toBeVisible();
  await expect(page.getByTestId('zq-facts')).toContainText('lowest create revision leads');
  // In the lab, its tab is named as its heading is: etcd's election has keys, not znodes.
  await openLab(page, 'algorithm=etcd-election');
  await expect(page.getByRole('tab', { name: 'Election keys', exact: true })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Znode queue' })).toHaveCount(0);
});

for (const [id, n] of [
  ['zookeeper-herd-effect', 8],
  ['zookeeper-watch-predecessor', 1],
] as const) {
  test(`the chart of game day ${id}: ${n} watch notification(s) and ${n} read(s) for its failover, in a frame that holds the watch panel`, async ({
    page,
  }) => {
    await openLab(page, `scenario=${id}&step=3&speed=16`);
    await expect(page.getByTestId('metric-watches')).toHaveText(
      `watch notifications: ${n}, reads: ${n}`,
      SLOW,
    );
    const dialog = await openEmbed(page, 'leader_count chart');
    const snippet = await dialog.getByTestId('embed-iframe').inputValue();
    await dialog.getByRole('button', { name: 'Close' }).click();
    // ZooKeeper's chart is taller than the others' by its watch panel: its frame is too.
    const height = Number(/height="(\d+)"/.exec(snippet)![1]);
    expect(height).toBeGreaterThan(sceneById('metric-line').embedHeightPx);
    await page.setViewportSize({ width: 720, height });
    await page.goto(/src="([^"]+)"/.exec(snippet)![1]);
    const panel = page.locator('.metric-panel-watches');
    await expect(panel.locator('.metric-panel-title')).toHaveText(
      `watch notifications \u25A0 and reads \u25A1 per 1 s · total ${n} and ${n}`,
      SLOW,
    );
    await expect(panel.locator('rect.metric-bar-notifications')).toHaveCount(1);
    await expect(panel.locator('rect.metric-bar-reads')).toHaveCount(1);
    // On the axis of the herd's 8, the recipe's one notification is an eighth as tall.
    await expect(panel.locator('.metric-axis text').last()).toHaveText('8');
    const [bar, full] = await panel.evaluate((g) => {
      const rect = g.querySelector('rect.metric-bar-notifications')!.getBoundingClientRect();
      const ticks = [...g.querySelectorAll('.metric-axis text')].map((t) => t.getBoundingClientRect());
      return [rect.height, ticks[0].top - ticks[ticks.length - 1].top];
    });
    expect(bar / full).toBeCloseTo(n / 8, 1);
    const bottom = await page.locator('main').evaluate((el) => el.getBoundingClientRect().bottom);
    expect(bottom).toBeLessThanOrEqual(height);
  });
}
