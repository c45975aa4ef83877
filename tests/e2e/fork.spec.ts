// Scrubbing back and then acting replaces the rest of the run: the page says so before anything
// is lost, and offers the way back to where the run had got to.
import {
  expect,
  openLab,
  pauseLab,
  seekTo,
  selectNode,
  simMs,
  test,
  waitForLeader,
  waitForSimMs,
} from './lab';

test('behind the furthest moment, the page warns that acting replaces the rest, and can go back', async ({
  page,
}) => {
  await openLab(page, 'speed=16');
  const leader = await waitForLeader(page);
  await waitForSimMs(page, 20_000);
  await pauseLab(page);
  const furthest = await simMs(page);
  const shown = `${(furthest / 1000).toFixed(1)} s`;
  await seekTo(page, 8_000);
  await expect(page.getByTestId('sim-time')).toHaveText('8.0 s');
  const note = page.getByTestId('fork-note');
  await expect(note).toBeVisible();
  await expect(note).toContainText(shown);
  await note.getByRole('button', { name: `Back to ${shown}` }).click();
  await expect(page.getByTestId('sim-time')).toHaveText(shown);
  await expect(note).toBeHidden();
  // Acting behind the furthest moment starts a new future from there; the note goes with the old one.
  await seekTo(page, 8_000);
  await expect(note).toBeVisible();
  await selectNode(page, leader.id);
  await page.getByRole('button', { name: `Kill ${leader.id}` }).click();
  await expect(note).toBeHidden();
  expect(await simMs(page)).toBe(8_000);
});
