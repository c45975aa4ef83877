import {
  SLOW,
  banner,
  eventLog,
  expect,
  logTimeOf,
  nodeIds,
  openLab,
  pauseLab,
  playLab,
  roleOf,
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
import type { Page } from '@playwright/test';

test.describe.configure({ timeout: 90_000 });

// These tests are Raft's (CheckQuorum, terms): their links open Raft, with the page's teaching
// preset (heartbeat 1 s, election timeout 5 s).
const ELECTION_TIMEOUT_MS = 5_000;

/** The two sides of the partition as the Network panel states them: "Now: n1 n2 | n3 n4 n5". */
async function sides(page: Page): Promise<string[][]> {
  const hint = page.getByText(/^Now: /);
  await expect(hint).toBeVisible();
  const text = (await hint.innerText()).replace(/^Now:\s*/, '');
  return text.split('|').map((g) => g.trim().split(/\s+/));
}

/**
 * After a 2|3 split: the minority's old leader steps down at its next CheckQuorum (it has not heard
 * from a quorum for an election timeout), the minority stays leaderless, and the majority elects
 * its own leader.
 */
async function expectMinorityLeaderless(
  page: Page,
  old: Leader,
  minority: string[],
  majority: string[],
): Promise<void> {
  // Still paused at the moment of the split: read it, then let the cluster react.
  await expect(page.getByTestId('partition-group'), 'the stage draws both groups').toHaveCount(2);
  const partitionedAtMs = await logTimeOf(page, /partitioned the network/);
  await expect(stageNode(page, old.id), 'the split itself changes no role').toHaveAttribute(
    'data-role',
    'leader',
  );
  await playLab(page);

  if (minority.includes(old.id)) {
    const stepDown = new RegExp(`${old.id} stopped leading term ${old.term}: lost contact with a quorum`);
    await expect(eventLog(page)).toContainText(stepDown, SLOW);
    const stepDownAtMs = await logTimeOf(page, stepDown);
    // etcd's leader checks every election timeout that a quorum was active since the last check:
    // the first check after the split may still count replies from before it, the second cannot.
    expect(stepDownAtMs - partitionedAtMs).toBeLessThanOrEqual(2 * ELECTION_TIMEOUT_MS + 100);
    expect(stepDownAtMs).toBeGreaterThan(partitionedAtMs);
  }

  const next = minority.includes(old.id) ? await waitForLeader(page, minority) : old;
  expect(majority, 'the leader is on the majority side').toContain(next.id);
  if (next.id !== old.id) expect(next.term).toBeGreaterThan(old.term);

  // Well past every timeout, the minority still has nobody leading, and the majority exactly one.
  await waitForSimMs(page, Math.max(await simMs(page), partitionedAtMs + 25_000), 40_000);
  for (const id of minority) {
    expect(await roleOf(page, id), `${id} (minority) is not a leader`).not.toBe('leader');
  }
  const majorityLeaders = [];
  for (const id of majority) if ((await roleOf(page, id)) === 'leader') majorityLeaders.push(id);
  expect(majorityLeaders, 'one leader on the majority side').toHaveLength(1);
  await expect(banner(page)).toHaveAttribute('data-state', 'safe');
}

test('a 2|3 partition built with the group pickers, leader in the minority: the minority has no leader', async ({
  page,
}) => {
  await openLab(page, 'algorithm=raft&speed=64');
  const old = await waitForLeader(page);
  // Set the partition up paused, so the moment it starts is the moment it was applied.
  await pauseLab(page);
  const ids = await nodeIds(page);
  expect(ids).toHaveLength(5);
  const buddy = ids.find((id) => id !== old.id)!;
  const minority = [old.id, buddy];
  const majority = ids.filter((id) => !minority.includes(id));

  await page.getByText('Build a partition').click();
  // Every node starts in group A; move the three majority nodes to group B.
  for (const id of majority) await page.getByRole('combobox', { name: `Group of ${id}` }).selectOption('1');
  await page.getByRole('button', { name: 'Partition', exact: true }).click();

  const [a, b] = await sides(page);
  expect([a.sort(), b.sort()]).toEqual([[...minority].sort(), [...majority].sort()]);
  await expectMinorityLeaderless(page, old, minority, majority);
});

test('the "Split 2 | 3" preset: whichever side the leader is on, only the majority ends up with a leader', async ({
  page,
}) => {
  await openLab(page, 'algorithm=raft&speed=64');
  const old = await waitForLeader(page);
  await pauseLab(page);
  await page.getByRole('button', { name: 'Split 2 | 3' }).click();
  const [minority, majority] = await sides(page);
  expect(minority).toHaveLength(2);
  expect(majority).toHaveLength(3);
  await expectMinorityLeaderless(page, old, minority, majority);

  // Healing brings the minority back under the majority's leader.
  await page.getByRole('button', { name: 'Heal the network' }).click();
  await expect(page.getByText('No partition.')).toBeVisible();
  await expect(page.getByTestId('partition-group')).toHaveCount(0);
  const leader = await waitForLeader(page);
  for (const id of minority)
    await expect(stageNode(page, id)).toHaveAttribute('data-term', String(leader.term), SLOW);
});
