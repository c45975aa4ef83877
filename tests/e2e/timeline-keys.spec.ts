// The time controls and the keyboard: a slider keeps its own keys (arrows, PageUp / PageDown,
// Home / End), the timeline's thumb follows the run unless a finger or the mouse holds it, and
// Space plays and pauses whatever has focus, unless that control uses Space itself.
import type { Page } from '@playwright/test';
import { expect, openLab, simMs, SLOW, test, waitForLeader, waitForSimMs } from './lab';

test.use({ viewport: { width: 1280, height: 800 } });

const timeline = (page: Page) => page.getByRole('slider', { name: 'Timeline' });
const speed = (page: Page) => page.getByRole('slider', { name: 'Speed' });
const playing = async (page: Page) => (await page.getByTestId('play').getAttribute('aria-label')) === 'Pause';

/** Drag the timeline's thumb with the mouse to a share of its track, and let go. */
async function dragTimeline(page: Page, share: number): Promise<void> {
  const box = (await timeline(page).boundingBox())!;
  const y = box.y + box.height / 2;
  const thumbX = async () =>
    timeline(page).evaluate((el) => {
      const input = el as HTMLInputElement;
      const r = input.getBoundingClientRect();
      // The thumb's centre runs from half a thumb inside one end to half a thumb inside the
      // other; at the live end of a run, the box's own right edge is outside the slider.
      const half = 8;
      return r.left + half + ((r.width - 2 * half) * Number(input.value)) / Number(input.max);
    });
  await page.mouse.move(await thumbX(), y);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * share, y, { steps: 5 });
  await page.mouse.up();
}

test('after a mouse drag the thumb follows the run, and an arrow key moves on from where the run is', async ({
  page,
}) => {
  await openLab(page, 'speed=8');
  await waitForLeader(page);
  await waitForSimMs(page, 12_000);
  await dragTimeline(page, 0.5);
  await expect(timeline(page)).toBeFocused();
  // The run plays on from the moment dropped on; the thumb goes with it although it has focus.
  const dropped = await simMs(page);
  await waitForSimMs(page, dropped + 6_000);
  await expect
    .poll(async () => Math.abs(Number(await timeline(page).inputValue()) - (await simMs(page))), {
      message: 'the thumb is where the run is',
      ...SLOW,
    })
    .toBeLessThan(2_000);
  // An arrow key steps from there, not from where the drag let go.
  const before = await simMs(page);
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => simMs(page)).toBeGreaterThanOrEqual(before - 500);
});

test('after clicking the timeline in present mode, Space still plays and pauses', async ({ page }) => {
  await page.goto('/?present&speed=4');
  await waitForLeader(page);
  await timeline(page).click();
  await expect(timeline(page)).toBeFocused();
  const was = await playing(page);
  await page.keyboard.press('Space');
  await expect.poll(() => playing(page)).toBe(!was);
  await page.keyboard.press('Space');
  await expect.poll(() => playing(page)).toBe(was);
});

test('PageUp and PageDown move a focused slider; they do not step the run or the scenario', async ({
  page,
}) => {
  await openLab(page, 'speed=4');
  await waitForLeader(page);
  // Speed: PageDown slows down by a large step, and the lab goes on playing.
  await speed(page).focus();
  await page.keyboard.press('PageDown');
  await expect(page.getByTestId('speed-value')).not.toHaveText('4x');
  expect(parseFloat(await page.getByTestId('speed-value').innerText())).toBeLessThan(4);
  expect(await playing(page)).toBe(true);
  await page.keyboard.press('PageUp');
  await expect(page.getByTestId('speed-value')).toHaveText('4x');
});

test('PageDown on a focused timeline moves along the run, not to the next step of a game day', async ({
  page,
}) => {
  await page.goto('/?scenario=gc-pause-long&step=3&speed=4');
  const guided = page.getByTestId('guided');
  await expect(guided).toContainText('step 3 of');
  await timeline(page).focus();
  const before = await simMs(page);
  // On a slider PageDown means a large step down: back along the run.
  await page.keyboard.press('PageDown');
  await expect.poll(() => simMs(page)).toBeLessThan(before);
  await expect(guided).toContainText('step 3 of');
});
