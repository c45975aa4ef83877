// The znode queue in Chromium: the herd-effect game day's queue (nine znodes, eight watches on
// the leader's), the dead leader's znode outliving it until its session expires, the game day's
// steps that talk about watches opening the scene's tab, and the one line other algorithms get.
import { sceneById } from '../../src/shared/scenes';
import { expect, test } from './lab';

test("the herd's queue: eight arrows to the leader's znode, its dead owner's session running down", async ({
  page,
}) => {
  // As wide as an "Embed this" frame: nine candidates (the most a run has) must fit its height.
  await page.setViewportSize({ width: 720, height: 1000 });
  await page.goto('/embed.html?scene=znodes&scenario=zookeeper-herd-effect&step=2&autoplay=0');
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
  await expect(rows.first().getByTestId('zq-timer')).toContainText('8.9 s');
  // Played on, the session expires: n1 leads, and the eight notifications were sent.
  await page.getByRole('button', { name: 'Play' }).click();
  await expect(rows.first()).toHaveAttribute('data-owner', 'n1', { timeout: 30_000 });
  await expect(scene.getByTestId('zq-notifications')).toHaveText('8');
  await expect(scene.getByTestId('zq-reads')).toHaveText('8', { timeout: 10_000 });
  const bottom = await page.locator('main').evaluate((el) => el.getBoundingClientRect().bottom);
  expect(bottom).toBeLessThanOrEqual(sceneById('znodes').embedHeightPx);
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
});
