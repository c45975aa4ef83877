// Seek in the page, headless Chromium: the same 30-simulated-minute runs as tests/bench/seek.ts,
// opened from a shared run link (the recorded commands and the run's last moment), then jumps
// along the timeline slider as a person drags it. What the headless benchmark cannot see is
// measured here: the whole main-thread task of a jump, with React's render of the new moment.
//   npx tsx tests/bench/seek-page.ts     options: --no-build, --seeks=N (default 40), --json
// Per jump: the time from the slider's input event until the task and its microtasks (React's
// synchronous render) are done; and every 'longtask' entry (a main-thread task over 50 ms)
// observed while jumping, from once the page has finished mounting. Budget: no task over 50 ms.
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Browser } from '@playwright/test';
import { loadCodec } from '../../src/shared/codec';
import { encodeRun } from '../../src/shared/share';
import { arg, flag, fmt, quantile, table, withBrowser } from './browserKit';
import type { Figure } from './figures';
import { RUN_MS, SEEK_BUDGET_MS, SEEK_CASES, recordRun, targets, type SeekCase } from './seek';

export interface PageSeekResult {
  name: string;
  seeks: number;
  commands: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  longTasks: number;
  /** The longest task over 50 ms seen while jumping, or 0 when there was none. */
  longestTaskMs: number;
  budgetMs: number;
  withinBudget: boolean;
}

/** Installed before the page's scripts: records long tasks while `on`. */
const LONG_TASK_PROBE = `(() => {
  const st = (window.__seekProbe = { on: false, longTasks: [] });
  new PerformanceObserver((list) => {
    if (st.on) for (const e of list.getEntries()) st.longTasks.push(e.duration);
  }).observe({ type: 'longtask' });
})()`;

/**
 * One jump as the slider makes it: set the value, fire 'input' (React's onChange), and time it
 * until a macrotask after it runs, i.e. after the event's task and React's microtask render.
 * Source text, not a function: the TypeScript loader would wrap inner names in a helper the page lacks.
 */
const JUMP = `async (to) => {
  const input = document.querySelector('input[data-testid="timeline"]');
  if (!input) throw new Error('no timeline slider on the page');
  const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
  const t0 = performance.now();
  setValue.call(input, String(to));
  input.dispatchEvent(new Event('input', { bubbles: true }));
  await new Promise((r) => setTimeout(r, 0));
  return performance.now() - t0;
}`;

/**
 * Resolves once the page has finished mounting: the chain, the chart and the failover timeline
 * (which mount in steps after the first screen, src/app/Later.tsx) are on the page, the chart is
 * drawn at the width its resize observer measured, and their boxes have kept still for ten frames;
 * then once the browser is idle. A first jump that landed while they mounted timed their mounting
 * (the chart's first measurement, 640 to 431 px wide, fell in that frame), not a jump.
 * Source text, as JUMP is.
 */
const SETTLED = `async () => {
  const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
  const boxes = () => {
    const chain = document.querySelector('.area-chain .chain-scene');
    const chart = document.querySelector('.area-chart .metric-chart');
    const svg = chart && chart.querySelector('.metric-svg');
    const failover = document.querySelector('.area-failover .failover-scene');
    if (!chain || !svg || !failover || document.querySelector('.scene-loading')) return null;
    if (Math.abs(svg.getBoundingClientRect().width - chart.clientWidth) > 1) return null;
    const box = (el) => {
      const r = el.getBoundingClientRect();
      return [r.x, r.y, r.width, r.height].map(Math.round).join(',');
    };
    return [chain, chart, failover].map(box).join(' ');
  };
  await document.fonts.ready;
  const deadline = performance.now() + 60000;
  let last = null;
  for (let still = 0; still < 10; ) {
    if (performance.now() > deadline) throw new Error('the chain, chart and failover did not settle in 60 s');
    await frame();
    const now = boxes();
    still = now !== null && now === last ? still + 1 : 0;
    last = now;
  }
  await new Promise((r) => requestIdleCallback(() => r(), { timeout: 5000 }));
}`;

