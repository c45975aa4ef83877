// Export and the hosted build, in Chromium against the production build: images at
// presentation size, an SVG that parses on its own, a trace file that re-imports to the same
// run, the metric series as CSV; then the built site under a sub-path and with no network.
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Download, Locator, Page } from '@playwright/test';
import { encodeRun } from '../../src/shared/share';
import {
  expect,
  nodeIds,
  openLab,
  openTab,
  pauseLab,
  selectNode,
  simMs,
  SLOW,
  test,
  waitForLeader,
  waitForSimMs,
} from './lab';

// Several page loads per test, and a busy two-core machine runs the page well below speed.
test.describe.configure({ timeout: 90_000 });

async function download(page: Page, button: string): Promise<{ name: string; bytes: Buffer }> {
  await openTab(page, 'Export');
  const [file] = await Promise.all([
    page.waitForEvent('download', SLOW),
    page.getByRole('button', { name: button, exact: true }).click(),
  ]);
  return {
    name: file.suggestedFilename(),
    bytes: await readFile((await (file as Download).path()) as string),
  };
}

/** Width and height from a PNG's IHDR chunk (the first chunk, right after the signature). */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  expect(bytes.subarray(12, 16).toString('latin1')).toBe('IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

async function boxOf(scene: Locator): Promise<{ width: number; height: number }> {
  return scene.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return { width: r.width, height: r.height };
  });
}

/** A fixed moment: the leader killed at 5 s, a new one elected; the link opens it paused. */
async function openMoment(page: Page): Promise<void> {
  const run = encodeRun({
    experiment: { seed: 1, nodes: 5, network: { delayMsMin: 60, delayMsMax: 180 } },
    commands: [{ atMs: 5000, command: { do: 'kill', node: 'leader' } }],
    atMs: 24_300,
  });
  await openLab(page, `run=${run}`);
  await expect.poll(() => simMs(page), SLOW).toBe(24_300);
  await expect(page.locator('[data-testid^="node-"][data-role="leader"]')).toHaveCount(1);
}

/** A live run with a person's command in it, paused at a moment worth exporting. */
async function openRunWithAFailover(page: Page): Promise<void> {
  await openLab(page, 'speed=16');
  const leader = await waitForLeader(page);
  await selectNode(page, leader.id);
  await page.getByRole('button', { name: `Kill ${leader.id}`, exact: true }).click();
  await waitForLeader(page, [leader.id]);
  await pauseLab(page);
}

