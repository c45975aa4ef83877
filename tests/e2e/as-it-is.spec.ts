// Each algorithm as it is, in Chromium: the page says of each algorithm only what its own
// description (src/engine/algorithms/pages/) says. A safety switch is offered only where the
// system has the mechanism, with the reason where it has not; the hint under the stage says what a
// split does under Kubernetes and Pacemaker; etcd's failover timeline names a create revision, not a
// term; and the lease dial explains client-go's renewal round.
import {
  SLOW,
  WHOLE_PAGE,
  chainScene,
  expect,
  openLab,
  selectNode,
  stageLeaders,
  test,
  waitForLeader,
} from './lab';

test.use(WHOLE_PAGE);

test('Redis Sentinel: no Fencing switch, and the reason; the chain says nothing checks a token', async ({
  page,
}) => {
  await openLab(page, 'algorithm=redis-sentinel&nodes=3&speed=4');
  await expect(stageLeaders(page)).toHaveCount(1);
  await expect(page.getByRole('switch', { name: /^Fencing/ })).toHaveCount(0);
  await expect(page.getByTestId('no-switch-fencing')).toHaveText(
    "Fencing: not offered. Redis Sentinel has no fencing token: nothing checks the epoch, so an old primary's writes are accepted, then lost when it resyncs as a replica.",
  );
  await expect(chainScene(page).getByTestId('no-token')).toContainText(
    'no token check: Redis Sentinel has no fencing token',
  );
  await expect(chainScene(page).getByTestId('writes-lost')).toHaveText(
    '0 acknowledged writes lost on resync',
  );
  await expect(page.getByTestId('metric-writes-lost')).toHaveText('acknowledged writes lost: 0');
  // Kubernetes, with a token, keeps its switch and says nothing of lost writes.
  await openLab(page, 'algorithm=k8s-lease&speed=4');
  await expect(page.getByRole('switch', { name: /^Fencing/ })).toBeChecked();
  await expect(page.getByTestId('no-switch-fencing')).toHaveCount(0);
  await expect(page.getByTestId('metric-writes-lost')).toHaveCount(0);
});

test('the advanced switches fold under Advanced, each saying what it shows; CheckQuorum is reachable by keyboard', async ({
  page,
}) => {
  await openLab(page, 'algorithm=raft&speed=4');
  const advanced = page.getByTestId('safety-advanced');
  await expect(advanced.getByRole('switch', { name: /^CheckQuorum/ })).toBeHidden();
  await advanced.locator('summary').focus();
  await page.keyboard.press('Enter');
  const checkQuorum = advanced.getByRole('switch', { name: /^CheckQuorum/ });
  await expect(checkQuorum).toBeVisible();
  await expect(advanced).toContainText(
    'The lesson’s Try it 2 (isolate the leader, then reconnect it) needs it off.',
  );
  await checkQuorum.focus();
  await page.keyboard.press('Space');
  await expect(checkQuorum).not.toBeChecked();
  await expect(page.getByTestId('safety-banner')).toContainText('Safety off: checkQuorum.');
});

test('a Kubernetes Lease split: the hint says replicas do not vote, not that a majority side elects', async ({
  page,
}) => {
  await openLab(page, 'algorithm=k8s-lease&speed=8');
  await waitForLeader(page);
  await page.getByRole('button', { name: 'Split 2 | 3' }).click();
  const hint = page.getByTestId('next-hint');
  await expect(hint).toContainText(
    'the network is split: replicas do not vote: only a replica that reaches the API server, with a majority of etcd behind it, can renew or take the Lease.',
  );
  await expect(hint).not.toContainText('only a side with a majority can elect');
});

test('Pacemaker split: the hint says STONITH leaves one primary, not that each side elects its own', async ({
  page,
}) => {
  await openLab(page, 'algorithm=pacemaker&speed=4');
  await expect(stageLeaders(page)).toHaveCount(1);
  await page.getByRole('button', { name: 'Split 2 | 3' }).click();
  const hint = page.getByTestId('next-hint');
  await expect(hint).toContainText(
    'a replica is promoted only once the fence device confirms the old primary is off, so one primary at most remains.',
  );
  await expect(hint).not.toContainText('each side can elect its own');
});

test("etcd's failover timeline names the token a create revision's word, not a term", async ({ page }) => {
  await openLab(page, 'algorithm=etcd-election&speed=16');
  const old = await waitForLeader(page);
  await selectNode(page, old.id);
  await page.getByRole('button', { name: `Kill ${old.id}` }).click();
  await expect(stageLeaders(page)).toHaveCount(1, SLOW);
  // The timeline is on the first screen, beside the chart.
  const timeline = page.getByTestId('failover-timeline');
  await expect(timeline.locator('.failover-label').first()).toContainText(/\(revision \d+\)/, {
    timeout: 60_000,
  });
  await expect(timeline).not.toContainText(/\(term \d+\)/);
});

test("the lease dial explains client-go's round: RetryPeriod, then RenewDeadline from the round's start", async ({
  page,
}) => {
  await openLab(page, 'algorithm=k8s-lease&speed=2');
  const caption = chainScene(page).getByTestId('lease-caption');
  await expect(caption).toContainText(/RenewDeadline 10 s/, { timeout: 60_000 });
  // Once a round is under way its deadline reads past 10 s, and says why.
  await expect(caption).toContainText(
    /round fails at 1[2-3]\.\d s: began 2\.\d s after, \+ RenewDeadline 10 s/,
    SLOW,
  );
  await chainScene(page).getByText('Why that deadline?').click();
  await expect(chainScene(page).getByTestId('lease-round')).toHaveText(
    'client-go renews in rounds: a round starts 2 s (RetryPeriod) after the last success and tries every 2 s; a try times out at 5 s (RenewDeadline / 2), and the round fails 10 s (RenewDeadline) after it began, so a silent holder stops about 12 s after its last renewal',
  );
});
