// Type a room can read: in present mode every piece of text in the view a step names is at least
// 1/45 of the screen's height on screen (24 px at 1080, 16 px at 720), in the HTML of a scene and
// in its SVG (scaled as drawn): the fencing chain, the leader_count chart, the failover timeline.
import type { Page } from '@playwright/test';
import { expect, test } from './lab';

/** The text of the outlined view that is drawn smaller than `minPx`, with its size. */
async function smallText(page: Page, minPx: number): Promise<string[]> {
  return page.evaluate((min) => {
    const view = document.querySelector('.scene-panel[data-watched]');
    if (!view) return ['no view is outlined'];
    const out: string[] = [];
    const walker = document.createTreeWalker(view, NodeFilter.SHOW_TEXT);
    for (let t = walker.nextNode(); t; t = walker.nextNode()) {
      const text = t.textContent?.trim();
      const el = t.parentElement;
      if (!text || !el || !el.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
      const range = document.createRange();
      range.selectNodeContents(t);
      const r = range.getBoundingClientRect();
      // Hidden for sight (a visually hidden table or title) or clipped to nothing.
      if (r.width < 2 || r.height < 2 || el.closest('.visually-hidden, title, desc')) continue;
      const svgText = el.closest('text');
      const px = svgText
        ? parseFloat(getComputedStyle(svgText).fontSize) *
          ((svgText as SVGGraphicsElement).getScreenCTM()?.a ?? 1)
        : parseFloat(getComputedStyle(el).fontSize);
      if (px < min - 0.25) out.push(`"${text.slice(0, 30)}" ${px.toFixed(1)} px`);
    }
    return [...new Set(out)];
  }, minPx);
}

const VIEWS = [
  { what: 'the fencing chain', url: '/?present&scenario=gc-pause-long&step=5&paused' },
  { what: 'the leader_count chart', url: '/?present&scenario=gc-pause-long&step=6&paused' },
  { what: 'the failover timeline', url: '/?present&scenario=kill-leader&step=5&paused' },
];

for (const size of [
  { width: 1920, height: 1080 },
  { width: 1280, height: 720 },
]) {
  test.describe(`present ${size.width}x${size.height}`, () => {
    test.use({ viewport: size });
    for (const v of VIEWS) {
      test(`${v.what} is in type at least 1/45 of the screen's height`, async ({ page }) => {
        await page.goto(v.url);
        await expect(page.locator('.scene-panel[data-watched]')).toBeVisible();
        // The scene's own text is in (a chart lays its text out once it knows its box).
        await page.waitForTimeout(1000);
        expect(await smallText(page, size.height / 45)).toEqual([]);
      });
    }
  });
}
