import {
  SLOW,
  chainScene,
  chartFigure,
  expect,
  metricScene,
  openLab,
  pauseLab,
  playLab,
  selectNode,
  simMs,
  stageLeaders,
  stageNode,
  test,
  waitForLeader,
  WHOLE_PAGE,
} from './lab';

// The chain, the chart and the log are read while the stage plays: all of them on screen.
test.use(WHOLE_PAGE);

// The core failover story: the leader dies, nobody leads until its lease runs out, then a quorum
// elects someone else in a later term. All three views must tell the same story.
test('killing the leader elects a new leader in a later term, after a stretch of leader_count 0', async ({
  page,
}) => {
  // Raft's story, in its words (terms): the first screen's Lease is first-screen.spec.ts's.
  await openLab(page, 'algorithm=raft&speed=16');
  const old = await waitForLeader(page);
  await expect(chainScene(page).getByTestId('quorum-headline')).toContainText(
    `${old.id} leads term ${old.term}`,
  );
  // Boot has its own short leaderless moment (before the first election): the figure to beat.
  const bootGapMs = await chartFigure(page, 'time without a leader');

  // Pause first, so the moment right after the kill can be looked at (the followers are still
  // waiting for the dead leader's lease to run out).
  await pauseLab(page);
  await selectNode(page, old.id);
  await page.getByRole('button', { name: `Kill ${old.id}` }).click();
  await expect(stageNode(page, old.id)).toHaveAttribute('data-role', 'dead');
  await expect(stageLeaders(page)).toHaveCount(0);
  await expect(chainScene(page).getByTestId('quorum-headline')).toContainText('No leader');
  // The chart samples leader_count every 100 ms of simulated time: step forward to the next
  // samples, still well inside the leaderless stretch, and it reads 0.
  const killedAtMs = await simMs(page);
  const chart = metricScene(page).getByRole('img');
  await expect
    .poll(
      async () => {
        await page.getByRole('button', { name: 'Step to the next event' }).click();
        return chart.getAttribute('aria-label');
      },
      { message: 'the chart reports leader_count 0 after stepping past the kill', intervals: [0] },
    )
    .toMatch(/leader_count observed 0, believed 0\b/);
  // The chart redraws a few times a second, so the clicks run ahead of it; any moment well inside
  // the lease (15 s, less up to one 2 s heartbeat period) is still the leaderless stretch.
  expect(await simMs(page), 'still inside the leaderless stretch').toBeLessThan(killedAtMs + 10_000);
  await expect(stageLeaders(page)).toHaveCount(0);

  await playLab(page);
  const next = await waitForLeader(page, [old.id]);
  expect(next.term, 'the new leader serves a later term').toBeGreaterThan(old.term);
  await expect(stageLeaders(page), 'exactly one leader on the stage').toHaveCount(1);
  await expect(stageNode(page, next.id)).toHaveAttribute('data-term', String(next.term));
  await expect(chainScene(page).getByTestId('quorum-headline')).toContainText(
    `${next.id} leads term ${next.term}`,
    SLOW,
  );
  await expect(metricScene(page).getByRole('img')).toHaveAttribute(
    'aria-label',
    /leader_count observed 1, believed 1\b/,
    SLOW,
  );

  // The leaderless stretch lasts about a lease (15 s), far beyond boot's sub-second gap.
  const gapMs = await chartFigure(page, 'time without a leader');
  expect(gapMs - bootGapMs, 'time without a leader grew by the failover').toBeGreaterThan(5_000);
  // The transition is counted, and the chart marks the kill on its time axis.
  await expect(metricScene(page).locator('header')).toContainText(/transitions:\s*[1-9]/);
  await expect(metricScene(page).locator('table')).toContainText(`kill ${old.id}`);
});
