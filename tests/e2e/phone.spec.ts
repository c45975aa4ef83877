// On a phone the lab shows one view at a time, with a mini leader_count line that stays on
// screen, the selected node's actions right under the stage, and stage text of at least 12 px.
import type { Page } from '@playwright/test';
import { chainScene, expect, metricScene, openLab, openTab, test, waitForLeader } from './lab';

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

/** The floor for a word drawn in a scaled SVG on a phone: 11 px on screen, as drawn. */
const PHONE_MIN_PX = 11;

/** The words of the SVG at `selector` drawn below `minPx` on screen, with their sizes. */
async function smallSvgText(page: Page, selector: string, minPx: number): Promise<string[]> {
  return page.locator(`${selector} text`).evaluateAll(
    (els, min) =>
      els
        .filter((t) => t.getClientRects().length > 0)
        .map((t) => ({
          text: t.textContent ?? '',
          px: parseFloat(getComputedStyle(t).fontSize) * (t as SVGTextElement).getScreenCTM()!.a,
        }))
        .filter((t) => t.px < min - 0.05)
        .map((t) => `"${t.text}" ${t.px.toFixed(1)} px`),
    minPx,
  );
}

test.describe('phone 328x700', () => {
  test.use({ viewport: { width: 328, height: 700 }, hasTouch: true, isMobile: true });

  test("the stage's words and the space-time diagram's are at least 11 px; its lane names 12 px, none over another or past its edge", async ({
    page,
  }) => {
    // The first screen's Kubernetes Lease has ten lanes: five replicas, storage, the API server
    // and etcd's three members, in a diagram scaled to half its size.
    await openLab(page, 'speed=4');
    await waitForLeader(page);
    // The stage, drawn at half its size: its words keep their floor (they were 9-10 px).
    expect(await smallSvgText(page, '.cluster-svg', PHONE_MIN_PX)).toEqual([]);
    await openTab(page, 'Space-time diagram');
    const labels = page.locator('.spacetime-svg .st-lane-label');
    await expect(labels).toHaveCount(10);
    const drawn = await labels.evaluateAll((els) =>
      els.map((t) => {
        const svg = (t as SVGTextElement).ownerSVGElement!;
        const r = t.getBoundingClientRect();
        return {
          text: t.textContent,
          px: parseFloat(getComputedStyle(t).fontSize) * svg.getScreenCTM()!.a,
          left: r.left,
          right: r.right,
          top: r.top,
          bottom: r.bottom,
        };
      }),
    );
    expect(drawn.filter((l) => l.px < 11.95)).toEqual([]);
    // Every other word on the diagram (a lane's state and epoch, storage's verdicts, a write's
    // token, the time axis) keeps the phone's floor: at half size they were 5-6 px.
    await page.waitForTimeout(1000); // a few messages and verdicts on the lanes
    await expect(page.locator('.spacetime-svg .st-span-label').first()).toBeVisible();
    expect(await smallSvgText(page, '.spacetime-svg', PHONE_MIN_PX)).toEqual([]);
    // The last lane's name ends inside the diagram (etcd's "m3" was cut at its right edge).
    const edge = await page.locator('.spacetime-svg').evaluate((el) => el.getBoundingClientRect().right);
    expect(Math.max(...drawn.map((l) => l.right))).toBeLessThanOrEqual(edge + 0.5);
    const overlaps = drawn.flatMap((a, i) =>
      drawn
        .slice(i + 1)
        .filter((b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom)
        .map((b) => `${a.text} / ${b.text}`),
    );
    expect(overlaps).toEqual([]);
    // A shortened name says the whole of it.
    await expect(page.locator('.spacetime-svg [data-lane="api"] .st-lane-label title')).toHaveText(
      'API server',
    );
  });
});
