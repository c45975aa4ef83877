import { expect, openLab, stageNode, test, waitForLeader } from './lab';
import type { Page } from '@playwright/test';

test.describe.configure({ timeout: 90_000 });

/** What the focused element is, in words a failure message can use. */
async function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return '(body)';
    const label = (el as HTMLInputElement).labels?.[0]?.textContent?.trim();
    return (
      el.getAttribute('aria-label') ??
      label ??
      el.getAttribute('data-testid') ??
      el.textContent?.trim().slice(0, 40) ??
      el.tagName
    );
  });
}

/**
 * Press Tab (or Shift+Tab) until the focused element's accessible label matches, as a keyboard
 * user would. Fails if it never gets there: that control would be unreachable.
 */
async function tabTo(page: Page, label: string | RegExp, { back = false, max = 80 } = {}): Promise<void> {
  const matches = (s: string) => (typeof label === 'string' ? s === label : label.test(s));
  const seen: string[] = [];
  for (let i = 0; i < max; i++) {
    const now = await focused(page);
    if (matches(now)) return;
    seen.push(now);
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(
    `could not reach "${label}" with ${back ? 'Shift+Tab' : 'Tab'}; focus went through:\n${seen.join('\n')}`,
  );
}

/** The focused element draws a visible focus indicator: an outline, or (on the stage) its ring. */
async function expectFocusRing(page: Page): Promise<void> {
  const ring = await page.evaluate(() => {
    const el = document.activeElement as HTMLElement | SVGElement | null;
    if (!el) return { ok: false, why: 'nothing focused' };
    if (!el.matches(':focus-visible')) return { ok: false, why: 'focus is not :focus-visible' };
    const cs = getComputedStyle(el);
    if (cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) >= 2)
      return { ok: true, why: `outline ${cs.outlineWidth} ${cs.outlineStyle} ${cs.outlineColor}` };
    const svgRing = el.querySelector('.focus-ring');
    if (svgRing) {
      const rs = getComputedStyle(svgRing);
      if (
        rs.stroke !== 'none' &&
        rs.stroke !== 'transparent' &&
        !/rgba\(.*,\s*0\)$/.test(rs.stroke) &&
        parseFloat(rs.strokeWidth) >= 2
      )
        return { ok: true, why: `ring stroke ${rs.stroke}` };
    }
    return {
      ok: false,
      why: `no outline (${cs.outlineStyle} ${cs.outlineWidth}) and no ring on ${el.tagName}`,
    };
  });
  expect(ring.ok, `visible focus ring on "${await focused(page)}": ${ring.why}`).toBe(true);
}

// Every step of the core flow, with no mouse: play/pause, speed, select a node on the stage and
// in the picker, kill it and restart it.
test('the whole flow works with the keyboard alone, with a visible focus ring', async ({ page }) => {
  await openLab(page, 'speed=16');
  const leader = await waitForLeader(page);

  // Play / pause with Space.
  await tabTo(page, 'Pause');
  await expectFocusRing(page);
  await page.keyboard.press('Space');
  await expect(page.getByTestId('play')).toHaveAttribute('aria-label', 'Play');
  await page.keyboard.press('Space');
  await expect(page.getByTestId('play')).toHaveAttribute('aria-label', 'Pause');
  // Paused for the rest of the flow: commands still apply at once, and an idle page answers
  // each key press quickly.
  await page.keyboard.press('Space');
  await expect(page.getByTestId('play')).toHaveAttribute('aria-label', 'Play');

  // Speed with the arrow keys (and Home / End for the ends of its range).
  await tabTo(page, 'Speed');
  await expectFocusRing(page);
  const speed = page.getByTestId('speed-value');
  const speedNow = async () => parseFloat(await speed.innerText());
  await expect(speed).toHaveText('16x');
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
  await expect.poll(speedNow, { message: 'ArrowRight speeds up' }).toBeGreaterThan(16);
  const faster = await speedNow();
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowLeft');
  await expect.poll(speedNow, { message: 'ArrowLeft slows down' }).toBeLessThan(faster);
  await page.keyboard.press('Home');
  await expect(speed).toHaveText('0.1x');
  await page.keyboard.press('End');
  await expect(speed).toHaveText('64x');

  // Select the leader on the stage with Enter (the first screen's Lease calls it the holder).
  await tabTo(page, new RegExp(`^Select ${leader.id}: holder`));
  await expectFocusRing(page);
  await page.keyboard.press('Enter');
  await expect(stageNode(page, leader.id)).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('button', { name: `Select ${leader.id}`, exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );

  // Kill it with Enter.
  await tabTo(page, `Kill ${leader.id}`);
  await expectFocusRing(page);
  await page.keyboard.press('Enter');
  await expect(stageNode(page, leader.id)).toHaveAttribute('data-role', 'dead');

  // The Kill button gave way to Restart; find it again from where focus was and restart.
  const restart = `Restart ${leader.id}`;
  await page.getByRole('button', { name: restart }).waitFor();
  try {
    await tabTo(page, restart, { max: 20 });
  } catch {
    await tabTo(page, restart, { back: true, max: 40 });
  }
  await expectFocusRing(page);
  await page.keyboard.press('Enter');
  await expect(stageNode(page, leader.id)).not.toHaveAttribute('data-role', 'dead');

  // Select another node with the picker, with Space this time.
  const other = leader.id === 'n3' ? 'n4' : 'n3';
  await tabTo(page, `Select ${other}`, { back: true });
  await expectFocusRing(page);
  await page.keyboard.press('Space');
  await expect(page.getByRole('button', { name: `Select ${other}`, exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(page.getByTestId('node-status')).toContainText(other);
  await expect(page.getByRole('button', { name: `Kill ${other}` })).toBeVisible();

  // A safety switch toggles with Space, too.
  await tabTo(page, /^Fencing/);
  await expectFocusRing(page);
  const fencing = page.getByRole('switch', { name: 'Fencing' });
  await page.keyboard.press('Space');
  await expect(fencing).not.toBeChecked();
  await page.keyboard.press('Space');
  await expect(fencing).toBeChecked();
});
