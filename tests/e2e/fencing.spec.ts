import {
  SLOW,
  banner,
  chainScene,
  chartFigure,
  eventLog,
  expect,
  ledger,
  logTimeOf,
  openLab,
  pauseLab,
  playLab,
  seekTo,
  selectNode,
  simMs,
  stageNode,
  test,
  waitForLeader,
  waitForSimMs,
  type Leader,
  WHOLE_PAGE,
} from './lab';

// The chain, the chart and the log are read while the stage plays: all of them on screen.
test.use(WHOLE_PAGE);

test.describe.configure({ timeout: 90_000 });

/**
 * Freeze Raft's leader for 20 s (twice its longest election timeout), wait for the rest of the
 * cluster to elect a successor, and return both. The paused node still believes it leads: that is
 * the zombie.
 */
async function pauseLeaderPastItsTimeout(
  page: import('@playwright/test').Page,
): Promise<{ zombie: Leader; next: Leader }> {
  const zombie = await waitForLeader(page);
  await selectNode(page, zombie.id);
  await page
    .getByRole('button', { name: `Pause ${zombie.id} for 20 s, longer than the election timeout (5-10 s)` })
    .click();
  // The log, not the node's status: at 64x on a slow machine the whole pause can be over
  // before a status check comes round.
  await expect(eventLog(page)).toContainText(`paused ${zombie.id} for 20.0 s (GC)`);
  const next = await waitForLeader(page, [zombie.id]);
  expect(next.term, 'the successor serves a later term').toBeGreaterThan(zombie.term);
  return { zombie, next };
}

// With fencing on, the zombie's write on waking carries its old token and storage turns it away.
test('a 20 s GC pause of the leader: the zombie write is rejected at storage, and rejections settle', async ({
  page,
}) => {
  // Raft's story: a zombie that hears the later term steps down, so its rejections stop.
  await openLab(page, 'algorithm=raft&speed=64');
  await expect(page.getByRole('switch', { name: 'Fencing' })).toBeChecked();
  await expect(chainScene(page).getByTestId('rejected-count')).toHaveText('0');
  expect(await chartFigure(page, 'fencing rejections')).toBe(0);

  const { zombie, next } = await pauseLeaderPastItsTimeout(page);
  const rejected = new RegExp(
    `storage rejected ${zombie.id}'s write with token ${zombie.term}: max seen is ${next.term}`,
  );
  await expect(eventLog(page), 'the zombie wakes and its write is fenced').toContainText(rejected, {
    timeout: 45_000,
  });
  await expect(stageNode(page, zombie.id)).not.toHaveAttribute('data-role', 'leader');

  // Look at the moment of the rejection: pause, and scrub back to just after it.
  await pauseLab(page);
  const rejectedAtMs = await logTimeOf(page, rejected);
  await seekTo(page, rejectedAtMs + 500);
  await expect(ledger(page)).toContainText(`${zombie.id} token ${zombie.term} ✕ rejected (zombie)`);
  await expect(page.getByTestId('storage')).toContainText(`max ${next.term}`);
  const chain = chainScene(page);
  await expect(chain.getByTestId('zombie-alert')).toContainText(
    `${zombie.id} token ${zombie.term} < ${next.term}`,
  );
  const count = Number(await chain.getByTestId('rejected-count').innerText());
  expect(count, "ChainScene's rejection counter rose").toBeGreaterThanOrEqual(1);
  expect(await chartFigure(page, 'fencing rejections'), "the chart's rejection total rose").toBe(count);
  await expect(banner(page)).toHaveAttribute('data-state', 'safe');

  // Settle: once the zombie has stepped down it sends nothing more, so the counters stop rising.
  await playLab(page);
  const from = await simMs(page);
  await waitForSimMs(page, from + 30_000, 30_000);
  await expect(chain.getByTestId('rejected-count')).toHaveText(String(count));
  expect(await chartFigure(page, 'fencing rejections')).toBe(count);
  await expect(banner(page)).toHaveAttribute('data-state', 'safe');
  await expect(stageNode(page, zombie.id)).toHaveAttribute('data-role', 'follower');
});

// With fencing off, the same pause ends in a lost update, and the page says so in red.
test('the same pause with fencing off: the stale write is accepted and the banner turns red', async ({
  page,
}) => {
  await openLab(page, 'algorithm=raft&speed=64');
  const fencing = page.getByRole('switch', { name: 'Fencing' });
  await fencing.click();
  await expect(fencing).not.toBeChecked();
  await expect(banner(page)).toContainText('Safety off: fencing');
  await expect(chainScene(page).getByTestId('fencing-off')).toBeVisible();

  const { zombie, next } = await pauseLeaderPastItsTimeout(page);
  const red = banner(page);
  await expect(red).toHaveAttribute('data-state', 'violated', { timeout: 45_000 });
  await expect(red).toContainText(
    new RegExp(
      `fencing is off: ${zombie.id}'s write with token ${zombie.term} was accepted after token ${next.term}`,
    ),
  );

  await pauseLab(page);
  const stale = new RegExp(`storage accepted ${zombie.id}'s leader write with token ${zombie.term} \\(STALE`);
  const staleAtMs = await logTimeOf(page, stale);
  await seekTo(page, staleAtMs + 500);
  await expect(ledger(page)).toContainText(`${zombie.id} token ${zombie.term} ⚠ accepted STALE`);
  await expect(chainScene(page).getByTestId('stale-alert')).toContainText('STALE WRITE ACCEPTED');
  await expect(chainScene(page).getByTestId('rejected-count')).toHaveText('0');
  await expect(red).toHaveAttribute('data-state', 'violated');

  // Scrubbing to before the stale write shows the banner as it was then: the violation is part of the run, not of the page.
  await seekTo(page, staleAtMs - 2_000);
  await expect(red).toHaveAttribute('data-state', 'safe', SLOW);
});
