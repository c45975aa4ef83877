// Frame-time benchmark of the hosted lab in headless Chromium, reported against its budget
// (not part of `npm test`).
//   npm run bench:ui                      build, serve, measure
//   npm run bench:ui -- --no-build        measure the existing dist/
//   options: --seconds=N (per case, default 10), --json (figures as JSON)
// Cases: 5 nodes and 50 clients, playing at 1x and at 16x, at 1280x800. In the page it records
// requestAnimationFrame deltas and PerformanceObserver 'longtask' entries (main-thread tasks over
// 50 ms) while the lab plays. Budget: p95 frame time <= 16.7 ms (60 Hz) and no long task.
// Also printed, without a budget: DOM mutation records per frame, a measure of how much the page
// rewrites each frame that, unlike frame times, does not depend on how busy the machine is.
// It starts `vite preview` on a free port itself and always stops it, also on failure or Ctrl-C.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from '@playwright/test';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const bin = (name: string) => join(root, 'node_modules', '.bin', name);

const FRAME_BUDGET_MS = 16.7;
const LONG_TASK_MS = 50;
const WARM_UP_MS = 1_500;
const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const SECONDS = Number(arg('seconds') ?? 10);

interface Case {
  name: string;
  query: string;
}

const CASES: Case[] = [
  { name: '1x, 5 nodes, 50 clients', query: 'nodes=5&clients=50&speed=1' },
  { name: '16x, 5 nodes, 50 clients', query: 'nodes=5&clients=50&speed=16' },
];

interface Result {
  name: string;
  frames: number;
  p50Ms: number;
  p95Ms: number;
  maxFrameMs: number;
  longTasks: number;
  maxLongTaskMs: number;
  simulatedS: number;
  mutationsPerFrame: number;
  withinBudget: boolean;
}

/** Same search order as playwright.config.ts: $CHROMIUM_PATH, Playwright's own, the system's. */
function chromiumPath(): string | undefined {
  for (const path of [process.env.CHROMIUM_PATH, chromium.executablePath(), '/usr/bin/chromium', '/usr/lib/chromium/chromium']) {
    if (!path) continue;
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // not here; try the next one
    }
  }
  return undefined;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

async function waitForHttp(url: string, server: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`vite preview exited with status ${server.exitCode}`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`vite preview did not answer at ${url} within ${timeoutMs / 1000} s`);
}

/** Stop the server and anything it started: it runs in its own process group. */
function stopServer(server: ChildProcess | null): void {
  if (!server || server.exitCode !== null || server.pid === undefined) return;
  try {
    process.kill(-server.pid, 'SIGTERM');
  } catch {
    // already gone
  }
}

/**
 * Runs in the page for `ms`: every requestAnimationFrame delta, and every long task. Kept as
 * source text, because the TypeScript loader would wrap a function's inner names in a helper
 * that does not exist in the page.
 */
const IN_PAGE = `async (ms) => {
  const deltas = [];
  const longTasks = [];
  let mutations = 0;
  const mutationObserver = new MutationObserver((records) => {
    mutations += records.length;
  });
  mutationObserver.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) longTasks.push(e.duration);
  });
  observer.observe({ type: 'longtask' });
  await new Promise((resolve) => {
    let last = -1;
    const end = performance.now() + ms;
    const frame = (t) => {
      if (last >= 0) deltas.push(t - last);
      last = t;
      if (t < end) requestAnimationFrame(frame);
      else resolve();
    };
    requestAnimationFrame(frame);
  });
  // Entries for tasks that ended just now are delivered later: collect them too.
  for (const e of observer.takeRecords()) longTasks.push(e.duration);
  observer.disconnect();
  mutations += mutationObserver.takeRecords().length;
  mutationObserver.disconnect();
  return { deltas, longTasks, mutations };
}`;

interface InPage {
  deltas: number[];
  longTasks: number[];
  /** DOM mutation records: how much the page rewrites, which a busy machine does not inflate. */
  mutations: number;
}

const quantile = (sorted: number[], q: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] : NaN;