test.describe('export', () => {
  test("PNG of an SVG scene and of an HTML scene is 1920 px wide, at the scene's proportions", async ({
    page,
  }) => {
    await openMoment(page);
    const stage = await boxOf(page.locator('.cluster-svg'));
    const png = await download(page, 'Export the cluster stage as PNG');
    expect(png.name).toBe('leader-election-cluster-seed1-t24.3s.png');
    expect(pngSize(png.bytes)).toEqual({
      width: 1920,
      height: Math.round((1920 * stage.height) / stage.width),
    });

    // HTML scenes get an 8 px margin on every side so edge borders survive rounding.
    const chain = await boxOf(page.locator('.chain-scene'));
    const chainPng = await download(page, 'Export the fencing chain as PNG');
    expect(pngSize(chainPng.bytes)).toEqual({
      width: 1920,
      height: Math.round((1920 * (chain.height + 16)) / (chain.width + 16)),
    });
    await expect(page.getByTestId('export-status')).toContainText(
      /Saved leader-election-chain-.*\.png \(1920 × \d+ px\)/,
    );
  });

  test('the SVG parses on its own and holds every node, with styles resolved', async ({ page }) => {
    await openMoment(page);
    const ids = await nodeIds(page);
    expect(ids.length).toBe(5);
    const svg = (await download(page, 'Export the cluster stage as SVG')).bytes.toString('utf8');
    expect(svg).not.toContain('var(--');
    const parsed = await page.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
      const root = doc.documentElement;
      return {
        error: doc.querySelector('parsererror')?.textContent ?? null,
        root: root.localName,
        ns: root.namespaceURI,
        width: root.getAttribute('width'),
        title: root.querySelector('title')?.textContent ?? '',
        nodes: [...root.querySelectorAll('[data-testid^="node-"][data-role]')].map((el) => ({
          id: el.getAttribute('data-testid')!.slice('node-'.length),
          role: el.getAttribute('data-role'),
          text: el.textContent ?? '',
        })),
        // The leader's outline: the first of its shapes drawn with a colour.
        leaderFill:
          [...root.querySelectorAll<SVGElement>('[data-role="leader"] [style*="stroke"]')]
            .map((el) => el.style.stroke)
            .find((stroke) => stroke.startsWith('rgb(')) ?? '',
      };
    }, svg);
    expect(parsed.error).toBeNull();
    expect(parsed).toMatchObject({ root: 'svg', ns: 'http://www.w3.org/2000/svg', width: '1920' });
    expect(parsed.title).toBe('Leader Election Lab: cluster stage at 24.3 s (seed 1)');
    expect(parsed.nodes.map((n) => n.id).sort()).toEqual([...ids].sort());
    for (const n of parsed.nodes) expect(n.text).toContain(n.id);
    expect(parsed.nodes.filter((n) => n.role === 'leader')).toHaveLength(1);
    // The leader's colour comes from a CSS variable on the page; in the file it is a plain colour.
    expect(parsed.leaderFill).toMatch(/^rgb/);

    // An HTML scene's SVG parses too, with its HTML inside a foreignObject.
    const chain = (await download(page, 'Export the fencing chain as SVG')).bytes.toString('utf8');
    const chainOk = await page.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
      return !doc.querySelector('parsererror') && !!doc.querySelector('foreignObject section');
    }, chain);
    expect(chainOk).toBe(true);
  });

  test('the trace JSON re-imports to an identical trace, opened like a run link', async ({ page }) => {
    await openRunWithAFailover(page);
    const first = JSON.parse((await download(page, 'Export the trace as JSON')).bytes.toString('utf8'));
    expect(first).toMatchObject({ format: 'leader-election-lab/run', version: 2 });
    expect(first.commands).toEqual([
      { atMs: expect.any(Number), command: { do: 'kill', node: expect.stringMatching(/^n\d$/) } },
    ]);
    expect(first.trace.events.some((e: { type: string }) => e.type === 'elected')).toBe(true);

    await openTab(page, 'Export');
    await page.getByLabel('Open a trace file (JSON)').setInputFiles({
      name: 'run.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(first)),
    });
    await page.waitForURL(/[?&]run=/, SLOW);
    // The page opens paused at the file's moment (its clock shows tenths of a second).
    await expect.poll(async () => Math.abs((await simMs(page)) - first.atMs), SLOW).toBeLessThanOrEqual(50);

    const again = JSON.parse((await download(page, 'Export the trace as JSON')).bytes.toString('utf8'));
    expect(again.atMs).toBe(first.atMs);
    expect(again.commands).toEqual(first.commands);
    expect(again.trace).toEqual(first.trace);
  });

  test('a bad trace file, chosen or dropped, names the field and leaves the lab as it was', async ({
    page,
  }) => {
    await openLab(page, 'speed=16');
    await waitForSimMs(page, 2000);
    const url = page.url();
    await openTab(page, 'Export');
    await page.getByLabel('Open a trace file (JSON)').setInputFiles({
      name: 'bad.json',
      mimeType: 'application/json',
      buffer: Buffer.from(
        JSON.stringify({
          experiment: { nodes: 12 },
          commands: [{ atMs: 1, command: { do: 'explode' } }],
          atMs: 5,
        }),
      ),
    });
    const problems = page.getByTestId('import-problems');
    await expect(problems).toContainText('bad.json could not be opened');
    await expect(problems).toContainText('experiment.nodes:');
    await expect(problems).toContainText('commands.0.command.do:');

    // Dropped onto the panel: the same checks.
    await page.getByTestId('trace-drop').evaluate((zone) => {
      const data = new DataTransfer();
      data.items.add(new File(['{"experiment": '], 'cut.json', { type: 'application/json' }));
      zone.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    });
    await expect(problems).toContainText('cut.json could not be opened');
    await expect(problems).toContainText('not JSON');
    expect(page.url()).toBe(url);
    await waitForSimMs(page, 4000); // still running
  });

  test('the metric series CSV has a header of every sample field and a row per sample', async ({ page }) => {
    await openLab(page, 'speed=16');
    await waitForSimMs(page, 6000);
    await pauseLab(page);
    const { name, bytes } = await download(page, 'Export the metric series as CSV');
    expect(name).toMatch(/^leader-election-metrics-seed1-t[\d.]+s\.csv$/);
    const lines = bytes.toString('utf8').trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'atMs,leaderCount,leaderCountObserved,fencingRejections,staleWritesAccepted,divergentWrites,leaderTransitions,renewalLatencyMs,msWithoutLeader,maxTerm,maxTokenSeen,clientRedirects',
    );
    const rows = lines.slice(1).map((l) => l.split(',').map(Number));
    expect(rows.length).toBeGreaterThan(50); // 100 ms samples over at least 6 s
    for (const row of rows) expect(row.every(Number.isFinite) && row.length === 12).toBe(true);
    for (let i = 1; i < rows.length; i++) expect(rows[i][0]).toBeGreaterThan(rows[i - 1][0]);
    // One leader by now, believed and observed.
    expect(rows[rows.length - 1].slice(1, 3)).toEqual([1, 1]);
  });
});

