// A Kubernetes Lease lab in Chromium, as a reader builds it: the algorithm picked in Setup, the API
// server and three etcd members drawn on the stage beside the replicas, and two of the members
// killed from the stage and the node panel. With no majority the store commits nothing, so the
// holder's renewals fail (the chain's lease ring counts past its RetryPeriod) and it stops leading
// at its RenewDeadline; no one can acquire in its place.
import {
  SLOW,
  WHOLE_PAGE,
  chainScene,
  eventLog,
  expect,
  logTimeOf,
  openLab,
  openTab,
  pauseLab,
  playLab,
  simMs,
  stageLeaders,
  test,
  waitForLeader,
} from './lab';

// The stage, the chain and the event log are read while the lab plays: all of them on screen.
test.use(WHOLE_PAGE);

/** client-go's defaults, which the lab's Kubernetes Lease uses. */
const RENEW_DEADLINE_MS = 10_000;
const RETRY_PERIOD_MS = 2_000;
/** A renewal's round trip on the page's default network, plus the log's rounding. */
const LATE_MS = 300;

test('killing two of the three etcd members makes the holder stop leading at its renew deadline', async ({
  page,
}) => {
  // The first screen is Kubernetes' Lease.
  await openLab(page, 'speed=4');

  const stage = page.getByRole('group', { name: 'Cluster stage' });
  await expect(stage.getByTestId('service-api')).toHaveText('API server');
  const etcd = stage.getByRole('group', { name: 'etcd' });
  for (const id of ['m1', 'm2', 'm3']) {
    await expect(etcd.getByTestId(`service-${id}`)).toHaveAttribute('data-alive', 'true');
  }
  await expect(page.getByTestId('stage-legend')).toContainText('update Lease');

  const holder = await waitForLeader(page);
  await pauseLab(page);
  // m1 from the stage (a click on its box), m2 from the node panel's picker.
  await etcd.getByTestId('service-m1').click();
  await page.getByRole('button', { name: 'Kill m1' }).click();
  await page.getByRole('button', { name: 'Select m2', exact: true }).click();
  await page.getByRole('button', { name: 'Kill m2' }).click();
  await expect(etcd.getByTestId('service-m1')).toHaveAttribute('data-alive', 'false');
  await expect(etcd.getByTestId('service-m2')).toHaveAttribute('data-alive', 'false');
  await expect(etcd.getByTestId('service-m3')).toHaveAttribute('data-alive', 'true');
  const killedAtMs = await simMs(page);

  await openTab(page, 'Events');
  await expect(eventLog(page)).toContainText('killed etcd m2');
  await playLab(page);

  // Renewals fail: the holder still leads, but its last renewal is older than a RetryPeriod and
  // keeps growing (the lease ring under the chain's second step says how old).
  const words = chainScene(page).locator('.chain-lease-words');
  await expect
    .poll(
      async () => {
        const m = /renewed ([\d.]+) s ago/.exec(await words.innerText());
        const leading = await stageLeaders(page).count();
        return m && leading === 1 ? parseFloat(m[1]) * 1000 : 0;
      },
      { message: 'the holder leads on with its last renewal ever older', ...SLOW },
    )
    .toBeGreaterThan(2 * RETRY_PERIOD_MS);

  // It gives up at the renew deadline of the first round that could not commit: that round began
  // within a RetryPeriod of the last renewal that landed, so the step-down comes within
  // RenewDeadline of it. A renewal in flight at the kill still lands, a network delay later, and
  // the log's times are to a tenth of a second: LATE_MS allows for both.
  await expect(stageLeaders(page)).toHaveCount(0, SLOW);
  const stepDown = new RegExp(`${holder.id} stopped leading leaderTransitions \\d+: renew deadline passed`);
  await expect(eventLog(page)).toContainText(stepDown);
  const stoppedAtMs = await logTimeOf(page, stepDown);
  expect(stoppedAtMs - killedAtMs).toBeGreaterThan(RENEW_DEADLINE_MS - RETRY_PERIOD_MS);
  expect(stoppedAtMs - killedAtMs).toBeLessThanOrEqual(RENEW_DEADLINE_MS + RETRY_PERIOD_MS + LATE_MS);

  // With one member of three, nobody can acquire the Lease in its place, however long it waits
  // (the speed slider's End key runs the lab at its fastest, 64x).
  await page.getByRole('slider', { name: 'Speed' }).press('End');
  await expect.poll(() => simMs(page), SLOW).toBeGreaterThan(stoppedAtMs + 3 * RENEW_DEADLINE_MS);
  await expect(stageLeaders(page)).toHaveCount(0);
});

for (const [algorithm, ids] of [
  ['k8s-lease', ['api', 'm1', 'm2', 'm3']],
  ['zookeeper', ['z1', 'z2', 'z3']],
  ['redis-sentinel', ['s1', 's2', 's3']],
  ['pacemaker', ['f1', 's1', 's2', 's3']],
] as const) {
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    test(`${algorithm} at ${viewport.width}x${viewport.height}: the services and their store's name clear every node's words and the storage`, async ({
      page,
    }) => {
      await page.setViewportSize(viewport);
      await openLab(page, `algorithm=${algorithm}&speed=4`);
      await waitForLeader(page);
      const { services, name, others } = await page.evaluate(() => {
        const box = (el: Element, what: string) => {
          const r = el.getBoundingClientRect();
          return { l: r.left, t: r.top, r: r.right, b: r.bottom, what };
        };
        const svg = document.querySelector('.cluster-svg')!;
        return {
          services: [...svg.querySelectorAll('[data-testid^="service-"] .service-box')].map((el) =>
            box(el, el.parentElement!.getAttribute('data-testid')!),
          ),
          name: [...svg.querySelectorAll('.ensemble-name')].map((t) => box(t, `name "${t.textContent}"`)),
          others: [
            ...[...svg.querySelectorAll('[data-testid^="node-"] text')]
              .filter((t) => t.getClientRects().length > 0)
              .map((t) => box(t, `"${t.textContent}"`)),
            box(svg.querySelector('[data-testid="storage"] path')!, 'storage'),
          ],
        };
      });
      expect(services.map((s) => s.what).sort()).toEqual(ids.map((id) => `service-${id}`));
      expect(name).toHaveLength(1);
      expect(others.length).toBeGreaterThan(10);
      const hits = [...services, ...name].flatMap((s) =>
        [...others, ...(s === name[0] ? services : [])]
          .filter((o) => s.l < o.r - 0.5 && o.l < s.r - 0.5 && s.t < o.b - 0.5 && o.t < s.b - 0.5)
          .map((o) => `${s.what} covers ${o.what}`),
      );
      expect(hits).toEqual([]);
    });
  }
}
