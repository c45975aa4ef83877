// The algorithm picker: Bully under a 2|3 split elects a coordinator on each side (no quorum),
// which the stage, the chart and the banner all show; switching back to Raft in the same page
// gives one leader again.
import type { Page } from '@playwright/test';
import {
  banner,
  chooseAlgorithm,
  expect,
  chartLines,
  openLab,
  SLOW,
  stageLeaders,
  test,
  waitForLeader,
  WHOLE_PAGE,
} from './lab';

test.use(WHOLE_PAGE);
test.describe.configure({ timeout: 120_000 });

/** The chart's believed leader_count now. */
async function chartNow(page: Page): Promise<number> {
  return (await chartLines(page)).believed;
}

test('Bully split 2|3 elects a coordinator on each side; Raft in the same page does not', async ({
  page,
}) => {
  await openLab(page, 'speed=16');
  await chooseAlgorithm(page, 'Bully');
  // The highest id wins: n5 coordinates.
  const first = await waitForLeader(page, [], 40_000);
  expect(first.id).toBe('n5');

  await page
    .getByRole('button', { name: /^Split/ })
    .first()
    .click();
  await expect(page.getByTestId('partition-group')).toHaveCount(2);
  // The side without n5 stops hearing it, holds an election and its highest node takes over.
  await expect(stageLeaders(page)).toHaveCount(2, { timeout: 40_000 });
  await expect.poll(() => chartNow(page), SLOW).toBe(2);
  await expect(banner(page)).toContainText(
    'Bully has no quorum: each side of a split elects its own coordinator',
  );
  await expect(banner(page)).toContainText('leader_count 2');

  await chooseAlgorithm(page, 'Raft');
  await expect(page.getByTestId('partition-group')).toHaveCount(0);
  await waitForLeader(page, [], 40_000);
  await expect(stageLeaders(page)).toHaveCount(1);
  await expect.poll(() => chartNow(page), SLOW).toBe(1);
  await expect(banner(page)).not.toContainText('has no quorum');
});

test("the Bully split game day links to Raft's, and Raft's back, by title", async ({ page }) => {
  await page.goto('/?scenario=bully-split-2-3');
  const guided = page.getByTestId('guided');
  await expect(guided).toContainText('Bully under a 2|3 split', SLOW);
  const compare = page.getByTestId('guided-compare');
  await expect(compare).toContainText('the small side cannot win a majority');
  await compare.getByRole('link', { name: 'Quorum prevents split brain' }).click();
  await expect(page).toHaveURL(/[?&]scenario=quorum-split-2-3(&|$)/);
  await expect(guided).toContainText('Quorum prevents split brain', SLOW);
  await expect(page.getByTestId('guided-compare').getByRole('link')).toHaveText(
    'Bully under a 2|3 split: fencing alone is not enough',
  );
});