async function measure(
  browser: Browser,
  baseUrl: string,
  c: SeekCase,
  seeks: number,
): Promise<PageSeekResult> {
  const { store, commands } = recordRun(c);
  const untilMs = store.getState().experiment.untilMs;
  await loadCodec(); // the run link's codec, which the page itself loads apart
  const run = encodeRun({ experiment: c.experiment, commands: store.backend().commands, atMs: untilMs });
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  try {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.addInitScript(LONG_TASK_PROBE);
    await page.goto(`${baseUrl}/?run=${run}`);
    // The link opens paused at its moment: wait until the page shows the end of the run.
    const endText = `${(untilMs / 1000).toFixed(1)} s`;
    await page.getByTestId('sim-time').filter({ hasText: endText }).waitFor({ timeout: 120_000 });
    await page.getByTestId('timeline').waitFor();
    await page.evaluate(`(${SETTLED})()`);
    await page.evaluate('window.__seekProbe.on = true');
    const times: number[] = [];
    for (const t of targets(seeks, untilMs)) {
      // The slider moves in 100 ms steps.
      times.push((await page.evaluate(`(${JUMP})(${Math.round(t / 100) * 100})`)) as number);
      // Let the frame after the jump render, as it would between two moves of a drag.
      await page.waitForTimeout(50);
    }
    const longTasks = (await page.evaluate(
      '(() => { window.__seekProbe.on = false; return window.__seekProbe.longTasks; })()',
    )) as number[];
    if (errors.length) throw new Error(`page errors in "${c.name}": ${errors.join('; ')}`);
    times.sort((a, b) => a - b);
    const longestTaskMs = longTasks.length ? Math.max(...longTasks) : 0;
    return {
      name: c.name,
      seeks,
      commands,
      p50Ms: quantile(times, 0.5),
      p95Ms: quantile(times, 0.95),
      maxMs: times[times.length - 1],
      longTasks: longTasks.length,
      longestTaskMs,
      budgetMs: SEEK_BUDGET_MS,
      withinBudget: longTasks.length === 0,
    };
  } finally {
    await page.close();
  }
}

export function runSeekPage(seeks: number, runMs = RUN_MS): Promise<PageSeekResult[]> {
  return withBrowser(async ({ browser, baseUrl }) => {
    const results: PageSeekResult[] = [];
    for (const c of SEEK_CASES) {
      const name = runMs === RUN_MS ? c.name : c.name.replace('30 min', `${runMs / 60_000} min`);
      results.push(
        await measure(browser, baseUrl, { name, experiment: { ...c.experiment, untilMs: runMs } }, seeks),
      );
    }
    return results;
  });
}

export function seekPageTable(results: PageSeekResult[]): string {
  const header = [
    'case (in the page)',
    'jumps',
    'commands',
    'p50 ms',
    'p95 ms',
    'slowest ms',
    'tasks > 50 ms',
    'longest',
  ];
  return table(
    header,
    results.map((r) => [
      r.name,
      String(r.seeks),
      String(r.commands),
      fmt(r.p50Ms),
      fmt(r.p95Ms),
      fmt(r.maxMs),
      `${r.longTasks} ${r.longTasks === 0 ? 'OK' : 'OVER'}`,
      fmt(r.longestTaskMs),
    ]),
  );
}

/**
 * The slowest jump in the page, React's render included: one task, so the figure the
 * "no main-thread task over 50 ms" budget is about (a long task would show in it too).
 */
export function seekPageFigures(results: PageSeekResult[]): Figure[] {
  return results.map((r) => ({
    bench: 'seek',
    name: `longest main-thread task of a jump in the page, ${r.name}`,
    value: Math.max(r.maxMs, r.longestTaskMs),
    unit: 'ms',
    budget: r.budgetMs,
    kind: 'max',
  }));
}

async function main(): Promise<void> {
  const seeks = Number(arg('seeks') ?? 40);
  const results = await runSeekPage(seeks);
  if (flag('json')) {
    console.log(JSON.stringify({ loadavg: loadavg(), results }, null, 2));
  } else {
    console.log(`Seek in the page (headless Chromium, 1280x800, load average ${loadavg()[0].toFixed(1)})\n`);
    console.log(seekPageTable(results));
  }
  if (results.some((r) => !r.withinBudget)) process.exitCode = 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exitCode = 1;
  });
}
