// Small things a learner notices: a key that cannot act says why, the log tells a GC pause's
// end as well as its start, nothing on the page is an invisible Tab stop, a toggle says what it
// will do, and a scene without controls never asks for a click it cannot take.
import type { Page } from '@playwright/test';
import {
  eventLog,
  expect,
  openLab,
  openTab,
  selectNode,
  simMs,
  SLOW,
  test,
  waitForLeader,
  waitForSimMs,
  WHOLE_PAGE,
} from './lab';

test('K with no leader says there is none to kill', async ({ page }) => {
  await openLab(page, 'paused');
  await expect(page.locator('[data-testid^="node-"][data-role="leader"]')).toHaveCount(0);
  await page.keyboard.press('k');
  await expect(page.getByRole('alert').filter({ hasText: /no leader/i })).toBeVisible();
  await expect(page.locator('[data-testid^="node-"][data-role="dead"]')).toHaveCount(0);
});

test('a note about a state goes when the state ends, not seconds later beside its opposite', async ({
  page,
}) => {
  await openLab(page, 'paused');
  await page.keyboard.press('h');
  const note = page.getByRole('alert').filter({ hasText: /no partition to heal/i });
  await expect(note).toBeVisible();
  // A partition now: the note would otherwise stay its 6 s beside the split network.
  await page.keyboard.press('s');
  await expect(note).toHaveCount(0, { timeout: 1500 });
});

test('"no leader to kill" goes once a leader is elected, not 6 s later beside "One leader"', async ({
  page,
}) => {
  await openLab(page, 'paused&speed=4');
  await page.keyboard.press('k');
  const note = page.getByRole('alert').filter({ hasText: /no leader to kill/i });
  await expect(note).toBeVisible();
  const pressedAt = Date.now();
  await page.keyboard.press('Space'); // play: the first election follows within a few seconds
  await waitForLeader(page);
  // A leader came well inside the note's 6 s: had it stayed, it would still be up now.
  expect(Date.now() - pressedAt).toBeLessThan(4500);
  await expect(note).toHaveCount(0, { timeout: 500 });
});

test.describe('with the event log in view', () => {
  test.use(WHOLE_PAGE);

  test('the event log records the end of a GC pause', async ({ page }) => {
    await openLab(page, 'speed=16');
    const leader = await waitForLeader(page);
    await selectNode(page, leader.id);
    await page
      .getByRole('button', { name: `Pause ${leader.id} for 5 s, shorter than the Lease (15 s)` })
      .click();
    const from = await simMs(page);
    await waitForSimMs(page, from + 7_000);
    await expect(eventLog(page)).toContainText(new RegExp(`${leader.id}'s 5\\.0 s GC pause ended`), SLOW);
  });
});

/** Tab stops on the page with no area: a keyboard user lands on them and sees nothing. */
async function invisibleTabStops(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [
      ...document.querySelectorAll<HTMLElement>(
        '[tabindex]:not([tabindex="-1"]), a[href], button, input, select, textarea, summary',
      ),
    ]
      .filter((el) => !el.hasAttribute('disabled') && getComputedStyle(el).visibility !== 'hidden')
      .filter((el) => el.getClientRects().length > 0)
      .filter((el) => {
        const r = el.getBoundingClientRect();
        return r.width < 1 || r.height < 1;
      })
      .filter((el) => !el.closest('.visually-hidden'))
      .map((el) => el.outerHTML.slice(0, 80)),
  );
}

test('no Tab stop on the page is invisible, the empty event log included', async ({ page }) => {
  await openLab(page, 'paused');
  await page.waitForTimeout(1000);
  expect(await invisibleTabStops(page)).toEqual([]);
  // The Events tab at 0 s: the log is empty, says so, and is no Tab stop (it was a 0-px one).
  await openTab(page, 'Events');
  await expect(eventLog(page)).toHaveText('No events yet.');
  await expect(eventLog(page)).not.toHaveAttribute('tabindex');
  expect(await invisibleTabStops(page)).toEqual([]);
});

test('"Hide controls" becomes "Show controls"', async ({ page }) => {
  await page.goto('/?present');
  await page.getByRole('button', { name: 'Hide controls' }).click();
  await expect(page.getByRole('button', { name: 'Show controls' })).toBeVisible();
  await page.getByRole('button', { name: 'Show controls' }).click();
  await expect(page.getByRole('button', { name: 'Hide controls' })).toBeVisible();
});

test('the failover embed never asks for a kill it offers no control for, and tells a failover under way', async ({
  page,
}) => {
  await page.goto('/embed.html?scene=failover');
  await expect(page.getByTestId('failover-timeline')).toBeVisible(SLOW);
  await expect(page.getByTestId('failover-timeline')).not.toContainText(/kill|pause the leader/i);
  // After the leader was killed, before anyone was elected: step 4 begins as detection ends.
  await page.goto('/embed.html?scene=failover&scenario=kill-leader&step=4&autoplay=0');
  const scene = page.getByTestId('failover-timeline');
  await expect(scene).toContainText(/failover .*under way/i, SLOW);
  await expect(scene).not.toContainText(/kill|pause the leader/i);
});
