// Embed: a docs page with two custom elements and an iframe runs all three independently.
import { expect, test } from './lab';

test('two custom elements and an iframe on one docs page run independently', async ({ page, baseURL }) => {
  test.setTimeout(90_000);
  const site = new URL('/', baseURL).toString();
  // The docs page is served at an address of the site's own host, as a docs site on the same
  // machine would be (Chromium blocks a public page from framing a loopback one).
  const docs = new URL('/docs-page-under-test.html', baseURL).toString();
  await page.route(docs, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><html lang="en"><head><title>Docs</title></head><body>
        <h1>Our failover runbook</h1>
        <leader-election-scene id="a" scene="metric-line" scenario="kill-leader" speed="4"></leader-election-scene>
        <leader-election-scene id="b" scene="chain" scenario="gc-pause-long" speed="8" theme="dark"></leader-election-scene>
        <iframe id="c" title="cluster" width="640" height="520" src="${site}embed.html?scene=cluster&scenario=quorum-split-2-3&speed=4"></iframe>
        <script src="${site}leader-election-scene.js"></script>
      </body></html>`,
    }),
  );
  await page.goto(docs);
  const frameA = page.frameLocator('#a >> iframe');
  const frameB = page.frameLocator('#b >> iframe');
  const frameC = page.frameLocator('#c');
  // Each shows its own scene and its own scenario.
  await expect(frameA.getByRole('region', { name: 'leader_count' })).toBeVisible({ timeout: 20_000 });
  await expect(frameB.getByRole('region', { name: 'Fencing chain' })).toBeVisible({ timeout: 20_000 });
  await expect(frameC.getByTestId('node-n5')).toBeVisible({ timeout: 20_000 });
  await expect(frameA.getByText('Kill the leader')).toBeVisible();
  await expect(frameB.getByText(/GC pause longer than the lease/)).toBeVisible();
  const clock = (f: typeof frameA) => async () =>
    Number((await f.locator('.embed-controls .mono').innerText()).replace(' s', ''));
  // Pausing one leaves the others running.
  await frameA.getByRole('button', { name: 'Pause' }).click();
  const stoppedAt = await clock(frameA)();
  const b0 = await clock(frameB)();
  const c0 = await clock(frameC)();
  await expect.poll(clock(frameB), { timeout: 20_000 }).toBeGreaterThan(b0 + 2);
  await expect.poll(clock(frameC), { timeout: 20_000 }).toBeGreaterThan(c0 + 1);
  expect(await clock(frameA)()).toBe(stoppedAt);
  // B's zombie write is rejected in B's own run.
  await expect(frameB.getByText(/ZOMBIE WRITE REJECTED/)).toBeVisible({ timeout: 45_000 });
  // The custom element sized its frame to the scene's content.
  const h = await page
    .locator('#a')
    .evaluate(
      (el) => (el.shadowRoot!.querySelector('iframe') as HTMLIFrameElement).getBoundingClientRect().height,
    );
  expect(h).toBeGreaterThan(200);
});

test('an embed with a bad parameter still shows a scene and says what it ignored', async ({ page }) => {
  await page.goto('/embed.html?scene=pie-chart&theme=neon');
  await expect(page.getByRole('alert')).toContainText('"scene"');
  await expect(page.getByRole('alert')).toContainText('"theme"');
  await expect(page.getByTestId('node-n1')).toBeVisible();
});
