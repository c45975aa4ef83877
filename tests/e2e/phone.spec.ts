// On a phone the lab shows one view at a time, with a mini leader_count line that stays on
// screen, the selected node's actions right under the stage, and stage text of at least 12 px.
import type { Page } from '@playwright/test';
import { chainScene, expect, metricScene, openLab, test, waitForLeader } from './lab';

const stage = (page: Page) => page.getByRole('group', { name: 'Cluster stage' });

for (const size of [
  { width: 390, height: 844 },
  { width: 360, height: 740 },
]) {
  test.describe(`phone ${size.width}x${size.height}`, () => {
    test.use({ viewport: size, hasTouch: true, isMobile: true });

    test('one view at a time, a sticky leader_count line, and the node actions under the stage', async ({
      page,
    }) => {
      await openLab(page, 'speed=4');
      const leader = await waitForLeader(page);
      const shown = async () =>
        [
          (await stage(page).isVisible()) && 'stage',
          (await chainScene(page).isVisible()) && 'chain',
          (await metricScene(page).isVisible()) && 'chart',
        ].filter(Boolean);
      expect(await shown()).toEqual(['stage']);
      const views = page.getByRole('tablist', { name: 'Views' });
      await views.getByRole('tab', { name: 'Chain' }).click();
      await expect.poll(shown).toEqual(['chain']);
      await views.getByRole('tab', { name: 'Chart' }).click();
      await expect.poll(shown).toEqual(['chart']);
      await views.getByRole('tab', { name: 'Stage' }).click();
      await expect.poll(shown).toEqual(['stage']);

      // The mini line stays on screen however far the page scrolls.
      const mini = page.getByTestId('mini-leader-count');
      await expect(mini).toBeVisible();
      await page.evaluate(() => window.scrollTo(0, document.scrollingElement!.scrollHeight));
      await page.waitForTimeout(300);
      const box = (await mini.boundingBox())!;
      expect(box.y).toBeGreaterThanOrEqual(-1);
      expect(box.y + box.height).toBeLessThanOrEqual(size.height + 1);
      await expect(mini).toContainText(/leader_count\s*observed\s*1\s*believed\s*1/);
      await expect(mini).toHaveAttribute('data-alarm', 'no');

      // Tap the leader on the stage: its actions are right under the stage, on screen.
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.getByTestId(`node-${leader.id}`).tap();
      const kill = page.getByRole('button', { name: `Kill ${leader.id}` });
      await expect(kill).toBeVisible();
      await kill.scrollIntoViewIfNeeded();
      const k = (await kill.boundingBox())!;
      const s = (await stage(page).boundingBox())!;
      expect(k.y - (s.y + s.height), 'Kill sits right under the stage').toBeLessThan(120);
      expect(k.y).toBeGreaterThanOrEqual(0);
    });

    test('stage text is at least 12 px on screen', async ({ page }) => {
      await openLab(page, 'speed=4');
      await waitForLeader(page);
      const small = await page.evaluate(() => {
        const svg = document.querySelector('.cluster-svg') as SVGSVGElement;
        const scale = svg.getScreenCTM()!.a;
        return [...svg.querySelectorAll('text')]
          .filter((t) => t.getClientRects().length > 0 && t.textContent!.trim() !== '')
          .map((t) => ({ text: t.textContent, px: parseFloat(getComputedStyle(t).fontSize) * scale }))
          .filter((t) => t.px < 11.95);
      });
      expect(small).toEqual([]);
    });

    test('the tabs under the first screen are one row that scrolls sideways, the chosen one in view', async ({
      page,
    }) => {
      await openLab(page, 'speed=4');
      const strip = page.getByRole('tablist', { name: 'More' });
      const tabs = strip.getByRole('tab');
      const tops = await tabs.evaluateAll((els) =>
        els.map((el) => Math.round(el.getBoundingClientRect().top)),
      );
      expect(new Set(tops).size, 'one row').toBe(1);
      const box = (await strip.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(size.width);
      // The last tab, off to the right at first, is scrolled into the strip when chosen.
      const last = tabs.last();
      await last.scrollIntoViewIfNeeded();
      await last.tap();
      await expect(last).toHaveAttribute('aria-selected', 'true');
      const l = (await last.boundingBox())!;
      expect(l.x).toBeGreaterThanOrEqual(box.x - 1);
      expect(l.x + l.width).toBeLessThanOrEqual(box.x + box.width + 1);
      // And the keyboard walks back along it, keeping the chosen tab in view.
      await last.press('ArrowRight');
      const first = tabs.first();
      await expect(first).toHaveAttribute('aria-selected', 'true');
      await expect(first).toBeFocused();
      const f = (await first.boundingBox())!;
      expect(f.x).toBeGreaterThanOrEqual(box.x - 1);
    });
  });
}
