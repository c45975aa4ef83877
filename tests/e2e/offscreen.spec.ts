// Scenes scrolled out of view stop following the lab and catch up when scrolled back; the live
// region keeps announcing; an export of a scene out of view shows the moment, not an old one.
import { chainScene, expect, openLab, selectNode, SLOW, test, waitForLeader } from './lab';

test.use({ viewport: { width: 1280, height: 720 } });

test('the fencing chain holds while out of view, and shows the current leader once scrolled to', async ({
  page,
}) => {
  await openLab(page, 'speed=16');
  const first = await waitForLeader(page);
  const headline = chainScene(page).getByTestId('quorum-headline');
  await expect(headline).toBeAttached(SLOW);
  // The chain is below the first screen: it goes on showing what it showed when it went out of view.
  await page.waitForTimeout(500);
  const held = await headline.textContent();
  await selectNode(page, first.id);
  await page.getByRole('button', { name: `Kill ${first.id}`, exact: true }).click();
  const next = await waitForLeader(page, [first.id]);
  // The announcements are not held back: the new leader is announced at once.
  await expect(page.getByTestId('announcer')).toHaveText(
    `${next.id} is the leader of term ${next.term}`,
    SLOW,
  );
  expect(await headline.textContent()).toBe(held);
  // Scrolled into view, it catches up with the lab in one step.
  await headline.scrollIntoViewIfNeeded();
  await expect(headline).toContainText(`${next.id} leads term`, SLOW);
  // And follows it while in view.
  const before = await chainScene(page).getByTestId('lease-caption').textContent();
  await expect.poll(() => chainScene(page).getByTestId('lease-caption').textContent(), SLOW).not.toBe(before);
});

test('the time controls follow the lab while the stage is out of view', async ({ page }) => {
  await openLab(page, 'speed=16');
  await waitForLeader(page);
  const play = page.getByTestId('play');
  await expect(play).toHaveAttribute('aria-label', 'Pause');
  // Scroll the stage out of view, then pause by key (the shortcut works wherever the page is).
  await page.locator('.setup-panel').scrollIntoViewIfNeeded();
  await expect.poll(() => play.evaluate((b) => b.getBoundingClientRect().bottom < 0)).toBe(true);
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('Space');
  await expect(play).toHaveAttribute('aria-label', 'Play');
  const paused = await page.getByTestId('sim-time').textContent();
  await page.waitForTimeout(400);
  expect(await page.getByTestId('sim-time').textContent()).toBe(paused);
  // And by script on the button itself, out of sight.
  await play.evaluate((b) => (b as HTMLButtonElement).click());
  await expect(play).toHaveAttribute('aria-label', 'Pause');
  await expect.poll(() => page.getByTestId('sim-time').textContent(), SLOW).not.toBe(paused);
});
