// A writer putting scenes into a docs page of their own: what Export's "Embed" hands them, what the
// embed hands the lab, how the frame fits the column and follows the page's theme, and how still
// the host page stays while a scene loads and runs.
import type { Page } from '@playwright/test';
import { expect, openEmbed, SLOW, test } from './lab';
import { docsPage, siteOf } from './embedDocs';

/** The snippets Export's "Embed" gives for a scene, by its button's name. */
async function snippetsOf(page: Page, label: string): Promise<{ iframe: string; element: string }> {
  const dialog = await openEmbed(page, label);
  const iframe = await dialog.getByTestId('embed-iframe').inputValue();
  const element = await dialog.getByTestId('embed-element').inputValue();
  await dialog.getByRole('button', { name: 'Close' }).click();
  return { iframe, element };
}

test('"Embed" during a game day keeps the game day and its step', async ({ page }) => {
  await page.goto('/?scenario=gc-pause-long&step=5&speed=1&paused');
  await expect(page.getByTestId('guided')).toContainText('step 5 of 7');
  const { iframe } = await snippetsOf(page, 'fencing chain');
  expect(iframe).toContain('title="Leader Election Lab: the fencing chain, GC pause longer than the lease');
  const src = /src="([^"]+)"/.exec(iframe)![1].replace(/&amp;/g, '&');
  await page.goto(src);
  // The game day's title beside the controls and the step's caption above the scene.
  await expect(page.locator('.embed-title')).toHaveText(/GC pause longer than the lease/, SLOW);
  await expect(page.getByTestId('embed-caption')).toContainText('step 5 of 7');
});

