// The page opens on the pattern card: Kubernetes' Lease at 15 s / 10 s / 2 s, its API server and
// etcd's three members on the stage, the chain's first step naming whose quorum commits the Lease,
// and stage, chain and chart on one 1280x800 screen. Killing the leader there costs the lesson's
// 10-30 s. The others are one click away in Setup's picker, each with a line saying what elects
// and whether a partition is safe; pause buttons are measured against the algorithm's own lease
// or timeout; and a link that names a setup (an old link) still opens Raft.
import { encodeRun } from '../../src/shared/share';
import { ALGORITHM_KINDS, algorithmFor } from '../../src/engine';
import { pickerLine } from '../../src/engine/algorithms/picker';
import {
  chainScene,
  chartFigure,
  chooseAlgorithm,
  expect,
  metricScene,
  openLab,
  openTab,
  picked,
  selectNode,
  SLOW,
  stageLeaders,
  test,
  waitForLeader,
} from './lab';

test.use({ viewport: { width: 1280, height: 800 } });
test.describe.configure({ timeout: 90_000 });

const step1 = (page: import('@playwright/test').Page) => chainScene(page).locator('.chain-step-1');

test("the first screen is the card: Kubernetes' Lease, 15 s / 10 s / 2 s, its API server and etcd's quorum", async ({
  page,
}) => {
  await openLab(page, 'speed=4');
  const stage = page.getByRole('group', { name: 'Cluster stage' });
  await expect(stage.getByTestId('service-api')).toHaveText('API server');
  await expect(stage.getByRole('group', { name: 'etcd' }).getByTestId(/^service-m\d$/)).toHaveCount(3);
  // The chain's first step says whose quorum commits the Lease.
  await expect(step1(page).locator('.chain-title-short')).toHaveText("etcd's quorum commits");
  await expect(step1(page).locator('h3')).toContainText("etcd's quorum commits one Lease");
  await expect(step1(page)).toContainText(
    'the API server writes one Lease object to etcd by compare-and-swap; its 3 members need a majority (2)',
  );
  await waitForLeader(page);
  await expect(step1(page).getByTestId('quorum-headline')).toContainText(/is holder, leaderTransitions 0/);
  // The card's numbers, in the words on screen: TTL 15 s, renewed every 2 s, within 10 s.
  const chain = chainScene(page);
  await expect(chain.locator('.chain-step-2')).toContainText('TTL 15 s, renew every 2 s');
  await expect(chain.getByTestId('lease-caption')).toContainText('RenewDeadline 10 s', SLOW);
  // Stage, chain and chart share the first screen.
  for (const [name, view] of Object.entries({ stage, chain, chart: metricScene(page) })) {
    const box = (await view.boundingBox())!;
    expect(box.y + box.height, `the ${name} on the first 800 px`).toBeLessThanOrEqual(800);
    expect(box.height).toBeGreaterThan(100);
  }
  await openTab(page, 'Setup');
  await expect(picked(page)).toHaveAttribute('data-algorithm', 'k8s-lease');
});

test("killing the card's leader costs the lesson's 10-30 s without a leader", async ({ page }) => {
  await openLab(page, 'speed=16');
  const old = await waitForLeader(page);
  await selectNode(page, old.id);
  await page.getByRole('button', { name: `Kill ${old.id}` }).click();
  await waitForLeader(page, [old.id], 60_000);
  await expect(stageLeaders(page)).toHaveCount(1);
  const gapMs = await chartFigure(page, 'time without a leader');
  expect(gapMs).toBeGreaterThanOrEqual(10_000);
  expect(gapMs).toBeLessThanOrEqual(30_000);
});

test('the picker says what each algorithm is and whether a partition is safe; one click runs Raft', async ({
  page,
}) => {
  await openLab(page, 'speed=16');
  await openTab(page, 'Setup');
  const choices = page.getByTestId('algorithm-picker').getByRole('button');
  await expect(choices).toHaveText(
    ALGORITHM_KINDS.map((k) => {
      const line = pickerLine(k);
      return `${algorithmFor(k).title} ${line.what}. ${line.partition}.`;
    }),
  );
  await expect(choices.filter({ hasText: 'Not safe under a partition' })).toHaveText([
    /^Redis Sentinel/,
    /^Bully/,
    /^Ring/,
  ]);
  await chooseAlgorithm(page, 'Raft');
  await expect(step1(page).locator('h3')).toContainText('Quorum elects one leader');
  await expect(page.getByTestId('service-api')).toHaveCount(0);
  const leader = await waitForLeader(page);
  await expect(step1(page).getByTestId('quorum-headline')).toContainText(`${leader.id} leads term`);
});

test("the card's pause lengths are measured against its Lease", async ({ page }) => {
  await openLab(page, 'speed=4');
  const leader = await waitForLeader(page);
  await selectNode(page, leader.id);
  await expect(
    page.getByRole('button', { name: `Pause ${leader.id} for 5 s, shorter than the Lease (15 s)` }),
  ).toHaveText('Pause 5 s');
  await expect(
    page.getByRole('button', { name: `Pause ${leader.id} for 30 s, longer than the Lease (15 s)` }),
  ).toHaveText('Pause 30 s');
  await expect(page.getByTestId('pause-against')).toHaveText('the others wait out the Lease (15 s)');
});

test("Raft's pause lengths are measured against its election timeout, and Bully's against its own", async ({
  page,
}) => {
  // Raft has no lease: its pauses are measured against its election timeout.
  await openLab(page, 'algorithm=raft&speed=4');
  let leader = await waitForLeader(page);
  await selectNode(page, leader.id);
  await expect(
    page.getByRole('button', {
      name: `Pause ${leader.id} for 1.7 s, shorter than the election timeout (5-10 s)`,
    }),
  ).toHaveText('Pause 1.7 s');
  await expect(
    page.getByRole('button', {
      name: `Pause ${leader.id} for 20 s, longer than the election timeout (5-10 s)`,
    }),
  ).toHaveText('Pause 20 s');
  await expect(page.getByRole('button', { name: /than the lease/i })).toHaveCount(0);

  // Bully's coordinator timeout.
  await chooseAlgorithm(page, 'Bully');
  leader = await waitForLeader(page);
  await selectNode(page, leader.id);
  await expect(
    page.getByRole('button', {
      name: `Pause ${leader.id} for 8 s, longer than the coordinator timeout (4 s)`,
    }),
  ).toBeVisible();
});

test('an old link keeps what it asked for: a setup or a run without an algorithm opens Raft', async ({
  page,
}) => {
  for (const query of [
    'seed=1&speed=4',
    'nodes=5&speed=4',
    `run=${encodeRun({ experiment: { seed: 1, nodes: 5 }, commands: [], atMs: 0 })}`,
  ]) {
    await openLab(page, query);
    await expect(step1(page).locator('h3'), query).toContainText('Quorum elects one leader');
    await expect(page.getByTestId('service-api')).toHaveCount(0);
    await openTab(page, 'Setup');
    await expect(picked(page)).toHaveAttribute('data-algorithm', 'raft');
  }
});
