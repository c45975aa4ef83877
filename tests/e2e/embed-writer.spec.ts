// A writer putting scenes into a docs page of their own: what "Embed this" hands them, what the
// embed hands the lab, how the frame fits the column and follows the page's theme, and how still
// the host page stays while a scene loads and runs.
import type { Page } from '@playwright/test';
import { expect, SLOW, test } from './lab';

/** The snippets "Embed this" gives for a scene, by its button's name. */
async function snippetsOf(page: Page, label: string): Promise<{ iframe: string; element: string }> {
  await page.getByRole('button', { name: `Embed the ${label}` }).click();
  const dialog = page.getByRole('dialog', { name: `Embed the ${label}` });
  const iframe = await dialog.getByTestId('embed-iframe').inputValue();
  const element = await dialog.getByTestId('embed-element').inputValue();
  await dialog.getByRole('button', { name: 'Close' }).click();
  return { iframe, element };
}

test('"Embed this" during a game day keeps the game day and its step', async ({ page }) => {
  await page.goto('/?scenario=gc-pause-long&step=5&speed=1&paused');
  await expect(page.getByTestId('guided')).toContainText('step 5 of 7');
  const { iframe } = await snippetsOf(page, 'fencing chain');
  const src = /src="([^"]+)"/.exec(iframe)![1].replace(/&amp;/g, '&');
  await page.goto(src);
  // The game day's title beside the controls and the step's caption above the scene.
  await expect(page.locator('.embed-title')).toHaveText(/GC pause longer than the lease/, SLOW);
  await expect(page.getByTestId('embed-caption')).toContainText('Step 5 of 7');
});

test('"Open in the lab" hands the lab a clean link', async ({ page }) => {
  await page.goto(
    '/embed.html?scene=chain&scenario=gc-pause-long&step=3&autoplay=0&controls=minimal&id=les-1',
  );
  const open = page.getByRole('link', { name: 'Open in the lab' });
  await expect(open).toBeVisible(SLOW);
  await page.goto((await open.getAttribute('href'))!.replace(/^\.\//, '/'));
  await expect(page.getByTestId('guided')).toContainText('step 3 of 7', SLOW);
  await expect(page.getByTestId('link-problems')).toHaveCount(0);
});