async function measure(browser: Browser, baseUrl: string, c: Case): Promise<Result> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  try {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${baseUrl}/?${c.query}`);
    await page.getByTestId('sim-time').waitFor();
    // Let the first election, layout and chart sizing settle before anything is timed.
    await page.waitForTimeout(WARM_UP_MS);
    const simStartS = parseFloat(await page.getByTestId('sim-time').innerText());
    const raw = await page.evaluate<InPage>(`(${IN_PAGE})(${SECONDS * 1000})`);
    const simEndS = parseFloat(await page.getByTestId('sim-time').innerText());
    if (errors.length) throw new Error(`page errors in "${c.name}": ${errors.join('; ')}`);
    const sorted = [...raw.deltas].sort((a, b) => a - b);
    const p95Ms = quantile(sorted, 0.95);
    const maxLongTaskMs = raw.longTasks.length ? Math.max(...raw.longTasks) : 0;
    return {
      name: c.name,
      frames: raw.deltas.length,
      p50Ms: quantile(sorted, 0.5),
      p95Ms,
      maxFrameMs: sorted[sorted.length - 1] ?? NaN,
      longTasks: raw.longTasks.length,
      maxLongTaskMs,
      simulatedS: simEndS - simStartS,
      mutationsPerFrame: raw.mutations / Math.max(1, raw.deltas.length),
      withinBudget: p95Ms <= FRAME_BUDGET_MS && maxLongTaskMs <= LONG_TASK_MS,
    };
  } finally {
    await page.close();
  }
}

const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '-');

function table(results: Result[]): string {
  const header = ['case', 'frames', 'p50 ms', 'p95 ms', 'budget p95', 'max frame ms', 'long tasks', 'longest ms', 'budget', 'sim s', 'DOM mutations / frame'];
  const rows = results.map((r) => [
    r.name,
    String(r.frames),
    fmt(r.p50Ms),
    fmt(r.p95Ms),
    `<= ${FRAME_BUDGET_MS} ${r.p95Ms <= FRAME_BUDGET_MS ? 'OK' : 'OVER'}`,
    fmt(r.maxFrameMs),
    String(r.longTasks),
    fmt(r.maxLongTaskMs),
    `none > ${LONG_TASK_MS} ms ${r.longTasks === 0 ? 'OK' : 'OVER'}`,
    fmt(r.simulatedS),
    fmt(r.mutationsPerFrame, 0),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

async function main(): Promise<void> {
  if (!process.argv.includes('--no-build')) {
    const built = spawnSync(bin('vite'), ['build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
    if (built.status !== 0) throw new Error('vite build failed');
  } else if (!existsSync(join(root, 'dist', 'index.html'))) {
    throw new Error('--no-build: there is no dist/index.html; run `npx vite build` first');
  }
  const executablePath = chromiumPath();
  if (!executablePath) throw new Error('no Chromium found: run `node scripts/ensure-browser.mjs`');

  const port = await freePort();
  const baseUrl = `http://localhost:${port}`;
  let server: ChildProcess | null = null;
  let browser: Browser | null = null;
  const stop = () => {
    stopServer(server);
    process.exit(130);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    // detached: its own process group, so stopping it also stops anything it spawned.
    server = spawn(bin('vite'), ['preview', '--port', String(port), '--strictPort'], {
      cwd: root,
      detached: true,
      stdio: 'ignore',
    });
    await waitForHttp(baseUrl, server, 30_000);
    browser = await chromium.launch({
      executablePath,
      // As in playwright.config.ts: no sandbox or GPU in containers, nothing that phones home.
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
    });
    const results: Result[] = [];
    for (const c of CASES) results.push(await measure(browser, baseUrl, c));

    if (process.argv.includes('--json')) {
      console.log(JSON.stringify({ seconds: SECONDS, loadavg: loadavg(), results }, null, 2));
    } else {
      const [l1] = loadavg();
      console.log(`UI frame benchmark (headless Chromium ${browser.version()}, 1280x800, ${SECONDS} s per case, load average ${l1.toFixed(1)})\n`);
      console.log(table(results));
      const over = results.filter((r) => !r.withinBudget);
      console.log(over.length ? `\nOVER BUDGET: ${over.map((r) => r.name).join(', ')}` : '\nAll budgets met.');
      // Frame times on a shared machine say as much about its other work as about the page.
      if (l1 > cpus().length / 2) console.log(`Note: the machine was busy (load average ${l1.toFixed(1)}); rerun on an idle one before reading much into it.`);
    }
  } finally {
    await browser?.close();
    stopServer(server);
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
