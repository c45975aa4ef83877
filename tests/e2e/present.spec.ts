// Present mode at 1280x720, driven through a scenario by keyboard alone; the same run every time.
import { expect, test } from './lab';

test.use({ viewport: { width: 1280, height: 720 } });

async function runByKeys(page: import('@playwright/test').Page): Promise<string> {
  await page.goto('/?present&scenario=gc-pause-long&speed=32');
  const guided = page.getByTestId('guided');
  await expect(guided).toContainText('step 1 of');
  const steps = Number(/of (\d+)/.exec(await guided.locator('h2').innerText())![1]);
  const summary = page.getByTestId('guided-summary');
  // PageDown skips to the step's condition while it is still waiting, and goes to the next
  // step once it is met; a presentation clicker needs nothing else to reach the end.
  for (let press = 0; press < 4 * steps && !(await summary.isVisible()); press++) {
    await page.keyboard.press(press % 2 ? 'ArrowRight' : 'PageDown');
    // A step stays on screen half a second before the next press leaves it (MIN_STEP_SHOWN_MS).
    await page.waitForTimeout(300);
  }
  await expect(summary).toBeVisible({ timeout: 20_000 });
  await expect(guided).toContainText(`step ${steps} of ${steps}`);
  return summary.innerText();
}

test('a speaker drives a scenario by keyboard alone and gets the same run every time', async ({ page }) => {
  test.setTimeout(120_000);
  const first = await runByKeys(page);
  expect(first).toMatch(/10 zombie writes rejected; 0 stale writes accepted/);
  // Large type: the root font is scaled for a projector.
  const rootPx = await page.evaluate(() => parseFloat(getComputedStyle(document.documentElement).fontSize));
  expect(rootPx).toBeGreaterThanOrEqual(16);
  // Help overlay on "?", closed with Escape.
  await page.keyboard.press('?');
  await expect(page.getByTestId('help-overlay')).toBeVisible();
  await expect(page.getByTestId('help-overlay')).toContainText('Kill the leader');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('help-overlay')).toBeHidden();
  // C hides the controls.
  await page.keyboard.press('c');
  await expect(page.getByRole('slider', { name: 'Speed' })).toBeHidden();
  const second = await runByKeys(page);
  expect(second).toBe(first);
});

test('single keys break the cluster: kill, split, heal and toggle fencing', async ({ page }) => {
  await page.goto('/?present&speed=16');
  await expect(page.locator('[data-testid^="node-"][data-role="leader"]')).toHaveCount(1, {
    timeout: 20_000,
  });
  await page.keyboard.press('k');
  await expect(page.locator('[data-testid^="node-"][data-role="dead"]')).toHaveCount(1);
  await page.keyboard.press('s');
  await expect(page.getByTestId('partition-group').first()).toBeVisible();
  await page.keyboard.press('h');
  await expect(page.getByTestId('partition-group')).toHaveCount(0);
  await page.keyboard.press('f');
  await expect(page.getByTestId('safety-banner')).toContainText('Safety off: fencing');
  await page.keyboard.press(' ');
  await expect(page.getByRole('button', { name: 'Play', exact: true })).toBeVisible();
});

test('a presentation link has present mode from the first paint, before the lab has loaded', async ({
  page,
}) => {
  // Every module arrives empty: what shows is index.html, its styles and its head script alone.
  await page.route('**/assets/*.js', (route) => route.fulfill({ contentType: 'text/javascript', body: '' }));
  await page.goto('/?present');
  await expect(page.locator('html')).toHaveClass(/(^|\s)present(\s|$)/);
  await page.goto('/');
  await expect(page.locator('html')).not.toHaveClass(/(^|\s)present(\s|$)/);
});

test('the page does not jump when a presentation starts', async ({ page }) => {
  await page.addInitScript(() => {
    const w = window as unknown as { shifted: number };
    w.shifted = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[]) {
        if (!entry.hadRecentInput) w.shifted += entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await page.goto('/?present&paused');
  await expect(page.getByTestId('storage')).toBeVisible();
  await page.waitForTimeout(1500);
  const shifted = await page.evaluate(() => (window as unknown as { shifted: number }).shifted);
  // Good, by the Core Web Vitals measure, is under 0.1. Without the head script it is about 0.3 here.
  expect(shifted).toBeLessThan(0.1);
});
