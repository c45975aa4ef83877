// References that point somewhere: a link that says it shows something opens what shows it.
// Check yourself's fifth question (when can you avoid leader election?) opens the game day that
// partitions the work, and the quorum table's even sizes open either the game day of that very
// size (four nodes) or the lab with that many voters, never a four-node game day for 6 or 8.
import { expect, openLab, openTab, stageNode, test } from './lab';

test.use({ viewport: { width: 1280, height: 3000 } });

test("Check yourself's question on avoiding election opens the partition-the-work game day", async ({
  page,
}) => {
  await openLab(page, 'paused');
  await openTab(page, 'Learn');
  const section = page.getByRole('region', { name: 'Check yourself' });
  const q5 = section.locator('li', { hasText: 'avoid leader election entirely' });
  await q5.locator('summary').click();
  const link = q5.getByRole('link');
  await expect(link).toHaveText("Don't have a leader: partition the work");
  await link.click();
  await expect(page.getByTestId('guided')).toContainText("Don't have a leader: partition the work");
});

test('the quorum table opens the four-node game day for 4 only, and the lab with 6 or 8 voters for those', async ({
  page,
}) => {
  await openLab(page, 'paused');
  await openTab(page, 'Learn');
  const table = page.getByRole('region', { name: 'Quorum arithmetic' });
  const row = (n: number) => table.locator('tbody tr').nth(n - 1);
  await expect(row(4).getByRole('link')).toHaveText('Even cluster: four nodes');
  for (const n of [6, 8]) {
    const links = row(n).getByRole('link');
    await expect(links).toHaveCount(1);
    const href = (await links.getAttribute('href')) ?? '';
    expect(href, `row ${n}`).not.toContain('scenario=');
    expect(new URL(href, 'http://x').searchParams.get('nodes'), `row ${n}`).toBe(String(n));
  }
  await row(6).getByRole('link').click();
  await expect(stageNode(page, 'n6')).toBeAttached();
  await expect(stageNode(page, 'n7')).toHaveCount(0);
});
