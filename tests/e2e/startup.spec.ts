// Start-up is its own phase, not an outage. The page opens with the banner saying the cluster is
// starting (in the neutral tone, not the amber "no leader, writes are paused"); the chart draws
// start-up as its own "starting" stretch, with no page and no no-leader band over it; and the time
// without a leader counts only what comes after the first election: after a kill, it is the
// leaderless stretch that followed the kill, not start-up added to it.
import { Simulation } from '../../src/engine';
import { encodeRun } from '../../src/shared/share';
import {
  banner,
  chartFigure,
  chartLines,
  expect,
  metricScene,
  pauseLab,
  playLab,
  selectNode,
  simMs,
  SLOW,
  stageLeaders,
  test,
  waitForLeader,
  WHOLE_PAGE,
} from './lab';

test.use(WHOLE_PAGE);

test('the page opens saying it is starting, in the neutral tone, with nothing without a leader', async ({
  page,
}) => {
  // Opened paused at 0 s, the moment a reader first sees (the card's first election is a second
  // in, sooner than the page would let a test look).
  await page.goto('/?paused');
  const b = banner(page);
  await expect(b).toContainText(/^Starting: the cluster is electing its first/);
  await expect(b).toHaveClass(/banner-info/);
  await expect(b).not.toHaveClass(/banner-warn/);
  await expect(b).not.toContainText(/no leader|paused/i);
  await expect(stageLeaders(page)).toHaveCount(0);
  expect(await chartFigure(page, 'time without a leader')).toBe(0);
  expect((await chartLines(page)).paging).toBe('none');
});

// Raft at the teaching timing: its first election comes after an election timeout of 5 s or more,
// long enough to look at start-up on the chart.
const RAFT = {
  algorithm: 'raft' as const,
  seed: 1,
  nodes: 5,
  raft: { heartbeatMs: 1000, electionTimeoutMs: 5000 },
  network: { delayMsMin: 60, delayMsMax: 180 },
  untilMs: 120_000,
};

test('the chart draws start-up as "starting", pages nothing over it, and the time without a leader leaves it out', async ({
  page,
}) => {
  // When the first leader is elected, in this run.
  const sim = new Simulation(RAFT);
  sim.runUntil(20_000);
  const firstElectedMs = sim.snapshot().startedAtMs;
  expect(firstElectedMs).toBeGreaterThan(5000);
  // The chart reads it off its samples, one every 100 ms: the first with a leader in it.
  const firstSampledMs = String(Math.ceil(firstElectedMs / 100) * 100);

  // Three seconds in: still starting.
  await page.goto(`/?run=${encodeRun({ experiment: RAFT, commands: [], atMs: 3000 })}`);
  await expect.poll(() => simMs(page), SLOW).toBe(3000);
  const chart = metricScene(page);
  const starting = chart.getByTestId('chart-starting');
  await expect(banner(page)).toContainText(/^Starting:/);
  await expect(banner(page)).toHaveClass(/banner-info/);
  await expect(starting).toHaveAttribute('data-start-ms', '0');
  await expect(starting).toHaveAttribute('data-end-ms', '3000');
  await expect(starting).toContainText('starting');
  await expect(chart.locator('.metric-firing')).toHaveCount(0);
  expect(await chartLines(page)).toMatchObject({ observed: 0, believed: 0, paging: 'none' });
  expect(await chartFigure(page, 'time without a leader')).toBe(0);

  // On to the first leader: start-up ends at its election, and still counts for nothing.
  await playLab(page);
  const first = await waitForLeader(page);
  await pauseLab(page);
  await expect(starting).toHaveAttribute('data-end-ms', firstSampledMs, SLOW);
  await expect(chart.locator('.metric-firing')).toHaveCount(0);
  expect(await chartFigure(page, 'time without a leader')).toBe(0);
  await expect(banner(page)).toContainText(/One leader/);

  // Kill it: the leaderless stretch that follows pages, and is all the time without a leader.
  await selectNode(page, first.id);
  await page.getByRole('button', { name: `Kill ${first.id}` }).click();
  const killedAtMs = await simMs(page);
  await playLab(page);
  await expect(chart.locator('.metric-firing-no-leader'), 'the kill pages').toHaveCount(1, SLOW);
  await waitForLeader(page, [first.id]);
  await pauseLab(page);
  const stoppedAtMs = await simMs(page);
  const withoutMs = await chartFigure(page, 'time without a leader');
  // The figure shows a tenth of a second; start-up (over 5 s) would put it far past the stretch.
  expect(withoutMs, 'the time without a leader is the stretch after the kill').toBeGreaterThan(1000);
  expect(withoutMs).toBeLessThanOrEqual(stoppedAtMs - killedAtMs + 100);
  const firing = chart.locator('.metric-firing-no-leader');
  await expect(firing).toHaveCount(1);
  expect(Number(await firing.getAttribute('data-start-ms'))).toBeGreaterThanOrEqual(killedAtMs - 100);
  // Start-up is still drawn where it was, before the first election.
  await expect(starting).toHaveAttribute('data-end-ms', firstSampledMs);
});
