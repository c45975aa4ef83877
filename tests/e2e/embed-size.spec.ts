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

  // Two runs: a game day at a step (a caption above each scene) and the lab's own first run (the
  // Kubernetes Lease: an API server and etcd's members on the space-time diagram's lanes).
  for (const run of [
    {
      what: 'a game day at its step 6',
      url: '/?scenario=gc-pause-long&step=6&speed=1&paused',
      ready: 'step 6 of',
    },
    { what: "the lab's first run", url: '/?speed=1&paused', ready: null },
  ])
    test(`the "Embed" iframe snippet fits its whole scene at 720 px, with no band and nothing past its edge: ${run.what}`, async ({
      page,
      baseURL,
    }) => {
      test.setTimeout(120_000);
      await page.goto(run.url);
      await expect(page.locator('[data-testid^="node-"][data-role]').first()).toBeAttached(SLOW);
      // After n2's zombie write was rejected: the chain shows its verdict.
      if (run.ready) await expect(page.getByTestId('guided')).toContainText(run.ready);
      const snippets: Record<string, string> = {};
      for (const [scene, label] of Object.entries(SCENE_LABELS)) {
        const dialog = await openEmbed(page, label);
        snippets[scene] = await dialog.getByTestId('embed-iframe').inputValue();
        await dialog.getByRole('button', { name: 'Close' }).click();
      }
      const problems: string[] = [];
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
        if (bottom > declared)
          problems.push(`${scene}: its content reaches ${bottom} px of its ${declared} px frame`);
        // Nothing to scroll inside the frame either: neither the scene nor anything hidden below it
        // (the chart's visually hidden data table made its document 747 px in a 720 px frame), and
        // no empty band under it (the heights once left 54-59 px).
        const inner = await frame.locator('html').evaluate((el) => el.scrollHeight);
        if (inner > declared)
          problems.push(`${scene}: its document is ${inner} px in a ${declared} px frame`);
        if (declared - inner >= 16)
          problems.push(`${scene}: ${declared - inner} px empty under its document`);
        // Nothing drawn past the frame's sides (the chain's "now" tag stood 4 px out of it).
        const out = await frame.locator('main').evaluate((main) => {
          const w = document.documentElement.clientWidth;
          return [...main.querySelectorAll('*')]
            .filter((el) => !el.closest('.visually-hidden'))
            .map((el) => ({ el, r: el.getBoundingClientRect() }))
            .filter(({ r }) => r.width > 0 && (r.right > w + 0.5 || r.left < -0.5))
            .map(
              ({ el, r }) =>
                `${el.tagName.toLowerCase()}.${el.getAttribute('class') ?? ''} ${Math.round(r.left)}..${Math.round(r.right)}`,
            );
        });
        if (out.length) problems.push(`${scene}: past the frame's ${720} px: ${out.slice(0, 3).join(', ')}`);
      }
      expect(problems).toEqual([]);
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
