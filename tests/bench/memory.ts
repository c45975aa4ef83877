// Memory benchmark of the hosted lab in headless Chromium, reported against its budget (not part
// of `npm test`).
//   npx tsx tests/bench/memory.ts            build into .reports/bench-dist, serve, measure
//   options: --no-build, --minutes=N (simulated minutes to play, default 120), --json
// The page plays the default lab at 64x (`/?speed=64`). After a warm-up (the first election, the
// chart sized, the JIT settled), garbage is collected (CDP HeapProfiler.collectGarbage) and the
// heap read: the start. The lab then plays on for two simulated hours, with the heap read after a
// collection every simulated 15 minutes so the printout shows whether it levels off; at the end,
// a last collection and reading. Budget: growth <= 20 MB.
// The heap figure is the page's JS heap in use (Runtime.getHeapUsage usedSize, the same as
// Performance.getMetrics JSHeapUsedSize) plus array-buffer backing storage (the chart's typed
// columns live there, outside the JS heap), so memory moved out of the heap still counts.
// The wait is on the page's simulated clock, not the wall clock: a slow machine takes longer
// instead of measuring less.
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Browser, CDPSession, Page } from '@playwright/test';
import { arg, flag, fmt, table, withBrowser } from './browserKit';

export const MEMORY_BUDGET_MB = 20;
const SPEED = 64;
/** Simulated seconds played before the start reading. */
const WARM_UP_SIM_S = 60;
const READ_EVERY_SIM_S = 15 * 60;
const MB = 2 ** 20;

export interface HeapReading {
  simS: number;
  heapUsedMb: number;
  backingMb: number;
  totalMb: number;
  domNodes: number;
  listeners: number;
}

export interface MemoryResult {
  query: string;
  simulatedMin: number;
  wallS: number;
  readings: HeapReading[];
  growthMb: number;
  heapGrowthMb: number;
  backingGrowthMb: number;
  budgetMb: number;
  withinBudget: boolean;
}

interface HeapUsage {
  usedSize: number;
  totalSize: number;
  backingStorageSize?: number;
}

async function simSeconds(page: Page): Promise<number> {
  return parseFloat(await page.getByTestId('sim-time').innerText());
}

/** Collect garbage (twice: the first pass can leave what finalizers freed), then read. */
async function readHeap(cdp: CDPSession, simS: number): Promise<HeapReading> {
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
  const usage = (await cdp.send('Runtime.getHeapUsage')) as HeapUsage;
  const { metrics } = await cdp.send('Performance.getMetrics');
  const metric = (name: string) => metrics.find((m) => m.name === name)?.value ?? NaN;
  const heapUsedMb = usage.usedSize / MB;
  const backingMb = (usage.backingStorageSize ?? 0) / MB;
  return {
    simS,
    heapUsedMb,
    backingMb,
    totalMb: heapUsedMb + backingMb,
    domNodes: metric('Nodes'),
    listeners: metric('JSEventListeners'),
  };
}

async function waitForSim(page: Page, simS: number, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const now = await simSeconds(page);
    if (now >= simS) return now;
    if (Date.now() > deadline)
      throw new Error(`the lab reached only ${now} s of simulated time, waiting for ${simS} s`);
    await page.waitForTimeout(250);
  }
}

export async function measureMemory(
  browser: Browser,
  baseUrl: string,
  minutes: number,
): Promise<MemoryResult> {
  const query = `speed=${SPEED}`;
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  try {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    await page.goto(`${baseUrl}/?${query}`);
    await page.getByTestId('sim-time').waitFor();
    // Generous: 64x means ~1 simulated minute per wall second; allow a machine 4x slower than that.
    const timeoutFor = (simS: number) => Math.max(30_000, (simS / SPEED) * 4_000);
    const readings: HeapReading[] = [];
    const startS = await waitForSim(page, WARM_UP_SIM_S, timeoutFor(WARM_UP_SIM_S));
    readings.push(await readHeap(cdp, startS));
    const started = Date.now();
    const endS = startS + minutes * 60;
    for (let next = startS + READ_EVERY_SIM_S; next < endS; next += READ_EVERY_SIM_S) {
      readings.push(await readHeap(cdp, await waitForSim(page, next, timeoutFor(READ_EVERY_SIM_S))));
    }
    readings.push(
      await readHeap(
        cdp,
        await waitForSim(page, endS, timeoutFor(Math.min(endS - startS, READ_EVERY_SIM_S))),
      ),
    );
    const wallS = (Date.now() - started) / 1000;
    if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);
    const first = readings[0];
    const last = readings[readings.length - 1];
    const growthMb = last.totalMb - first.totalMb;
    return {
      query,
      simulatedMin: (last.simS - first.simS) / 60,
      wallS,
      readings,
      growthMb,
      heapGrowthMb: last.heapUsedMb - first.heapUsedMb,
      backingGrowthMb: last.backingMb - first.backingMb,
      budgetMb: MEMORY_BUDGET_MB,
      withinBudget: growthMb <= MEMORY_BUDGET_MB,
    };
  } finally {
    await page.close();
  }
}

export function runMemory(minutes: number): Promise<MemoryResult> {
  return withBrowser(({ browser, baseUrl }) => measureMemory(browser, baseUrl, minutes));
}

export function memoryReport(r: MemoryResult): string {
  const header = ['simulated', 'JS heap MB', 'array buffers MB', 'total MB', 'DOM nodes', 'listeners'];
  const rows = r.readings.map((x) => [
    `${fmt(x.simS / 60, 1)} min`,
    fmt(x.heapUsedMb, 2),
    fmt(x.backingMb, 2),
    fmt(x.totalMb, 2),
    String(x.domNodes),
    String(x.listeners),
  ]);
  return [
    table(header, rows),
    '',
    `growth over ${fmt(r.simulatedMin, 0)} simulated min at ${SPEED}x (${fmt(r.wallS, 0)} s wall): ` +
      `${fmt(r.growthMb, 2)} MB (JS heap ${fmt(r.heapGrowthMb, 2)}, array buffers ${fmt(r.backingGrowthMb, 2)})  ` +
      `budget <= ${r.budgetMb} MB  ${r.withinBudget ? 'OK' : 'OVER'}`,
  ].join('\n');
}

async function main(): Promise<void> {
  const minutes = Number(arg('minutes') ?? 120);
  const r = await runMemory(minutes);
  if (flag('json')) {
    console.log(JSON.stringify({ loadavg: loadavg(), cpus: cpus().length, ...r }, null, 2));
  } else {
    console.log(
      `Memory (headless Chromium, /?${r.query}, heap after GC, load average ${loadavg()[0].toFixed(1)}, ${cpus().length} cores)\n`,
    );
    console.log(memoryReport(r));
  }
  if (!r.withinBudget) process.exitCode = 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exitCode = 1;
  });
}
