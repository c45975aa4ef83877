// URL parameters on the lab, the iframe embed and the custom element: every value is read as
// documented, and every parameter the page does not know, or cannot use as given, gets a
// one-line note naming it, as it was typed, and what was used instead.
import type { Page } from '@playwright/test';
import { expect, SLOW, test, waitForLeader } from './lab';

const labNotes = (page: Page) => page.getByTestId('link-problems');
const embedNotes = (page: Page) => page.locator('main.embed [role="alert"]');

test('the lab names parameters it does not know', async ({ page }) => {
  await page.goto('/?sceen=chain&sped=4&speed=2');
  await expect(labNotes(page)).toContainText('"sceen"');
  await expect(labNotes(page)).toContainText('"sped"');
  await expect(labNotes(page)).not.toContainText('"speed" must');
  await waitForLeader(page);
});

test('the lab reads paused=false as playing, and says what it used for a speed out of range', async ({
  page,
}) => {
  await page.goto('/?paused=false');
  await expect(page.getByTestId('play')).toHaveAttribute('aria-label', 'Pause');
  await expect(labNotes(page)).toHaveCount(0);
  await page.goto('/?speed=1000');
  await expect(labNotes(page)).toContainText('"speed"');
  await expect(labNotes(page)).toContainText('1000');
  await expect(labNotes(page)).toContainText('64');
  await expect(page.getByTestId('speed-value')).toHaveText('64x');
});

test('the embed reads autoplay=false as not playing, and notes what it cannot read as typed', async ({
  page,
}) => {
  await page.goto('/embed.html?scene=cluster&autoplay=false');
  await expect(page.getByRole('button', { name: 'Play' })).toBeVisible(SLOW);
  await expect(embedNotes(page)).toHaveCount(0);
  await page.goto('/embed.html?scene=Pie&autoplay=maybe&sped=3');
  const notes = embedNotes(page);
  await expect(notes).toContainText('"Pie"');
  await expect(notes).toContainText('"autoplay"');
  await expect(notes).toContainText('"sped"');
  await expect(page.getByTestId('node-n1')).toBeVisible();
});

test('the custom element passes on what it was given, so the frame names an unknown attribute', async ({
  page,
  baseURL,
}) => {
  const site = new URL('/', baseURL).toString();
  const url = new URL('/docs-page-under-test.html', baseURL).toString();
  await page.route(url, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><html lang="en"><head><title>Docs</title></head><body>
        <leader-election-scene sceen="chain" class="wide" data-x="1"></leader-election-scene>
        <script src="${site}leader-election-scene.js"></script></body></html>`,
    }),
  );
  await page.goto(url);
  const frame = page.frameLocator('leader-election-scene >> iframe');
  await expect(frame.locator('main.embed [role="alert"]')).toContainText('"sceen"', SLOW);
  await expect(frame.locator('main.embed [role="alert"]')).not.toContainText('"class"');
});
