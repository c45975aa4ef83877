import {
  eventLog,
  expect,
  logTimeOf,
  openLab,
  pauseLab,
  seekTo,
  selectNode,
  simMs,
  stageLeaders,
  stageNode,
  test,
  waitForLeader,
  waitForSimMs,
  WHOLE_PAGE,
} from './lab';

// The chain, the chart and the log are read while the stage plays: all of them on screen.
test.use(WHOLE_PAGE);
import type { Page } from '@playwright/test';

test.describe.configure({ timeout: 90_000 });

/** What a person would compare: every event-log line, and who leads in which term. */
async function observe(page: Page) {
  return {
    log: await eventLog(page).locator('li').allInnerTexts(),
    leaders: await stageLeaders(page).evaluateAll((els) =>
      els.map((el) => `${el.getAttribute('data-testid')} term ${el.getAttribute('data-term')}`),
    ),
    time: await page.getByTestId('sim-time').innerText(),
  };
}

// Scrubbing back is a replay of (seed, recorded commands), not an undo buffer: going back before
// an action and forward again must show the very same run, event for event.
test('scrubbing back before a kill and forward again replays the same events', async ({ page }) => {
  await openLab(page, 'speed=64');
  const old = await waitForLeader(page);
  await waitForSimMs(page, 8_000);
  await selectNode(page, old.id);
  await page.getByRole('button', { name: `Kill ${old.id}` }).click();
  const next = await waitForLeader(page, [old.id]);
  // Let the new leader settle in and write a while, so there is plenty to compare.
  await waitForSimMs(page, (await simMs(page)) + 10_000);
  await pauseLab(page);

  // Park on a whole second at the end of what was simulated (the timeline's last position).
  const timeline = page.getByRole('slider', { name: 'Timeline' });
  await timeline.focus();
  await page.keyboard.press('End');
  const endValue = await timeline.inputValue();
  await expect(page.getByTestId('sim-time')).toHaveText(`${(Number(endValue) / 1000).toFixed(1)} s`);
  const first = await observe(page);
  expect(first.log.join('\n')).toContain(`killed ${old.id}`);
  expect(first.leaders).toEqual([`node-${next.id} term ${next.term}`]);
  const killedAtMs = await logTimeOf(page, new RegExp(`killed ${old.id}`));

  // Back to before the kill: the old leader is alive and leading, and the kill has not happened.
  await seekTo(page, killedAtMs - 3_000);
  await expect(stageNode(page, old.id)).toHaveAttribute('data-role', 'leader');
  await expect(stageNode(page, old.id)).toHaveAttribute('data-term', String(old.term));
  await expect(eventLog(page)).not.toContainText(`killed ${old.id}`);

  // And forward again, with the keyboard, to the same moment.
  await timeline.focus();
  await page.keyboard.press('End');
  await expect(timeline).toHaveValue(endValue);
  await expect(page.getByTestId('sim-time')).toHaveText(first.time);
  const second = await observe(page);
  expect(second.leaders).toEqual(first.leaders);
  expect(second.log).toEqual(first.log);
  await expect(stageNode(page, old.id)).toHaveAttribute('data-role', 'dead');
});
