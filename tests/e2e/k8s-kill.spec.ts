// Kubernetes' Lease in free play: kill the holder and a challenger takes the Lease once
// LeaseDuration has passed since it last saw the record change (the last renewal, up to a
// RetryPeriod of 2 s before the kill), within one more acquire try (RetryPeriod x [1, 2.2)), with
// leaderTransitions one higher (the token); the event log says who acquired it and when.
import { expect, eventLog, openLab, openTab, selectNode, stageLeaders, test, waitForLeader } from './lab';

test.use({ viewport: { width: 1280, height: 800 } });
test.describe.configure({ timeout: 90_000 });

test("k8s-lease: a killed holder's Lease is taken by another replica, one transition later", async ({
  page,
}) => {
  await openLab(page, 'algorithm=k8s-lease&speed=16');
  const first = await waitForLeader(page, [], 60_000);

  await selectNode(page, first.id);
  await page.getByRole('button', { name: `Kill ${first.id}` }).click();
  const second = await waitForLeader(page, [first.id], 60_000);
  // The token is leaderTransitions: +1 on a change of holder.
  expect(second.term).toBe(first.term + 1);
  await expect(stageLeaders(page)).toHaveCount(1);

  await openTab(page, 'Events');
  await eventLog(page).scrollIntoViewIfNeeded();
  const became = `${second.id} became holder (leaderTransitions ${first.term + 1})`;
  await expect(eventLog(page)).toContainText(became);
  // No replica may take the Lease before LeaseDuration (15 s) has passed on its own clock since it
  // last saw the record change: at the latest, the holder's last renewal before it was killed.
  const log = await eventLog(page).innerText();
  const at = (text: string) => {
    const line = log.split('\n').find((l) => l.includes(text));
    return Number(/^([\d.]+) s/.exec(line ?? '')?.[1]);
  };
  const gap = at(became) - at(`killed ${first.id}`);
  expect(gap).toBeGreaterThan(15 - 2);
  expect(gap).toBeLessThan(15 + 2 * 2.2 + 1);
});
