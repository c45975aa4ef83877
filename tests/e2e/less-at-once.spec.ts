// Less at once: a node's actions in a menu on the node (mouse, keyboard, a phone), every way out
// of the page under Export (the embed snippets too), the game days grouped under the lesson's
// questions, a step that names a view below the fold bringing it into view, and the space-time
// diagram opening on what its step is about, with a key to every label it draws.
import { readdirSync, readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { SCENES } from '../../src/shared/scenes';
import { expect, openLab, openTab, SLOW, stageNode, test, waitForLeader } from './lab';

const SCENARIOS = readdirSync(new URL('../../scenes/scenarios/', import.meta.url)).map((file) => {
  const s = JSON.parse(readFileSync(new URL(`../../scenes/scenarios/${file}`, import.meta.url), 'utf8'));
  return { file, id: s.id as string, title: s.title as string };
});

const QUESTIONS = [
  'What is split brain, and why does a quorum requirement prevent it?',
  "Why aren't quorums alone sufficient? What else do you need?",
  'How long does failover actually take, and what dominates it?',
  'Why do coordination clusters use odd numbers of nodes?',
  'When can you avoid leader election entirely, and why is that better?',
];

const menu = (page: Page) => page.getByTestId('node-menu');

test('a click on a node opens its actions beside it, and an action there closes it', async ({ page }) => {
  await openLab(page, 'speed=16');
  const leader = await waitForLeader(page);
  await stageNode(page, leader.id).click();
  await expect(menu(page)).toBeVisible();
  await expect(menu(page)).toHaveAccessibleName(`Actions for ${leader.id}`);
  await expect(menu(page)).toBeInViewport({ ratio: 1 });
  // The panel keeps the node's status and leaves the buttons to the menu: one Kill on the page.
  await expect(page.getByTestId('node-menu-note')).toBeVisible();
  await expect(page.getByRole('button', { name: `Kill ${leader.id}` })).toHaveCount(1);
  await menu(page)
    .getByRole('button', { name: `Kill ${leader.id}` })
    .click();
  await expect(stageNode(page, leader.id)).toHaveAttribute('data-role', 'dead');
  await expect(menu(page)).toHaveCount(0);
  // Closed, the menu hands its actions back to the panel: the node is still selected there.
  await expect(page.getByRole('button', { name: `Restart ${leader.id}` })).toBeVisible();
});

test('the node menu by keyboard: Enter opens it, arrows move, Esc closes and gives focus back', async ({
  page,
}) => {
  await openLab(page, 'paused');
  const node = stageNode(page, 'n2');
  await node.focus();
  await page.keyboard.press('Enter');
  await expect(menu(page)).toBeVisible();
  await expect(menu(page).getByRole('button', { name: 'Kill n2' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(menu(page).getByRole('button', { name: /^Pause n2 for 5 s/ })).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  // Round from the first to the last control.
  await expect(menu(page).getByRole('combobox', { name: 'Clock rate of n2' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(menu(page)).toHaveCount(0);
  await expect(node).toBeFocused();
  // Enter on the focused menu item acts, and focus goes back to the node.
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await expect(node).toHaveAttribute('data-role', 'dead');
  await expect(node).toBeFocused();
});

test('on a phone the node menu is on screen, beside the stage', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openLab(page, 'paused');
  for (const id of ['n1', 'n3', 'n4']) {
    await stageNode(page, id).click();
    await expect(menu(page)).toBeVisible();
    await expect(menu(page), `${id}'s menu`).toBeInViewport({ ratio: 1 });
    await expect(menu(page).getByRole('button', { name: `Isolate ${id}` })).toBeInViewport();
    await page.keyboard.press('Escape');
    await expect(menu(page)).toHaveCount(0);
  }
});

test('Embed is under Export, once per scene, and no longer over each scene', async ({ page }) => {
  await openLab(page, 'paused');
  await expect(page.getByTestId('play')).toBeVisible();
  await expect(page.getByRole('button', { name: /^Embed the / })).toHaveCount(0);
  await openTab(page, 'Export');
  const embeds = page.getByTestId('export-embeds');
  for (const scene of SCENES)
    await expect(embeds.getByRole('button', { name: `Embed the ${scene.name}` })).toHaveCount(1);
  await embeds.getByRole('button', { name: 'Embed the space-time diagram' }).click();
  const dialog = page.getByRole('dialog', { name: 'Embed the space-time diagram' });
  await expect(dialog.getByTestId('embed-iframe')).toHaveValue(/scene=spacetime/);
});

test('the game days are grouped under the lesson’s questions, each in one group, and the menu fits', async ({
  page,
}) => {
  await openLab(page, 'paused');
  await expect(page.getByTestId('play')).toBeVisible();
  const picker = page.getByRole('navigation', { name: 'Game days' });
  await picker.locator('summary').first().click();
  const groups = picker.locator('details.picker-group');
  await expect(groups).toHaveCount(7);
  const titles = await groups.locator('> summary').allInnerTexts();
  expect(titles.map((t) => t.replace(/\s*\(\d+\)$/, ''))).toEqual([
    ...QUESTIONS,
    'Algorithms',
    'Seen in the wild',
  ]);
  // Every game day in exactly one group.
  const listed = await groups.evaluateAll((els) =>
    els.flatMap((g) =>
      [...g.querySelectorAll('a[data-testid^="scenario-"]')].map((a) =>
        a.getAttribute('data-testid')!.slice('scenario-'.length),
      ),
    ),
  );
  expect([...listed].sort()).toEqual(SCENARIOS.map((s) => s.id).sort());
  // Titles, and no file numbers in them.
  for (const s of SCENARIOS) {
    const number = /^(\d+)([ab]?)-/.exec(s.file)!;
    const link = picker.getByTestId(`scenario-${s.id}`);
    await expect(link.locator('strong')).toHaveText(s.title);
    expect(s.title).not.toMatch(new RegExp(`\\b0?${Number(number[1])}${number[2]}\\b`));
  }
  // Shut, the groups fit the screen; a group opens with the keyboard.
  const pop = picker.locator('.picker-pop');
  const box = (await pop.boundingBox())!;
  expect(box.y + box.height).toBeLessThanOrEqual(800);
  await groups.nth(1).locator('> summary').focus();
  await page.keyboard.press('Enter');
  await expect(picker.getByTestId('scenario-gc-pause-long')).toBeVisible();
  await expect(picker.getByTestId('scenario-gc-pause-long')).toBeInViewport();
});

test('a step that names a view under the fold selects its tab and brings it into view', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  // Step 1 of the ZooKeeper game day: "watch the znode queue".
  await openLab(page, 'scenario=zookeeper-watch-predecessor&paused');
  await expect(page.getByTestId('guided')).toContainText('step 1 of');
  const tab = page.getByRole('tab', { name: 'Znode queue', exact: true });
  await expect(tab).toHaveAttribute('aria-selected', 'true');
  await expect(tab).toBeInViewport(SLOW);
  await expect(page.locator('#more-panel-znodes')).toBeInViewport(SLOW);
});

/** Boxes of the words drawn on the diagram that overlap one another, by their text. */
async function overlappingLabels(page: Page): Promise<string[]> {
  return page.locator('.spacetime-svg').evaluate((svg) => {
    const boxes = [...svg.querySelectorAll('.st-mark-label, .st-span-label')].map((el) => ({
      text: el.textContent ?? '',
      r: el.getBoundingClientRect(),
    }));
    const out: string[] = [];
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i].r;
        const b = boxes[j].r;
        if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1)
          out.push(`${boxes[i].text} / ${boxes[j].text}`);
      }
    return out;
  });
}

test('the space-time diagram opens on what the step is about, with a key to every label it draws', async ({
  page,
}) => {
  test.setTimeout(120_000);
  // gc-pause-long step 5: n1's zombie write reaches storage and is rejected.
  await page.setViewportSize({ width: 1280, height: 2400 });
  await openLab(page, 'scenario=gc-pause-long&step=5&speed=1&paused');
  await expect(page.getByTestId('guided')).toContainText('step 5 of 7');
  await openTab(page, 'Space-time diagram');
  const scene = page.getByTestId('spacetime');
  const svg = scene.locator('.spacetime-svg');
  await expect(svg).toBeVisible(SLOW);
  // Filtered to the step: only n1, n2 and storage, and only writes and their verdicts.
  await expect(scene.getByTestId('spacetime-step-filter')).toBeVisible();
  await expect
    .poll(() => svg.locator('.st-lane').evaluateAll((els) => els.map((e) => e.getAttribute('data-lane'))))
    .toEqual(['n1', 'n2', 'storage']);
  const types = await svg
    .locator('.st-arrow')
    .evaluateAll((els) => [...new Set(els.map((e) => e.getAttribute('data-type')))]);
  expect(types.length).toBeGreaterThan(0);
  expect(types.every((t) => t === 'write' || t === 'writeRejected')).toBe(true);
  await expect(svg.locator('.st-mark-label[data-key="✗"]')).not.toHaveCount(0);

  const key = scene.getByTestId('spacetime-key');
  const keys = new Set(
    await key.locator('[data-key]').evaluateAll((els) => els.map((e) => e.getAttribute('data-key'))),
  );
  const check = async (when: string) => {
    const drawn = await svg
      .locator('text')
      .evaluateAll((els) =>
        els
          .filter((e) => !e.closest('.st-lane, .st-tick, .st-cursor'))
          .map((e) => ({ key: e.getAttribute('data-key'), text: e.textContent })),
      );
    expect(drawn.length, when).toBeGreaterThan(0);
    for (const d of drawn) expect(keys.has(d.key), `${when}: "${d.text}" is in the key`).toBe(true);
    expect(await overlappingLabels(page), `${when}: labels that overlap`).toEqual([]);
  };
  await check('filtered to the step');
  // Every lane and every kind shown: still every label keyed, and none over another.
  for (const box of await scene.locator('.spacetime-filter input[type="checkbox"]').all())
    if (!(await box.isChecked())) await box.check();
  await expect.poll(() => svg.locator('.st-lane').count()).toBeGreaterThan(3);
  await check('everything shown');
});

test('a step about some messages offers the space-time diagram, and its button brings the diagram into view', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  // Step 4 has no filter: no button. Step 5 (the zombie write) names n1, n2, storage, writes and rejections.
  await openLab(page, 'scenario=gc-pause-long&step=4&speed=1&paused');
  await expect(page.getByTestId('guided')).toContainText('step 4 of 7');
  await expect(page.getByTestId('guided-spacetime')).toHaveCount(0);
  await openLab(page, 'scenario=gc-pause-long&step=5&speed=1&paused');
  await expect(page.getByTestId('guided')).toContainText('step 5 of 7');
  const button = page.getByTestId('guided-spacetime');
  await expect(button.locator('..')).toContainText('(lanes n1, n2, storage; write, reject messages only)');
  await button.click();
  const tab = page.getByRole('tab', { name: 'Space-time diagram' });
  await expect(tab).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator('.spacetime-svg')).toBeVisible(SLOW);
  await expect(tab).toBeInViewport();
  await expect
    .poll(() =>
      page
        .locator('.spacetime-svg .st-lane')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-lane'))),
    )
    .toEqual(['n1', 'n2', 'storage']);
});