test('"Open in the lab" hands the lab a clean link', async ({ page }) => {
  await page.goto(
    '/embed.html?scene=chain&scenario=gc-pause-long&step=3&autoplay=0&controls=minimal&id=les-1',
  );
  const open = page.getByRole('link', { name: 'Open in the lab' });
  await expect(open).toBeVisible(SLOW);
  await page.goto((await open.getAttribute('href'))!.replace(/^\.\//, '/'));
  await expect(page.getByTestId('guided')).toContainText('step 3 of 7', SLOW);
  await expect(page.getByTestId('link-problems')).toHaveCount(0);
});

test.describe('without the offline worker', () => {
  // The lab's service worker would answer the docs page's address before the test's route could.
  test.use({ serviceWorkers: 'block' });

  // That the snippet's height fits each scene at 720 px: embed-size.spec.ts.
  test("the iframe snippet stays in a phone's column", async ({ page, baseURL }) => {
    await page.goto('/?scenario=gc-pause-long&step=6&speed=1&paused');
    await expect(page.getByTestId('guided')).toContainText('step 6 of');
    const { iframe } = await snippetsOf(page, 'fencing chain');
    // On a phone the frame is as wide as the column, and the page does not scroll sideways.
    await page.setViewportSize({ width: 360, height: 740 });
    await docsPage(page, baseURL, `<article style="padding:0 16px"><p>Our runbook.</p>${iframe}</article>`);
    const frame = page.frameLocator('iframe');
    await expect(frame.getByRole('region', { name: 'Fencing chain' })).toBeVisible(SLOW);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    const box = await page.locator('iframe').boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(344);
  });

  test('the host page does not move while an embed loads and runs', async ({ page, baseURL }) => {
    test.setTimeout(120_000);
    // Layout shifts of the docs page, summed as Cumulative Layout Shift sums them.
    const observe = `<script>window.shift = 0; new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (!e.hadRecentInput) window.shift += e.value;
    }).observe({ type: 'layout-shift', buffered: true });</script>`;
    for (const scene of ['chain', 'metric-line', 'cluster', 'spacetime', 'failover']) {
      await docsPage(
        page,
        baseURL,
        `<script src="${siteOf(baseURL)}leader-election-scene.js"></script>
         <article style="max-width:720px;margin:0 auto"><h1>Our failover runbook</h1><p>Before the scene.</p>
         <leader-election-scene scene="${scene}" scenario="gc-pause-long" speed="8"></leader-election-scene>
         <p>After the scene.</p><p style="height:2000px">The rest of the page.</p></article>`,
        observe,
      );
      const frame = page.frameLocator('leader-election-scene >> iframe');
      await expect(frame.locator('main section').first()).toBeVisible(SLOW);
      // Played on at 8x: a third of the game day, its chain growing and its chart moving.
      await expect
        .poll(async () => parseFloat(await frame.locator('.embed-controls .mono').innerText()), SLOW)
        .toBeGreaterThan(20);
      const shift = await page.evaluate(() => (window as unknown as { shift: number }).shift);
      expect(shift, `the host's layout shift around the ${scene} embed`).toBeLessThan(0.02);
    }
  });

  test('theme="inherit" follows the docs page, and a theme switches without restarting the run', async ({
    page,
    baseURL,
  }) => {
    // A dark docs page on a light system, with its own theme toggle (a class on the root).
    await page.emulateMedia({ colorScheme: 'light' });
    await docsPage(
      page,
      baseURL,
      `<script src="${siteOf(baseURL)}leader-election-scene.js"></script>
       <leader-election-scene id="a" scene="chain" scenario="gc-pause-long" speed="4" theme="inherit"></leader-election-scene>
       <leader-election-scene id="b" scene="failover" scenario="kill-leader" speed="4" theme="light"></leader-election-scene>`,
      '<style>:root { color-scheme: dark; background: #111; } :root.light { color-scheme: light; background: #fff; }</style>',
    );
    const a = page.frameLocator('#a >> iframe');
    const b = page.frameLocator('#b >> iframe');
    const themeOf = (f: typeof a) => () =>
      f.locator('html').evaluate((el) => (el as HTMLElement).dataset.theme);
    await expect(a.getByRole('region', { name: 'Fencing chain' })).toBeVisible(SLOW);
    await expect.poll(themeOf(a)).toBe('dark');
    await expect(a.getByRole('alert')).toHaveCount(0);
    const clock = (f: typeof a) => async () =>
      parseFloat(await f.locator('.embed-controls .mono').innerText());
    await expect.poll(clock(a), SLOW).toBeGreaterThanOrEqual(6);
    await expect.poll(clock(b), SLOW).toBeGreaterThanOrEqual(6);
    const mark = (f: typeof a) =>
      f.locator('html').evaluate(() => ((window as unknown as { mark: number }).mark = 1));
    const marked = (f: typeof a) =>
      f.locator('html').evaluate(() => (window as unknown as { mark?: number }).mark === 1);
    await mark(a);
    await mark(b);
    // The docs site's toggle turns it light; the element's own attribute turns the other dark.
    await page.evaluate(() => document.documentElement.classList.add('light'));
    await page.locator('#b').evaluate((el) => el.setAttribute('theme', 'dark'));
    await expect.poll(themeOf(a)).toBe('light');
    await expect.poll(themeOf(b)).toBe('dark');
    // Neither run started over: the same pages, their clocks still past 6 s.
    expect(await marked(a)).toBe(true);
    expect(await marked(b)).toBe(true);
    expect(await clock(a)()).toBeGreaterThanOrEqual(6);
    expect(await clock(b)()).toBeGreaterThanOrEqual(6);
  });
});

test('a game day embedded at a step tells each step as the run plays on through it', async ({ page }) => {
  await page.goto('/embed.html?scene=chain&scenario=gc-pause-long&step=5&autoplay=1&speed=4');
  const caption = page.getByTestId('embed-caption');
  await expect(caption).toContainText('step 5 of 7', SLOW);
  // Its numbers are the run's (filled at the step's pause), never a placeholder's name.
  await expect(caption).not.toContainText('{');
  // Played on past n1's wake-up, the caption follows the run to the next step, and the run goes on.
  await expect(caption).toContainText('step 6 of 7', { timeout: 30_000 });
  await expect(caption).toContainText(/\d+ zombie writes rejected so far/, { timeout: 30_000 });
  await expect(caption).not.toContainText('{');
  const clock = page.locator('.embed-controls .mono');
  const at = parseFloat(await clock.innerText());
  await expect.poll(async () => parseFloat(await clock.innerText()), SLOW).toBeGreaterThan(at);
  // Restart starts the game day over, its caption with it.
  await page.getByRole('button', { name: 'Restart from the beginning' }).click();
  await expect(caption).toContainText('step 1 of 7');
});

test('an embed says what it made of odd parameters, and names its scene and game day once', async ({
  page,
}) => {
  // A scenario id in capitals is the same game day, as a scene's name is.
  await page.goto('/embed.html?scene=CHAIN&scenario=GC-Pause-Long&autoplay=0');
  await expect(page.locator('.embed-title')).toHaveText(/GC pause longer than the lease/, SLOW);
  await expect(page.getByRole('alert')).toHaveCount(0);
  // A step out of range is said with the game day's own range, whichever side it is on.
  for (const step of ['0', '99']) {
    await page.goto(`/embed.html?scene=chain&scenario=gc-pause-long&step=${step}&autoplay=0`);
    await expect(page.getByRole('alert')).toContainText(
      `"step" must be a whole number from 1 to 7 (got "${step}")`,
    );
  }
  // No controls and no autoplay: nothing could start it, so it plays, and says so.
  await page.goto('/embed.html?scene=failover&scenario=kill-leader&controls=none&autoplay=0&speed=8');
  await expect(page.getByRole('alert')).toContainText('nothing to start it: it plays');
  // A game day named after its scene is not named twice.
  await page.goto('/embed.html?scene=leaderless&scenario=leaderless-partition-the-work&autoplay=0');
  await expect(page.locator('main')).toHaveAttribute('aria-label', "Don't have a leader: partition the work");
});

test.describe('the element, without the offline worker', () => {
  test.use({ serviceWorkers: 'block' });

  test('names its frame by scene and game day before the frame has loaded', async ({ page, baseURL }) => {
    // A frame that never says its name (a blank page in the embed's place): the name is the
    // element's own, the scene by its title and the game day by its id (the frame, once loaded,
    // names the game day by its title: the next test).
    await page.route('**/embed.html?*', (route) =>
      route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>Blank</title>' }),
    );
    await docsPage(
      page,
      baseURL,
      `<script src="${siteOf(baseURL)}leader-election-scene.js"></script>
       <leader-election-scene scene="CHAIN" scenario="gc-pause-long"></leader-election-scene>
       <leader-election-scene scene="partition" scenario="leaderless-partition-the-work"></leader-election-scene>`,
    );
    const titles = () =>
      page
        .locator('leader-election-scene')
        .evaluateAll((els) => els.map((el) => el.shadowRoot?.querySelector('iframe')?.title));
    await expect
      .poll(titles)
      .toEqual([
        'Leader Election Lab: Fencing chain, game day gc-pause-long',
        "Leader Election Lab: Don't have a leader, game day leaderless-partition-the-work",
      ]);
  });

  test('names its frame by scene and game day, and fits its scene when its height is unusable', async ({
    page,
    baseURL,
  }) => {
    const warnings: string[] = [];
    page.on('console', (m) => void (m.type() === 'warning' && warnings.push(m.text())));
    await docsPage(
      page,
      baseURL,
      `<script src="${siteOf(baseURL)}leader-election-scene.js"></script>
       <leader-election-scene scene="chain" scenario="gc-pause-long" step="5" autoplay="0" height="abc"></leader-election-scene>`,
    );
    const host = page.locator('leader-election-scene');
    const frame = page.frameLocator('leader-election-scene >> iframe');
    await expect(frame.getByTestId('embed-caption')).toBeVisible(SLOW);
    await expect
      .poll(() => host.evaluate((el) => el.shadowRoot!.querySelector('iframe')!.title))
      .toBe('Leader Election Lab: Fencing chain: GC pause longer than the lease, fencing on');
    // The frame holds the whole scene: nothing cut off below.
    const content = await frame
      .locator('main')
      .evaluate((el) => Math.ceil(el.getBoundingClientRect().bottom));
    await expect
      .poll(() =>
        host.evaluate((el) => el.shadowRoot!.querySelector('iframe')!.getBoundingClientRect().height),
      )
      .toBeGreaterThanOrEqual(content);
    expect(warnings.join('\n')).toContain('height="abc"');
  });
});
