// The page's smaller panels: the Embed dialog copies its snippet and offers the embed's options,
// the bad-link banner stands apart from what follows it, the game-day count matches the list,
// and "Check yourself" asks the reader to think before it shows an answer, linking each answer
// to its scenario by that scenario's own title.
import { readdirSync, readFileSync } from 'node:fs';
import { expect, openEmbed, openLab, openTab, test, waitForLeader } from './lab';

const titles = new Map(
  readdirSync(new URL('../../scenes/scenarios/', import.meta.url)).map((file) => {
    const s = JSON.parse(readFileSync(new URL(`../../scenes/scenarios/${file}`, import.meta.url), 'utf8'));
    return [s.id as string, s.title as string];
  }),
);

test('the Embed dialog copies its snippet and sets the theme, autoplay and controls', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await openLab(page, 'speed=4');
  await waitForLeader(page);
  const dialog = await openEmbed(page, 'fencing chain');
  await dialog.getByLabel('Theme').selectOption('dark');
  await dialog.getByLabel('Start playing at once').uncheck();
  await dialog.getByLabel('Controls').selectOption('none');
  const iframe = await dialog.getByTestId('embed-iframe').inputValue();
  expect(iframe).toContain('theme=dark');
  expect(iframe).toContain('autoplay=0');
  expect(iframe).toContain('controls=none');
  const element = await dialog.getByTestId('embed-element').inputValue();
  expect(element).toContain('theme="dark"');
  expect(element).toContain('autoplay="0"');
  await dialog.getByRole('button', { name: 'Copy the iframe' }).click();
  await expect(dialog.getByRole('status')).toContainText('Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(iframe);
});

test('the bad-link banner keeps its distance from what follows it', async ({ page }) => {
  await page.goto('/?nodes=12');
  const banner = page.getByTestId('link-problems');
  await expect(banner).toBeVisible();
  const gap = await banner.evaluate((el) => {
    const next = el.nextElementSibling as HTMLElement;
    return next.getBoundingClientRect().top - el.getBoundingClientRect().bottom;
  });
  expect(gap).toBeGreaterThanOrEqual(8);
});

test('the game days heading counts the scenarios its list numbers', async ({ page }) => {
  await openLab(page, 'paused');
  // The header is in the page before the lab's code runs: wait for the lab, whose menu has a list.
  await expect(page.getByTestId('play')).toBeVisible();
  const picker = page.getByRole('navigation', { name: 'Game days' });
  await picker.locator('summary').first().click();
  await expect(picker).toContainText('guided scenarios');
  const said = Number(/(\d+) guided scenarios/.exec(await picker.innerText())![1]);
  const numbered = await picker.locator('ol > li').count();
  expect(numbered).toBe(said);
  expect(said).toBe(titles.size);
});

test('Check yourself asks to think first, and its links carry the scenario titles', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 3000 });
  await openLab(page, 'paused');
  await openTab(page, 'Learn');
  const section = page.getByRole('region', { name: 'Check yourself' });
  await expect(section).toBeVisible();
  const first = section.locator('li').first();
  await first.locator('summary').click();
  const answer = first.getByTestId('answer');
  await expect(answer).toBeHidden();
  await first.getByRole('button', { name: 'Show the answer' }).click();
  await expect(answer).toBeVisible();
  // Every "See it" link is named by its scenario's title.
  const links = await section.locator('a[href*="scenario="]').evaluateAll((els) =>
    els.map((a) => ({
      text: a.textContent!.trim(),
      id: new URL((a as HTMLAnchorElement).href).searchParams.get('scenario'),
    })),
  );
  expect(links.length).toBeGreaterThan(0);
  for (const l of links) expect(l.text).toBe(titles.get(l.id!));
});
