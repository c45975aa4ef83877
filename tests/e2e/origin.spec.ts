// The built site asks nothing of another origin and runs no inline or remote script: its pages
// carry a Content-Security-Policy, and while a person uses the lab, the embed page and the custom
// element, every request goes to the page's own origin and the policy never has to refuse
// anything (a refusal would mean the page tried something the policy forbids, and lost a feature).
import { test as base, type BrowserContext, type Page } from '@playwright/test';
import { expect, openLab, pauseLab, selectNode, SLOW, test, waitForLeader, openTab, openEmbed } from './lab';

declare global {
  interface Window {
    __cspViolations?: string[];
    __inlineScriptRan?: boolean;
    __inlineHandlerRan?: boolean;
  }
}

/** Every request the context makes (pages, frames, the service worker), as URLs. */
function recordRequests(context: BrowserContext): string[] {
  const urls: string[] = [];
  context.on('request', (request) => urls.push(request.url()));
  return urls;
}

/** Requests whose origin is not `origin`. Inline data (data: URLs) is not a request to anyone. */
function foreign(urls: string[], origin: string): string[] {
  return urls.filter((url) => !url.startsWith('data:') && new URL(url).origin !== origin);
}

/** Console messages in which the browser reports refusing something under the policy. */
function recordCspMessages(page: Page): string[] {
  const messages: string[] = [];
  page.on('console', (msg) => {
    if (/Content Security Policy/i.test(msg.text())) messages.push(msg.text());
  });
  return messages;
}

/** Collect 'securitypolicyviolation' events in every frame, from before any of its scripts run. */
async function watchViolations(page: Page): Promise<void> {
  await page.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      window.__cspViolations?.push(
        `${e.effectiveDirective} refused ${e.blockedURI || '(inline)'} in ${e.documentURI}`,
      );
    });
  });
}

async function violationsIn(page: Page): Promise<string[]> {
  const all: string[] = [];
  for (const frame of page.frames()) {
    all.push(...((await frame.evaluate(() => window.__cspViolations ?? []).catch(() => [])) as string[]));
  }
  return all;
}

/** The policy's directives, from the page's meta element. */
async function policyOf(page: Page): Promise<Map<string, string[]>> {
  const content = await page.evaluate(
    () =>
      document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content') ?? null,
  );
  expect(content, 'the page carries a Content-Security-Policy').toBeTruthy();
  const directives = new Map<string, string[]>();
  for (const part of (content as string).split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) directives.set(name.toLowerCase(), sources);
  }
  return directives;
}

/**
 * The policy admits scripts from this site only, and nothing from any other host. The one inline
 * source it may name is for styles (which cannot run script).
 */
async function expectSelfOnlyPolicy(page: Page): Promise<void> {
  const policy = await policyOf(page);
  expect(policy.get('script-src') ?? policy.get('default-src'), 'script-src (or default-src)').toEqual([
    "'self'",
  ]);
  for (const [name, sources] of policy) {
    const allowed = name.startsWith('style-src') ? /^('self'|'unsafe-inline')$/ : /^('self'|'none'|data:)$/;
    for (const source of sources)
      expect(source, `${name} names only this site, or inline data`).toMatch(allowed);
  }
}

/** Everything a lab page, an embed page or a docs page with the element asked for, and what the policy refused. */
async function expectOwnOriginOnly(
  page: Page,
  requests: string[],
  cspMessages: string[],
  origin: string,
): Promise<void> {
  expect(await violationsIn(page), 'policy refusals').toEqual([]);
  expect(cspMessages, 'policy messages in the console').toEqual([]);
  expect(requests.length, 'requests were recorded').toBeGreaterThan(3);
  expect(foreign(requests, origin), 'requests to another origin').toEqual([]);
}

