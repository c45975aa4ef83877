// The chart's two leader_count lines through the long GC-pause game day (k8s-lease): while the
// holder is frozen the observed line (what a scrape sees, the one that pages) and the believed
// line (paused leaders included) part, the paging bands follow the observed one, and the zombie
// the observed line could not see is caught by fencing when it writes.
import type { Page } from '@playwright/test';
import {
  chainScene,
  chartFigure,
  chartLines,
  eventLog,
  expect,
  finishStep,
  ledger,
  metricScene,
  openTab,
  simMs,
  SLOW,
  test,
} from './lab';

// The lab's laptop screen: stage, chain and chart all on it.
test.use({ viewport: { width: 1280, height: 800 } });
test.describe.configure({ timeout: 90_000 });

async function openStep(page: Page, step: number): Promise<void> {
  await page.goto(`/?scenario=gc-pause-long&step=${step}`);
  await expect(page.getByTestId('guided')).toContainText(`step ${step} of 7`, SLOW);
  await expect(metricScene(page).locator('.metric-svg')).toBeVisible(SLOW);
}

test('the frozen holder alone: believed 1, observed 0, and the no-leader band pages', async ({ page }) => {
  // Step 2 plays from the freeze at 9 s until a replica campaigns (the Lease looks free after 15 s).
  await openStep(page, 2);
  await expect
    .poll(() => chartLines(page), { message: 'the lines part once the holder freezes', ...SLOW })
    .toEqual({ observed: 0, believed: 1, paging: 'no-leader' });
  const atMs = await simMs(page);
  expect(atMs).toBeGreaterThanOrEqual(9000);
  expect(atMs).toBeLessThan(27_000);
  await expect(metricScene(page).getByRole('img')).toHaveAttribute(
    'aria-label',
    /^leader_count observed 0, believed 1; paging: no leader;/,
  );
  // The band fires from the freeze, though the believed line stays at 1.
  await expect(metricScene(page).locator('.metric-firing-no-leader[data-start-ms="9000"]')).toHaveCount(1);
});

test('while the zombie is frozen the lines diverge, and its write is rejected once it wakes', async ({
  page,
}) => {
  // Step 4 opens on n2's takeover of the Lease, with n1 still frozen and believing it leads.
  await openStep(page, 4);
  await expect
    .poll(() => chartLines(page), { message: 'believed 2, observed 1 while n1 is frozen', ...SLOW })
    .toEqual({ observed: 1, believed: 2, paging: 'none' });
  const svg = metricScene(page).locator('.metric-svg');
  await expect(svg).toHaveAttribute('aria-label', /^leader_count observed 1, believed 2; no page;/);
  // Both lines are drawn and named in the chart itself, with the lesson.
  await expect(svg.locator('path.metric-line-observed')).toHaveAttribute('d', /^M/);
  await expect(svg.locator('path.metric-line-believed')).toHaveAttribute('d', /^M/);
  await expect(svg.locator('.metric-key-observed')).toHaveText('observed (pages)');
  await expect(svg.locator('.metric-key-believed')).toHaveText('believed (paused included)');
  await expect(svg.locator('.metric-legend')).toContainText('cannot see a zombie');
  // The believed line is in the split-brain band, and the band does not fire.
  await expect(svg.locator('.metric-firing-split-brain')).toHaveCount(0);
  await expect(metricScene(page).locator('header')).toContainText(/observed\s*1\s*believed\s*2/);
  expect(await chartFigure(page, 'fencing rejections')).toBe(0);

  // To n1's wake at 39 s, then on to its first write, which storage rejects.
  await finishStep(page);
  await page.getByTestId('guided-next').click();
  await expect(page.getByTestId('guided')).toContainText('step 5 of 7');
  await finishStep(page);
  await expect(chainScene(page).getByTestId('rejected-count')).not.toHaveText('0');
  // Awake, the zombie answers its scrape: both lines at 2, and now the split-brain band pages.
  await expect
    .poll(() => chartLines(page), { message: 'both lines at 2 once n1 wakes', ...SLOW })
    .toEqual({ observed: 2, believed: 2, paging: 'split-brain' });
  await expect.poll(() => chartFigure(page, 'fencing rejections'), SLOW).toBeGreaterThanOrEqual(1);
  await expect(svg.locator('.metric-firing-split-brain[data-start-ms="39000"]')).toHaveCount(1);
  // The Events tab, under the first screen, follows the lab once it is in view.
  await openTab(page, 'Events');
  await eventLog(page).scrollIntoViewIfNeeded();
  await expect(eventLog(page)).toContainText(/storage rejected n1's write with token 0: max seen is 1/, SLOW);
  await expect(ledger(page)).toContainText(/n1 token 0 ✕ rejected \(zombie\)/);
});
