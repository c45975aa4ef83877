import {
  expect,
  openLab,
  pauseLab,
  selectNode,
  stageLeaders,
  test,
  waitForLeader,
  waitForSimMs,
} from './lab';

test.describe.configure({ timeout: 90_000 });

// From a phone held upright to a projector, in both themes. Screenshots go to test-results/ (not
// committed) so a person can look at them after a run.
const SIZES = [
  { name: 'phone', width: 360, height: 740 },
  { name: 'desktop', width: 1920, height: 1080 },
] as const;
const SCHEMES = ['light', 'dark'] as const;

/** Relative luminance of a computed CSS colour "rgb(r, g, b)". */
function luminance(css: string): number {
  const [r, g, b] = (css.match(/[\d.]+/g) ?? ['0', '0', '0']).slice(0, 3).map((v) => {
    const c = Number(v) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

for (const size of SIZES) {
  for (const scheme of SCHEMES) {
    test.describe(`${size.name} ${size.width}x${size.height}, ${scheme}`, () => {
      test.use({ viewport: { width: size.width, height: size.height }, colorScheme: scheme });

      test('the lab fits, follows the theme, and runs a failover without errors', async ({ page }) => {
        await openLab(page, 'speed=16');
        const old = await waitForLeader(page);

        // The theme follows the system preference.
        const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
        if (scheme === 'dark') expect(luminance(bg), `dark background, got ${bg}`).toBeLessThan(0.1);
        else expect(luminance(bg), `light background, got ${bg}`).toBeGreaterThan(0.8);

        // Something to look at in the screenshot: a failover in progress, then settled.
        await selectNode(page, old.id);
        await page.getByRole('button', { name: `Kill ${old.id}` }).click();
        await waitForLeader(page, [old.id]);
        await waitForSimMs(page, 40_000);
        await pauseLab(page);
        await expect(stageLeaders(page)).toHaveCount(1);

        // No horizontal scrolling, and every control within the viewport's width: a control in a
        // strip that scrolls sideways (the tabs under the first screen) is within reach by
        // scrolling the strip, so the strip is what must fit.
        const overflow = await page.evaluate(() => ({
          scrollWidth: document.scrollingElement!.scrollWidth,
          clientWidth: document.scrollingElement!.clientWidth,
          wide: [
            ...document.querySelectorAll('button, input, select, summary, svg, table:not(.visually-hidden)'),
          ]
            .filter((el) => !el.closest('.visually-hidden'))
            .map((el) => {
              let box: Element = el;
              for (let up = el.parentElement; up && up !== document.body; up = up.parentElement)
                if (['auto', 'scroll'].includes(getComputedStyle(up).overflowX)) {
                  box = up;
                  break;
                }
              return { el, r: box.getBoundingClientRect() };
            })
            .filter(({ r }) => r.width > 0 && (r.right > window.innerWidth + 1 || r.left < -1))
            .map(
              ({ el, r }) =>
                `${el.tagName.toLowerCase()} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').slice(0, 30)}" ${Math.round(r.left)}..${Math.round(r.right)}`,
            ),
        }));
        expect(overflow.scrollWidth, 'no horizontal scroll').toBeLessThanOrEqual(size.width + 1);
        expect(overflow.wide, 'controls sticking out of the viewport').toEqual([]);

        // The stage is large enough to read: at least most of the viewport's width.
        const stage = await page.getByRole('group', { name: 'Cluster stage' }).boundingBox();
        expect(stage!.width).toBeGreaterThan(Math.min(size.width, 900) * 0.8);

        await page.screenshot({ path: `test-results/screens/${size.name}-${scheme}-viewport.png` });
        await page.screenshot({
          path: `test-results/screens/${size.name}-${scheme}-full.png`,
          fullPage: true,
        });
      });
    });
  }
}