test.describe("every request goes to the page's own origin, and the policy refuses nothing the pages do", () => {
  let requests: string[] = [];
  let cspMessages: string[] = [];
  test.beforeEach(async ({ page, context }) => {
    requests = recordRequests(context);
    cspMessages = recordCspMessages(page);
    await watchViolations(page);
  });

  test('the lab: play, kill the leader, a dialog, the keyboard help, exports', async ({ page, baseURL }) => {
    test.setTimeout(150_000);
    const origin = new URL(baseURL as string).origin;
    await openLab(page);
    const leader = await waitForLeader(page);
    await selectNode(page, leader.id);
    await page.getByRole('button', { name: `Kill ${leader.id}` }).click();
    await waitForLeader(page, [leader.id]);
    const embed = await openEmbed(page, 'cluster stage');
    await embed.getByRole('button', { name: 'Close' }).click();
    await page.keyboard.press('?');
    await expect(page.getByTestId('help-overlay')).toBeVisible();
    await page.keyboard.press('Escape');
    await pauseLab(page);
    await openTab(page, 'Export');
    for (const button of [
      'Export the cluster stage as PNG',
      'Export the fencing chain as SVG',
      'Export the trace as JSON',
    ]) {
      await Promise.all([
        page.waitForEvent('download', SLOW),
        page.getByRole('button', { name: button, exact: true }).click(),
      ]);
    }
    await expect(page.getByTestId('export-status')).toContainText('Saved');
    // The offline worker installs after load and fetches the whole site: its requests count too.
    await page.evaluate(() => navigator.serviceWorker.ready);
    await expectOwnOriginOnly(page, requests, cspMessages, origin);
    await expectSelfOnlyPolicy(page);
  });

  test('the embed page, playing a scenario', async ({ page, baseURL }) => {
    const origin = new URL(baseURL as string).origin;
    await page.goto('/embed.html?scene=chain&scenario=gc-pause-long&autoplay=1');
    await expect(page.getByRole('region', { name: 'Fencing chain' })).toBeVisible(SLOW);
    const clock = async () =>
      Number((await page.locator('.embed-controls .mono').innerText()).replace(' s', ''));
    await expect.poll(clock, SLOW).toBeGreaterThan(1);
    await expectOwnOriginOnly(page, requests, cspMessages, origin);
    await expectSelfOnlyPolicy(page);
  });

  test('a docs page with the custom element, whose frame is the embed page', async ({ page, baseURL }) => {
    const origin = new URL(baseURL as string).origin;
    const docs = new URL('/docs-page-under-test.html', baseURL).toString();
    await page.route(docs, (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><html lang="en"><head><title>Docs</title></head><body>
          <leader-election-scene id="a" scene="metric-line" scenario="kill-leader" speed="4"></leader-election-scene>
          <script src="${origin}/leader-election-scene.js"></script>
        </body></html>`,
      }),
    );
    await page.goto(docs);
    const frame = page.frameLocator('#a >> iframe');
    await expect(frame.getByRole('region', { name: 'leader_count' })).toBeVisible(SLOW);
    await frame.getByRole('button', { name: 'Pause' }).click();
    await expectOwnOriginOnly(page, requests, cspMessages, origin);
  });
});

// The policy is enforced, not only written down: an inline script or event handler put into the
// page does not run, and each refusal is reported (so the checks above would see one). The browser
// logs each refusal as a console error, which is expected here, so these use the plain test.
for (const path of ['/', '/embed.html?scene=cluster']) {
  base(
    `${path}: an inline script or event handler does not run, and the refusal is reported`,
    async ({ page }) => {
      await watchViolations(page);
      await page.goto(path);
      await expect(page.getByTestId('node-n1')).toBeVisible(SLOW);
      const outcome = await page.evaluate(() => {
        window.__inlineScriptRan = false;
        const script = document.createElement('script');
        script.textContent = 'window.__inlineScriptRan = true;';
        document.head.append(script);
        script.remove();
        window.__inlineHandlerRan = false;
        const button = document.createElement('button');
        button.setAttribute('onclick', 'window.__inlineHandlerRan = true;');
        document.body.append(button);
        button.click();
        button.remove();
        return { script: window.__inlineScriptRan, handler: window.__inlineHandlerRan };
      });
      expect(outcome).toEqual({ script: false, handler: false });
      await expect
        .poll(() => violationsIn(page))
        .toEqual([
          expect.stringMatching(/^script-src-elem refused inline/),
          expect.stringMatching(/^script-src-attr refused inline/),
        ]);
    },
  );
}
