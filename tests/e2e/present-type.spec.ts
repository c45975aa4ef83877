// Type a room can read: in present mode every piece of text in the view a step names is at least
// 1/45 of the screen's height on screen (24 px at 1080, 16 px at 720), in the HTML of a scene and
// in its SVG (scaled as drawn): every view a step can name (the cluster stage, the storage on it,
// the fencing chain, the leader_count chart, the failover timeline, the znode queue, the
// leaderless comparison, the safety banner and the event log).
import type { Page } from '@playwright/test';
import { expect, test } from './lab';

/** The text of the outlined view that is drawn smaller than `minPx`, with its size. */
async function smallText(page: Page, selector: string, minPx: number): Promise<string[]> {
  return page.evaluate(
    ([sel, min]) => {
      const view = document.querySelector(sel);
      if (!view) return [`${sel} is not in the page`];
      const out: string[] = [];
      const walker = document.createTreeWalker(view, NodeFilter.SHOW_TEXT);
      for (let t = walker.nextNode(); t; t = walker.nextNode()) {
        const text = t.textContent?.trim();
        const el = t.parentElement;
        if (!text || !el || !el.checkVisibility({ visibilityProperty: true, opacityProperty: true }))
          continue;
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
    },
    [selector, minPx] as const,
  );
}

/** The view a step names, outlined: a scene's panel; the banner and the log are not scenes. */
const OUTLINED = '.scene-panel[data-watched]';

const VIEWS = [
  { what: 'the cluster stage', url: '/?present&scenario=gc-pause-long&step=2&paused', at: OUTLINED },
  { what: 'the storage', url: '/?present&scenario=gc-pause-long&step=1&paused', at: OUTLINED },
  { what: 'the fencing chain', url: '/?present&scenario=gc-pause-long&step=5&paused', at: OUTLINED },
  { what: 'the leader_count chart', url: '/?present&scenario=gc-pause-long&step=6&paused', at: OUTLINED },
  { what: 'the failover timeline', url: '/?present&scenario=kill-leader&step=5&paused', at: OUTLINED },
  {
    what: 'the znode queue',
    url: '/?present&scenario=zookeeper-watch-predecessor&step=1&paused',
    at: OUTLINED,
  },
  {
    what: 'the leaderless comparison',
    url: '/?present&scenario=leaderless-partition-the-work&step=1&paused',
    at: OUTLINED,
  },
  {
    what: 'the safety banner',
    url: '/?present&scenario=gc-pause-long-no-fencing&step=5&paused',
    at: '[data-testid="safety-banner"]',
  },
  {
    what: 'the event log',
    url: '/?present&scenario=no-quorum-split-brain&step=5&paused',
    at: '.area-raised',
  },
];

for (const size of [
  { width: 1920, height: 1080 },
  { width: 1280, height: 720 },
]) {
  test.describe(`present ${size.width}x${size.height}`, () => {
    test.use({ viewport: size });
    // One test per size, the views one after another in its page: a page per view cost more
    // than the views themselves.
    test("every view a step names is in type at least 1/45 of the screen's height", async ({ page }) => {
      test.setTimeout(120_000);
      const small: Record<string, string[]> = {};
      for (const v of VIEWS) {
        await page.goto(v.url);
        await expect(page.locator(v.at)).toBeVisible();
        // The scene's own text is in (a chart lays its text out once it knows its box).
        await page.waitForTimeout(1000);
        const found = await smallText(page, v.at, size.height / 45);
        if (found.length) small[v.what] = found;
      }
      expect(small).toEqual({});
    });
  });
}
