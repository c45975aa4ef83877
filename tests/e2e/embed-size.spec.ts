// Embeds on a docs page: the snippet Export's "Embed" makes: its frame holds its whole scene, the custom
// element's frame follows its content (growing and shrinking), and a scenario's `step` opens
// that step in both the iframe and the element.
import type { FrameLocator, Page } from '@playwright/test';
import { expect, openEmbed, SLOW, test } from './lab';
import { docsPage } from './embedDocs';
import { sceneById } from '../../src/shared/scenes';

const SCENE_LABELS = {
  cluster: 'cluster stage',
  chain: 'fencing chain',
  'metric-line': 'leader_count chart',
  failover: 'failover timeline',
  znodes: 'znode queue',
  leaderless: 'leaderless comparison',
  spacetime: 'space-time diagram',
} as const;

/** How far the frame's content reaches down, in CSS px of the frame. */
async function contentBottom(frame: FrameLocator): Promise<number> {
  return frame.locator('main').evaluate((el) => Math.ceil(el.getBoundingClientRect().bottom));
}

async function frameHeight(page: Page, host: string): Promise<number> {
  return page
    .locator(host)
    .evaluate((el) =>
      Math.round(
        (el.shadowRoot!.querySelector('iframe') as HTMLIFrameElement).getBoundingClientRect().height,
      ),
    );
}

test.describe('without the offline worker', () => {
  // The lab installs a service worker, which would answer the docs page's own address (the lab
  // page is served for any path) before the test's route could.
  test.use({ serviceWorkers: 'block' });

  test('the "Embed" iframe snippet is tall enough for its whole scene', async ({ page, baseURL }) => {
    test.setTimeout(120_000);
    // After n2's zombie write was rejected: the chain shows its verdict.
    await page.goto('/?scenario=gc-pause-long&step=6&speed=1&paused');
    await expect(page.getByTestId('guided')).toContainText('step 6 of');
    const snippets: Record<string, string> = {};
    for (const [scene, label] of Object.entries(SCENE_LABELS)) {
      const dialog = await openEmbed(page, label);
      snippets[scene] = await dialog.getByTestId('embed-iframe').inputValue();
      await dialog.getByRole('button', { name: 'Close' }).click();
    }
    for (const [scene, snippet] of Object.entries(snippets)) {
      // In a docs column 720 px wide: the frame fills its column's width.
      await docsPage(
        page,
        baseURL,
        `<div style="width:720px">${snippet.replace('loading="lazy"', '')}</div>`,
      );
      const frame = page.frameLocator('iframe');
      await expect(frame.locator('main section').first()).toBeVisible(SLOW);
      await page.waitForTimeout(500);
      const declared = Number(/height="(\d+)"/.exec(snippet)![1]);
      const bottom = await contentBottom(frame);
      expect(bottom, `the ${scene} scene's content fits its ${declared} px frame`).toBeLessThanOrEqual(
        declared,
      );
      // Nothing to scroll inside the frame either: neither the scene nor anything hidden below it
      // (the chart's visually hidden data table made its document 747 px in a 720 px frame).
      const inner = await frame.locator('html').evaluate((el) => el.scrollHeight);
      expect(inner, `the ${scene} frame's document fits its ${declared} px`).toBeLessThanOrEqual(declared);
    }
  });
});

test("the custom element's frame fits its content, and shrinks when the scene changes", async ({
  page,
  baseURL,
}) => {
  const site = new URL('/', baseURL).toString();
  await docsPage(
    page,
    baseURL,
    `<leader-election-scene id="a" scene="failover" scenario="kill-leader" autoplay="0"></leader-election-scene>
     <leader-election-scene id="b" scene="metric-line" scenario="kill-leader" autoplay="0"></leader-election-scene>
     <script src="${site}leader-election-scene.js"></script>`,
  );
  const a = page.frameLocator('#a >> iframe');
  const b = page.frameLocator('#b >> iframe');
  await expect(a.getByTestId('failover-timeline')).toBeVisible(SLOW);
  await expect(b.getByRole('region', { name: 'leader_count' })).toBeVisible(SLOW);
  // The failover scene before any failover is short; its frame keeps the height the scene
  // reserves (for the failovers to come), far shorter than the chart's.
  await expect.poll(() => frameHeight(page, '#a'), SLOW).toBe(sceneById('failover').embedHeightPx);
  const fits = async (host: string, frame: FrameLocator) =>
    Math.abs((await frameHeight(page, host)) - (await contentBottom(frame)));
  await expect.poll(() => fits('#a', a), SLOW).toBeLessThanOrEqual(4);
  await expect.poll(() => fits('#b', b), SLOW).toBeLessThanOrEqual(4);
  // A new scene, a new height: the frame follows the chain's content, not the chart's.
  const chart = await frameHeight(page, '#b');
  await page.locator('#b').evaluate((el) => el.setAttribute('scene', 'failover'));
  await expect(b.getByTestId('failover-timeline')).toBeVisible(SLOW);
  await expect.poll(() => frameHeight(page, '#b'), SLOW).toBeLessThan(chart - 100);
  await expect.poll(() => fits('#b', b), SLOW).toBeLessThanOrEqual(4);
});

test("a scenario's step opens that step, in the iframe and through the custom element", async ({
  page,
  baseURL,
}) => {
  await page.goto('/embed.html?scene=chain&scenario=gc-pause-long&step=5&autoplay=0');
  const clock = page.locator('.embed-controls .mono');
  // Step 5 begins at 38.9 s, just before n1 wakes (step 4 pauses on n1 still frozen); the clock
  // shows whole seconds.
  await expect.poll(async () => parseFloat(await clock.innerText()), SLOW).toBeGreaterThanOrEqual(38);
  await expect(page.getByRole('alert')).toHaveCount(0);

  const site = new URL('/', baseURL).toString();
  await docsPage(
    page,
    baseURL,
    `<leader-election-scene scene="chain" scenario="gc-pause-long" step="5" autoplay="0"></leader-election-scene>
     <script src="${site}leader-election-scene.js"></script>`,
  );
  const frame = page.frameLocator('leader-election-scene >> iframe');
  const frameClock = frame.locator('.embed-controls .mono');
  await expect.poll(async () => parseFloat(await frameClock.innerText()), SLOW).toBeGreaterThanOrEqual(38);
});
