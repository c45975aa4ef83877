// Each algorithm, Raft included, is a chunk the page loads when a run uses it: the lab's first
// screen fetches only the card's (Kubernetes' Lease), a link to Raft Raft's alone, choosing another
// in Setup fetches it (and runs it), a link to one opens with it and never fetches Raft's, and a
// chunk that cannot load leaves the lab running Raft with a message that says so; of two choices, the
// last one runs even when the first one's code comes later. The Setup panel is a chunk too,
// fetched when its tab first opens.
import type { Page, Request } from '@playwright/test';
import {
  chooseAlgorithm,
  expect,
  openLab,
  openTab,
  picked,
  simMs,
  SLOW,
  stageLeaders,
  test,
  waitForLeader,
} from './lab';

const ALGORITHM_CHUNK =
  /\/assets\/(raft|bully|ring|zookeeper|k8sLease|etcdElection|redisSentinel|SetupPanel)-[\w-]+\.js$/;
/** Every algorithm's chunk but Raft's, the lab's fallback. */
const OTHER_ALGORITHM = /\/assets\/(bully|ring|zookeeper|k8sLease|etcdElection|redisSentinel)-[\w-]+\.js$/;

function chunksFetched(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (r: Request) => {
    const m = ALGORITHM_CHUNK.exec(new URL(r.url()).pathname);
    if (m) seen.push(m[1]);
  });
  return seen;
}

test("the lab's first screen fetches only the card's algorithm", async ({ page }) => {
  const seen = chunksFetched(page);
  await openLab(page, 'speed=16');
  await waitForLeader(page);
  expect(seen).toEqual(['k8sLease']);
});

test("a link to Raft fetches Raft's rules alone; choosing another fetches it and runs it", async ({
  page,
}) => {
  const seen = chunksFetched(page);
  await openLab(page, 'algorithm=raft&speed=16');
  await waitForLeader(page);
  expect(seen).toEqual(['raft']);

  await chooseAlgorithm(page, 'ZooKeeper recipe');
  await expect.poll(() => seen, SLOW).toEqual(['raft', 'SetupPanel', 'zookeeper']);
  // The ZooKeeper ensemble is on the stage, and a candidate leads.
  await expect(page.getByTestId('service-z1')).toBeVisible(SLOW);
  await expect(stageLeaders(page)).toHaveCount(1, SLOW);
});

test("a link to an algorithm opens with it, its chunk loaded before the lab starts, and never Raft's", async ({
  page,
}) => {
  const seen = chunksFetched(page);
  await openLab(page, 'algorithm=bully&speed=16');
  expect(seen).toEqual(['bully']);
  await expect(stageLeaders(page)).toHaveCount(1, SLOW);
  await expect(page.getByRole('alert')).toHaveCount(0);
});

test('an algorithm whose code cannot load leaves the lab on Raft, and says so', async ({
  page,
  problems,
}) => {
  await page.route(OTHER_ALGORITHM, (route) => route.abort());
  await openLab(page, 'algorithm=bully&speed=16');
  await expect(page.getByRole('alert')).toContainText(
    'the Bully algorithm could not be loaded (offline?): opened Raft',
  );
  // Raft's words on the stage: its nodes count terms.
  const leader = await waitForLeader(page);
  expect(leader.term).toBeGreaterThan(0);
  // The failed requests are this test's doing; anything else the page logged still fails it.
  const ours = (p: string) => /bully|Failed to load resource|net::ERR_FAILED/.test(p);
  problems.splice(0, problems.length, ...problems.filter((p) => !ours(p)));
});

test('the last algorithm chosen is the one that runs, even when an earlier choice loads later', async ({
  page,
}) => {
  await openLab(page, 'algorithm=raft&speed=16');
  // Bully's code is held back until Raft (whose code is already here) has been chosen after it.
  let release = () => {};
  const held = new Promise<void>((done) => (release = done));
  await page.route(/\/assets\/bully-[\w-]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  const bullyCame = page.waitForResponse(/\/assets\/bully-[\w-]+\.js$/);
  await openTab(page, 'Setup');
  const bully = page.getByTestId('algorithm-picker').getByRole('button', { name: /^Bully\b/ });
  await bully.click();
  // While its code is on its way, the choice says so; a later choice takes that back.
  await expect(bully).toHaveAttribute('aria-busy', 'true');
  await chooseAlgorithm(page, 'Raft');
  await expect(bully).not.toHaveAttribute('aria-busy');
  const raftRun = await simMs(page);
  release();
  await bullyCame;
  await page.waitForTimeout(300);
  // The run goes on with Raft: the same choice pressed, and its clock not started again.
  await expect(picked(page)).toHaveText(/^Raft\b/);
  expect(await simMs(page)).toBeGreaterThanOrEqual(raftRun);
  await page.locator('[data-testid^="node-"][data-role]').first().scrollIntoViewIfNeeded();
  const leader = await waitForLeader(page);
  expect(leader.term, "Raft's words on the stage: its nodes count terms").toBeGreaterThan(0);
});
