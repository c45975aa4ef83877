// "Find a failure" in the page: the explorer runs in its Web Worker, finds Bully's split brain,
// shrinks it and opens it as a normal run whose banner shows the broken invariant; with the
// default Raft setup (every defence on) and a small budget it finds nothing and says so; with
// fencing off it finds a zombie's write accepted, and the run it opens lands on that write.
import { chainScene, expect, ledger, openLab, openTab, SLOW, test } from './lab';

test('under Bully it finds the split brain, shrinks it, and opens it as a run', async ({ page }) => {
  await openLab(page, 'algorithm=bully&speed=16');
  await openTab(page, 'Explore');
  const panel = page.locator('.explore-panel');
  await expect(panel.getByTestId('explore-setup')).toContainText('Bully');
  await panel.getByRole('button', { name: 'Start' }).click();
  const outcome = panel.getByTestId('explore-outcome');
  await expect(outcome).toHaveAttribute('data-outcome', 'found', { timeout: 30_000 });
  await expect(outcome).toContainText('At most one leader per term');
  await expect(panel.getByTestId('explore-caption')).toContainText('Bully has no quorum');
  await expect(outcome).toContainText('removing any one of them makes the run pass');
  const link = panel.getByTestId('explore-link');
  await expect(link).toHaveValue(/[?&]run=/);

  await panel.getByRole('button', { name: 'Open this run' }).click();
  await expect(page).toHaveURL(/[?&]run=/, SLOW);
  const banner = page.getByTestId('safety-banner');
  await expect(banner).toHaveAttribute('data-state', 'violated', SLOW);
  await expect(banner).toContainText('At most one leader per term: broken');
});

test('with every defence on and a small budget it finds nothing, and says how much it searched', async ({
  page,
}) => {
  await openLab(page, 'algorithm=raft&speed=16');
  await openTab(page, 'Explore');
  const panel = page.locator('.explore-panel');
  await expect(panel.getByTestId('explore-setup')).toContainText('every safety switch on');
  // From the keyboard: type the budget, Enter starts the search.
  const budget = panel.getByLabel('Budget', { exact: true });
  await budget.fill('40');
  await budget.press('Enter');
  const outcome = panel.getByTestId('explore-outcome');
  await expect(outcome).toHaveAttribute('data-outcome', 'nothing', { timeout: 30_000 });
  await expect(outcome).toContainText('Nothing found in 40 schedules');
  await expect(outcome).toContainText('with every defence on, that is the expected answer');
  await expect(panel.locator('.explore-result')).toBeFocused();
});

test('with fencing off it finds a zombie write accepted, and the run it opens lands on that write', async ({
  page,
}) => {
  await openLab(page, 'algorithm=raft&speed=16');
  const fencing = page.getByRole('switch', { name: 'Fencing' });
  await fencing.click();
  await expect(fencing).not.toBeChecked();
  await openTab(page, 'Explore');
  const panel = page.locator('.explore-panel');
  await expect(panel.getByTestId('explore-setup')).toContainText('fencing off');
  await panel.getByRole('button', { name: 'Start' }).click();
  const outcome = panel.getByTestId('explore-outcome');
  await expect(outcome).toHaveAttribute('data-outcome', 'found', { timeout: 30_000 });
  await expect(outcome).toContainText('No stale write accepted');
  // The caption names the zombie's write and the token issued after its own.
  await expect(panel.getByTestId('explore-caption')).toContainText(/write with token \d+ .*after token \d+/);
  await expect(outcome).toContainText('removing any one of them makes the run pass');

  await panel.getByRole('button', { name: 'Open this run' }).click();
  await expect(page).toHaveURL(/[?&]run=/, SLOW);
  // The run opens a second after the breach: the zombie's write is on screen, accepted.
  const banner = page.getByTestId('safety-banner');
  await expect(banner).toHaveAttribute('data-state', 'violated', SLOW);
  await expect(banner).toContainText('No stale write accepted: broken');
  await expect(banner).toContainText(
    /fencing is off: n\d's write with token \d+ was accepted after token \d+/,
  );
  await expect(page.getByRole('switch', { name: 'Fencing' })).not.toBeChecked();
  await expect(ledger(page)).toContainText(/n\d token \d+ ⚠ accepted STALE/);
  await expect(chainScene(page).locator('.chain-stale-count')).toContainText(
    /[1-9]\d* stale writes? among them/,
  );
});