test.describe('hosted build', () => {
  // The same build, served under a sub-path by a small proxy in front of the preview server.
  const PREFIX = '/some/sub/path/';
  let proxy: Server;
  let proxyUrl = '';

  test.beforeAll(async ({}, info) => {
    const upstream = info.project.use.baseURL as string;
    proxy = createServer(async (req, res) => {
      if (!req.url?.startsWith(PREFIX)) {
        res.writeHead(404).end('outside the sub-path');
        return;
      }
      const r = await fetch(new URL('/' + req.url.slice(PREFIX.length), upstream));
      res.writeHead(r.status, {
        'content-type': r.headers.get('content-type') ?? 'application/octet-stream',
      });
      res.end(Buffer.from(await r.arrayBuffer()));
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}${PREFIX}`;
  });

  test.afterAll(async () => {
    await new Promise((resolve) => proxy.close(resolve));
  });

  test('works from a sub-path, asking nothing of any other path or origin', async ({ page }) => {
    const outside: string[] = [];
    page.on('request', (req) => {
      if (!req.url().startsWith(proxyUrl) && !req.url().startsWith('data:')) outside.push(req.url());
    });
    await page.goto(proxyUrl + '?speed=16');
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Leader Election Lab');
    await waitForSimMs(page, 2000);
    await expect(page.locator('meta[property="og:image"]')).toHaveAttribute(
      'content',
      /social-preview\.png$/,
    );
    expect((await page.request.get(proxyUrl + 'social-preview.png')).status()).toBe(200);
    await page.goto(proxyUrl + 'embed.html?scene=cluster');
    await expect(page.locator('.cluster-svg')).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(outside).toEqual([]);
  });

  test('opens and runs with no network once visited', async ({ page, context }) => {
    await openLab(page, '');
    // The worker installs (fetching the whole site once) and then claims the page; a busy
    // machine can take a while.
    await expect
      .poll(() => page.evaluate(() => !!navigator.serviceWorker.controller), {
        ...SLOW,
        message: 'a service worker controls the page',
      })
      .toBe(true);
    await context.setOffline(true);
    await openLab(page, 'speed=16&seed=3');
    await waitForSimMs(page, 2000);
    await page.goto('/embed.html?scene=cluster');
    await expect(page.locator('.cluster-svg')).toBeVisible();
    await context.setOffline(false);
  });
});
