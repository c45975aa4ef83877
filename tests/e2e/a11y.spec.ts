import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { banner, expect, openLab, openTab, pauseLab, selectNode, test, waitForLeader } from './lab';

// axe walks the whole page: on a busy machine one scan alone can take tens of seconds.
test.describe.configure({ timeout: 180_000 });

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * Scan the whole page, frozen (paused, transitions finished), so a colour-contrast result is
 * about the design and not about a frame caught mid-animation. The failure message lists each
 * rule with the elements it found, so it can be fixed without rerunning.
 */
async function expectNoViolations(page: Page, state: string): Promise<void> {
  await page.waitForTimeout(600);
  const { violations } = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  const report = violations.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help}\n` +
      v.nodes
        .slice(0, 8)
        .map((n) => `    ${n.target.join(' ')}  ${n.failureSummary?.split('\n').slice(1).join('; ')}`)
        .join('\n'),
  );
  expect(report, `axe violations in state "${state}"`).toEqual([]);
}

async function settled(page: Page, query = 'speed=16'): Promise<string> {
  await openLab(page, query);
  const leader = await waitForLeader(page);
  await pauseLab(page);
  return leader.id;
}

test('axe: the initial page', async ({ page }) => {
  await settled(page);
  await expectNoViolations(page, 'initial');
});

test("axe: the setup's algorithm picker, in both themes", async ({ page }) => {
  await settled(page);
  await openTab(page, 'Setup');
  await expect(page.getByTestId('algorithm-picker').getByRole('button')).toHaveCount(8);
  await expectNoViolations(page, 'setup picker, light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectNoViolations(page, 'setup picker, dark');
});

test('axe: a node selected', async ({ page }) => {
  const leader = await settled(page);
  await selectNode(page, leader);
  await expect(page.getByRole('button', { name: `Kill ${leader}` })).toBeVisible();
  await expectNoViolations(page, 'node selected');
});

test("axe: a node's menu open on the stage, and the game days with a group open", async ({ page }) => {
  const leader = await settled(page);
  await page.getByTestId(`node-${leader}`).click();
  await expect(page.getByTestId('node-menu')).toBeVisible();
  await expectNoViolations(page, 'node menu');
  await page.keyboard.press('Escape');
  const picker = page.getByRole('navigation', { name: 'Game days' });
  await picker.locator('summary').first().click();
  await picker.locator('details.picker-group > summary').first().click();
  await expect(picker.getByTestId('scenario-quorum-split-2-3')).toBeVisible();
  await expectNoViolations(page, 'game days');
});

test('axe: the space-time diagram filtered to its step, with its key', async ({ page }) => {
  await openLab(page, 'scenario=gc-pause-long&step=5&speed=1&paused');
  await openTab(page, 'Space-time diagram');
  await expect(page.getByTestId('spacetime-key')).toBeVisible();
  await expect(page.getByTestId('spacetime-step-filter')).toBeVisible();
  await expectNoViolations(page, 'space-time key');
});

test('axe: during a partition, with the partition builder open', async ({ page }) => {
  await openLab(page, 'speed=16');
  await waitForLeader(page);
  await page.getByRole('button', { name: 'Split 2 | 3' }).click();
  await page.getByText('Build a partition').click();
  await expect(page.getByTestId('partition-group')).toHaveCount(2);
  await page.waitForTimeout(1_000);
  await pauseLab(page);
  await expectNoViolations(page, 'partition');
});

test('axe: fencing off, with the red banner', async ({ page }) => {
  await openLab(page, 'speed=64');
  const leader = await waitForLeader(page);
  await page.getByRole('switch', { name: 'Fencing' }).click();
  await selectNode(page, leader.id);
  await page
    .getByRole('button', { name: `Pause ${leader.id} for 30 s, longer than the Lease (15 s)` })
    .click();
  await expect(banner(page)).toHaveAttribute('data-state', 'violated', { timeout: 45_000 });
  await pauseLab(page);
  await expectNoViolations(page, 'fencing off, stale write accepted');
});

test.describe('dark theme', () => {
  test.use({ colorScheme: 'dark' });

  test('axe: dark theme, after a failover', async ({ page }) => {
    const leader = await settled(page);
    await selectNode(page, leader);
    await page.getByRole('button', { name: `Kill ${leader}` }).click();
    await expectNoViolations(page, 'dark');
  });
});

/** The znode queue (the herd, its leader dead) and the leaderless comparison at its summary. */
async function newScenes(page: Page, state: string): Promise<void> {
  await openLab(page, 'scenario=zookeeper-herd-effect&step=2&speed=1');
  await pauseLab(page);
  await openTab(page, 'Znode queue');
  await expect(page.getByTestId('zq-row')).toHaveCount(9);
  await expectNoViolations(page, `${state}: znode queue`);
  await openTab(page, "Don't have a leader");
  for (let i = 0; i < 3; i++) await page.getByTestId('ll-next').click();
  await expect(page.getByTestId('ll-summary')).toBeVisible();
  await expectNoViolations(page, `${state}: leaderless summary`);
}

test('axe: the znode queue and the leaderless comparison', async ({ page }) => {
  await newScenes(page, 'light');
});

test.describe('dark theme, new scenes', () => {
  test.use({ colorScheme: 'dark' });

  test('axe: the znode queue and the leaderless comparison, dark', async ({ page }) => {
    await newScenes(page, 'dark');
  });
});
