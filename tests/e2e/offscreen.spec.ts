// Scenes out of view (scrolled away, or not the view a phone shows) stop following the lab and
// catch up when shown; the live region keeps announcing; the time controls always follow.
import { chainScene, expect, openLab, openTab, selectNode, SLOW, test, waitForLeader } from './lab';

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the fencing chain holds while another view is shown, and shows the current leader once shown', async ({
    page,
  }) => {
    // Raft's words (a leader of a term) are what it reads.
    await openLab(page, 'algorithm=raft&speed=16');
    const first = await waitForLeader(page);
    const views = page.getByRole('tablist', { name: 'Views' });
    // Shown once, so that its content is there; then the stage is shown instead.
    await views.getByRole('tab', { name: 'Chain' }).click();
    // By test id: a view the phone does not show is hidden, so it has no role to be found by.
    const headline = page.getByTestId('quorum-headline');
    await expect(headline).toBeVisible(SLOW);
    await views.getByRole('tab', { name: 'Stage' }).click();
    await expect(headline).toBeHidden();
    // It goes on showing what it showed when it went out of view.
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
    // Shown again, it catches up with the lab in one step.
    await views.getByRole('tab', { name: 'Chain' }).click();
    await expect(headline).toContainText(`${next.id} leads term`, SLOW);
    // And follows it while shown.
    const before = await chainScene(page).getByTestId('accepted-count').textContent();
    await expect
      .poll(() => chainScene(page).getByTestId('accepted-count').textContent(), SLOW)
      .not.toBe(before);
  });
});

test.use({ viewport: { width: 1280, height: 720 } });

test('the time controls follow the lab while the stage is out of view', async ({ page }) => {
  await openLab(page, 'speed=16');
  await waitForLeader(page);
  const play = page.getByTestId('play');
  await expect(play).toHaveAttribute('aria-label', 'Pause');
  // Scroll the stage out of view, then pause by key (the shortcut works wherever the page is).
  await openTab(page, 'Learn');
  await page.getByRole('region', { name: 'Check yourself' }).scrollIntoViewIfNeeded();
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
