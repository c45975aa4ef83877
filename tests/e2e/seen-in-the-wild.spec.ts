// "Seen in the wild" in Chromium: every preset is offered in Setup, and the two systems without a
// token open as their presets describe. Redis Sentinel: three sentinels drawn beside the servers,
// n1 the primary, no Fencing switch (Redis has no token); cut off and healed, n1 rejoins as a
// replica, and the chain, the chart and the event log count the writes it lost. Pacemaker with STONITH: the
// cluster managers and the fence device; a hung primary is powered off by the fence device before
// a replica is promoted, and the event log says so in that order.
import { readdirSync } from 'node:fs';
import {
  SLOW,
  WHOLE_PAGE,
  chainScene,
  eventLog,
  expect,
  logTimeOf,
  openLab,
  openTab,
  picked,
  selectNode,
  stageLeaders,
  test,
} from './lab';

test.use(WHOLE_PAGE);

const PRESET_FILES = readdirSync(new URL('../../scenes/presets/', import.meta.url)).filter((f) =>
  f.endsWith('.json'),
);

// Generous: the test's own limit is 90 s, and a loaded machine draws fewer frames per second.
const SENTINEL_FAILOVER = { timeout: 60_000 };

test('Setup offers every preset; Redis Sentinel opens with its sentinels and no token check, and a cut-off primary loses its writes on heal', async ({
  page,
}) => {
  // The sentinels wait 30 s of simulated time (down-after-milliseconds) before the failover: at the
  // fastest speed that is under a second of wall time on an idle machine, and a frame is capped,
  // so a loaded machine stretches it; the waits below allow for that.
  await openLab(page, 'speed=64');
  await openTab(page, 'Setup');
  const presets = page.getByRole('list', { name: 'Seen in the wild' }).getByRole('button');
  await expect(presets).toHaveCount(PRESET_FILES.length);
  await page
    .getByRole('button', { name: 'Redis Sentinel (a primary, two replicas, three sentinels)' })
    .click();

  await expect(picked(page)).toHaveAttribute('data-algorithm', 'redis-sentinel');
  const stage = page.getByRole('group', { name: 'Cluster stage' });
  const sentinels = stage.getByRole('group', { name: 'Sentinel' });
  for (const id of ['s1', 's2', 's3']) {
    await expect(sentinels.getByTestId(`service-${id}`)).toHaveAttribute('data-alive', 'true');
  }
  await expect(stage.locator('[data-testid^="node-"][data-role]')).toHaveCount(3);
  // The configuration names n1 the primary from the start.
  await expect(stageLeaders(page)).toHaveCount(1);
  await expect(stageLeaders(page).first()).toHaveAttribute('data-testid', 'node-n1');
  await expect(page.getByTestId('stage-legend')).toContainText('sentinel PING');
  await expect(page.getByTestId('stage-legend')).toContainText('REPLCONF ACK');
  // Redis has no token: the Safety panel offers no Fencing switch, and says why.
  await expect(page.getByRole('switch', { name: /^Fencing/ })).toHaveCount(0);
  await expect(page.getByTestId('no-switch-fencing')).toContainText('Redis Sentinel has no fencing token');

  // The game day by hand: cut n1 off; the sentinels promote a replica while n1 still takes writes;
  // heal, and n1 rejoins as a replica, losing what the new primary never had. Which replica is
  // promoted depends on their replication offsets at the moment of the cut (Sentinel's order), and
  // the cut's moment depends on when the click lands, so the test takes the one promoted.
  await selectNode(page, 'n1');
  await page.getByRole('button', { name: 'Isolate n1' }).click();
  await expect(stageLeaders(page)).toHaveCount(2, SENTINEL_FAILOVER);
  const promoted = await stage
    .locator('[data-testid="node-n2"][data-role="leader"], [data-testid="node-n3"][data-role="leader"]')
    .getAttribute('data-testid');
  const next = promoted!.replace('node-', '');
  await expect(stage.getByTestId('node-n1')).toHaveAttribute('data-role', 'leader');
  await page.getByRole('button', { name: 'Heal the network' }).click();
  await expect(stageLeaders(page)).toHaveCount(1, SENTINEL_FAILOVER);
  await expect(stageLeaders(page).first()).toHaveAttribute('data-testid', `node-${next}`);
  // The writes n1 acknowledged and lost are counted on the chain and on the chart, not only in
  // the log, and the three agree.
  const lost = chainScene(page).getByTestId('writes-lost');
  await expect(lost).toHaveText(/^\s*[1-9]\d* acknowledged writes lost on resync$/, SENTINEL_FAILOVER);
  const count = (await lost.innerText()).trim().split(' ')[0];
  await expect(page.getByTestId('metric-writes-lost')).toHaveText(`acknowledged writes lost: ${count}`);
  await openTab(page, 'Events');
  await expect(eventLog(page)).toContainText('n1 stopped leading epoch 0: reconfigured as a replica');
  await expect(eventLog(page)).toContainText(
    new RegExp(`n1 resynchronised from ${next}: ${count} writes it had accepted are lost`),
  );
});

test('Pacemaker with STONITH: a hung primary is powered off before a replica is promoted', async ({
  page,
}) => {
  await openLab(page, 'speed=4');
  await openTab(page, 'Setup');
  await page.getByRole('button', { name: /^Pacemaker with STONITH \(a primary/ }).click();
  await expect(picked(page)).toHaveAttribute('data-algorithm', 'pacemaker');
  const stage = page.getByRole('group', { name: 'Cluster stage' });
  await expect(stage.getByTestId('service-f1')).toHaveText('Fence f1');
  for (const id of ['s1', 's2', 's3']) {
    await expect(stage.getByRole('group', { name: 'Pacemaker' }).getByTestId(`service-${id}`)).toBeVisible();
  }
  await expect(stageLeaders(page).first()).toHaveAttribute('data-testid', 'node-n1');

  await selectNode(page, 'n1');
  await page.getByRole('button', { name: 'Pause n1 for 6 s, longer than the token timeout (3 s)' }).click();
  // Lost after Corosync's 3 s token, fenced, then a replica promoted (the one further along, as
  // with the sentinels): seconds of simulated time.
  await expect(stageLeaders(page).first()).toHaveAttribute('data-testid', /^node-n[23]$/, SLOW);
  const next = (await stageLeaders(page).first().getAttribute('data-testid'))!.replace('node-', '');
  await expect(stage.getByTestId('node-n1')).toHaveAttribute('data-role', 'dead');
  await openTab(page, 'Events');
  const log = eventLog(page);
  await expect(log).toContainText('n1 stopped leading epoch 0: powered off by STONITH');
  await expect(log).toContainText(`${next} became primary (epoch 1)`);
  // Fenced first, promoted after.
  const fencedAt = await logTimeOf(page, /n1 stopped leading epoch 0: powered off by STONITH/);
  const promotedAt = await logTimeOf(page, new RegExp(`${next} became primary \\(epoch 1\\)`));
  expect(promotedAt).toBeGreaterThanOrEqual(fencedAt);
});
