// The space-time diagram follows the lab's time cursor (the timeline moves it), and a message
// clicked on it moves the lab to that message's moment, which the stage's clock then shows.
import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import type { Download, Page } from '@playwright/test';
import {
  expect,
  openLab,
  openTab,
  pauseLab,
  seekTo,
  simMs,
  SLOW,
  test,
  waitForSimMs,
  WHOLE_PAGE,
} from './lab';

test.use(WHOLE_PAGE);

test('the space-time diagram follows the timeline and a clicked message selects its moment', async ({
  page,
}) => {
  await openLab(page, 'algorithm=raft&seed=1&nodes=5&speed=16');
  await waitForSimMs(page, 25_000);
  await pauseLab(page);
  await openTab(page, 'Space-time diagram');
  const scene = page.getByTestId('spacetime');
  const svg = scene.locator('svg.spacetime-svg');
  await expect(svg).toBeVisible();
  // A lane per node and one for storage.
  for (const id of ['n1', 'n2', 'n3', 'n4', 'n5', 'storage'])
    await expect(svg.locator(`.st-lane[data-lane="${id}"]`)).toHaveCount(1);

  // Scrubbing the lab moves the diagram's cursor, and its window with it.
  await seekTo(page, 12_000);
  await expect(svg).toHaveAttribute('data-now-ms', '12000');
  await expect(page.getByTestId('spacetime-cursor')).toContainText('12.0 s');
  await seekTo(page, 21_000);
  await expect(svg).toHaveAttribute('data-now-ms', '21000');
  // The first election's vote requests and votes are drawn, each on its own.
  await expect(svg.locator('.st-arrow[data-type="requestVote"]').first()).toBeAttached();
  await expect(svg.locator('.st-arrow[data-type="vote"]').first()).toBeAttached();

  // Clicking a vote moves the whole lab to the moment the message under the pointer (the vote,
  // or one crossing it) was delivered.
  const vote = svg.locator('.st-arrow[data-type="vote"]').first();
  await vote.click({ force: true });
  const picked = svg.locator('.st-arrow.st-focused');
  await expect(picked).toHaveCount(1);
  const doneMs = Number(await picked.getAttribute('data-done-ms'));
  expect(doneMs).toBeLessThan(21_000);
  await expect(svg).toHaveAttribute('data-now-ms', String(doneMs));
  await expect.poll(() => simMs(page)).toBe(Math.round(doneMs / 100) * 100);

  // The table of visible messages says the same, and its buttons move the lab too.
  await scene.getByText(/Messages as a table/).click();
  const rows = scene.locator('.spacetime-table tbody tr');
  expect(await rows.count()).toBeGreaterThan(5);
  const row = rows.first();
  const rowMs = Math.round(
    parseFloat((await row.getByRole('button').innerText()).replace(/^\D+/, '')) * 1000,
  );
  await row.getByRole('button').click();
  await expect.poll(() => simMs(page)).toBe(Math.round(rowMs / 100) * 100);

  // Keyboard: focus the diagram, walk to a message and go to its moment.
  await svg.focus();
  await page.keyboard.press('Home');
  await expect(page.getByTestId('spacetime-focus')).toContainText('sent at');
  await page.keyboard.press('Enter');
  const focusText = await page.getByTestId('spacetime-focus').innerText();
  const at = /(?:delivered at|lost at|due) ([\d.]+) s/.exec(focusText);
  expect(at).not.toBeNull();
  await expect.poll(() => simMs(page)).toBe(Math.round(parseFloat(at![1]) * 10) * 100);
});

async function download(page: Page, button: string): Promise<{ name: string; text: string; bytes: Buffer }> {
  await openTab(page, 'Export');
  const [file] = await Promise.all([
    page.waitForEvent('download', SLOW),
    page.getByRole('button', { name: button, exact: true }).click(),
  ]);
  const bytes = await readFile((await (file as Download).path()) as string);
  return { name: file.suggestedFilename(), text: bytes.toString('utf8'), bytes };
}

test('the space-time diagram exports as SVG, PNG and a Mermaid sequence diagram of its window', async ({
  page,
}) => {
  await openLab(page, 'algorithm=raft&seed=1&nodes=5&speed=16');
  await waitForSimMs(page, 12_000);
  await pauseLab(page);
  await seekTo(page, 10_000);
  // Before its tab was ever opened the diagram is not drawn, and the export says what to do.
  await openTab(page, 'Export');
  await page.getByRole('button', { name: 'Export the space-time diagram as SVG', exact: true }).click();
  await expect(page.getByTestId('export-status')).toContainText('open "Space-time diagram" first');

  const mermaid = await download(page, 'Export the space-time window as a Mermaid sequence diagram');
  expect(mermaid.name).toBe('leader-election-spacetime-seed1-t10.0s.mmd');
  const lines = mermaid.text.split('\n');
  expect(lines[0]).toBe('sequenceDiagram');
  for (const id of ['n1', 'n2', 'n3', 'n4', 'n5', 'storage']) expect(lines).toContain(`  participant ${id}`);
  expect(mermaid.text).toMatch(/^ {2}n\d->>n\d: vote request/m);
  expect(mermaid.text).toMatch(/^ {2}n\d-->>n\d: vote granted/m);

  await openTab(page, 'Space-time diagram');
  await expect(page.locator('svg.spacetime-svg')).toHaveAttribute('data-now-ms', '10000');
  const svg = await download(page, 'Export the space-time diagram as SVG');
  expect(svg.name).toBe('leader-election-spacetime-seed1-t10.0s.svg');
  expect(svg.text).toContain('<svg');
  expect(svg.text).toContain('data-type="requestVote"');
  const png = await download(page, 'Export the space-time diagram as PNG');
  expect(png.bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  expect(png.bytes.readUInt32BE(16)).toBe(1920);
});

test('the space-time diagram, its filter and its table pass an accessibility scan, in light and dark', async ({
  page,
}) => {
  test.setTimeout(180_000);
  for (const theme of ['light', 'dark']) {
    await openLab(page, `algorithm=raft&seed=1&nodes=5&speed=16&theme=${theme}`);
    await waitForSimMs(page, 8_000);
    await pauseLab(page);
    await openTab(page, 'Space-time diagram');
    const scene = page.getByTestId('spacetime');
    await expect(scene.locator('.st-arrow').first()).toBeAttached();
    await scene.getByText(/Messages as a table/).click();
    // Hiding heartbeats leaves the votes; hiding a node hides its lane.
    await scene.getByRole('checkbox', { name: 'heartbeat', exact: true }).uncheck();
    await expect(scene.locator('svg .st-heartbeat')).toHaveCount(0);
    await expect(scene.locator('.st-arrow[data-type="vote"]').first()).toBeAttached();
    await scene.getByRole('checkbox', { name: 'n3', exact: true }).uncheck();
    await expect(scene.locator('.st-lane[data-lane="n3"]')).toHaveCount(0);
    const { violations } = await new AxeBuilder({ page })
      .include('[data-testid="spacetime"]')
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .analyze();
    expect(
      violations.map((v) => `${theme}: ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    ).toEqual([]);
  }
});
