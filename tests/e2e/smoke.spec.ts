import { expect, test } from '@playwright/test';

// The page is being redesigned, so this smoke test asserts only what every design keeps: the
// title, the main heading, and a console free of errors while the simulation runs. Feature specs
// live beside it.
test('the lab loads and runs without errors', async ({ page }) => {
  const problems: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('requestfailed', (req) =>
    problems.push(`request failed: ${req.url()} (${req.failure()?.errorText})`),
  );

  await page.goto('/');
  await expect(page).toHaveTitle(/Leader Election Lab/);
  await expect(page.getByRole('heading', { level: 1 }).first()).toContainText('Leader Election Lab');

  // Let the simulation run for a moment, so errors thrown from the animation loop show up too.
  await page.waitForTimeout(2_000);
  expect(problems).toEqual([]);
});
