// The space-time diagram follows the lab's time cursor (the timeline moves it), and a message
// clicked on it moves the lab to that message's moment, which the stage's clock then shows.
import { expect, openLab, openTab, pauseLab, seekTo, simMs, test, waitForSimMs, WHOLE_PAGE } from './lab';

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
