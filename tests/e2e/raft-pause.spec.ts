// Raft (the default algorithm) in free play, as a learner meets it: kill the leader and see the
// next one at a higher term; freeze the next one for 30 s and see the chart's two lines part (it
// believes it leads, the scrape cannot reach it, the others elect a third), then its write,
// checked before the freeze and sent after it, rejected by storage as a zombie write.
import {
  chainScene,
  chartLines,
  expect,
  eventLog,
  openLab,
  openTab,
  selectNode,
  SLOW,
  stageLeaders,
  test,
  waitForChartLines,
  waitForLeader,
} from './lab';

test.use({ viewport: { width: 1280, height: 800 } });
test.describe.configure({ timeout: 90_000 });

test('Raft: a killed leader is replaced at a higher term; a frozen one is a zombie whose write is rejected', async ({
  page,
}) => {
  await openLab(page, 'algorithm=raft&speed=16');
  const first = await waitForLeader(page, [], 60_000);

  await selectNode(page, first.id);
  await page.getByRole('button', { name: `Kill ${first.id}` }).click();
  const second = await waitForLeader(page, [first.id], 60_000);
  expect(second.term).toBeGreaterThan(first.term);
  await expect(stageLeaders(page)).toHaveCount(1);

  await selectNode(page, second.id);
  await page
    .getByRole('button', { name: `Pause ${second.id} for 20 s, longer than the election timeout (5-10 s)` })
    .click();
  // Frozen, it still believes it leads; the others elect a third, which the scrape sees.
  // The state lasts from the third's election to the wake, about 25 s of simulated time: under two
  // seconds of wall time at 16x, so it is watched for on every frame.
  await waitForChartLines(
    page,
    { observed: 1, believed: 2, paging: 'none' },
    'believed 2, observed 1 while the old leader is frozen',
    60_000,
  );

  // It wakes and sends the write it had checked before the freeze, with its old token.
  await expect(chainScene(page).getByTestId('rejected-count')).not.toHaveText('0', { timeout: 60_000 });
  // The Events tab, under the first screen, follows the lab once it is in view.
  await openTab(page, 'Events');
  await eventLog(page).scrollIntoViewIfNeeded();
  await expect(eventLog(page)).toContainText(
    new RegExp(`storage rejected ${second.id}'s write with token \\d+: max seen is \\d+`),
    SLOW,
  );
  // Back to one leader once it has heard of the new term.
  await expect.poll(() => chartLines(page), { timeout: 60_000 }).toMatchObject({ observed: 1, believed: 1 });
});
