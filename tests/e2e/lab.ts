// Shared steps for the lab's browser specs. Everything here reads what the page shows (roles on
// the stage, text in the scenes, the simulated clock) or does what a person does (click, type),
// so a spec written with it fails when the page stops showing the right thing.
// Every algorithm's rules: this runs in Node (or a worker), with no page to load them on demand.
import '../../src/engine/algorithms/all';
import { expect, test as base, type Locator, type Page } from '@playwright/test';
import { loadCodec } from '../../src/shared/codec';

// Specs that write or read run links in Node (encodeRun, decodeRun) need the codec the page loads
// apart; every spec imports this file, and its imports run before the spec's own code.
await loadCodec();

/**
 * Every spec fails on a console error, an uncaught exception or a failed request: a broken
 * animation loop or a missing asset would otherwise go unnoticed behind passing assertions.
 */
export const test = base.extend<{ problems: string[] }>({
  problems: [
    async ({ page }, use) => {
      const problems: string[] = [];
      page.on('console', (msg) => {
        if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`);
      });
      page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
      // A request the browser itself cancels (the page navigated away while a chunk it asked for
      // in an idle moment was still on its way) is no failure of the page's.
      page.on('requestfailed', (req) => {
        if (req.failure()?.errorText !== 'net::ERR_ABORTED')
          problems.push(`request failed: ${req.url()} (${req.failure()?.errorText})`);
      });
      await use(problems);
      expect(problems, 'the page logged errors').toEqual([]);
    },
    { auto: true },
  ],
});
export { expect };

/**
 * A screen tall enough to show every panel at once. The lab's scenes follow the simulation only
 * while they are on screen (off screen they keep what they showed and catch up when scrolled
 * to: offscreen.spec.ts), so a spec that watches the stage, the chain, the chart and the log
 * together, as a person with the whole page in view would, opens the lab on such a screen.
 */
export const WHOLE_PAGE = { viewport: { width: 1280, height: 4000 } };

/** Generous: a busy two-core CI machine can run the page well below its nominal speed. */
export const SLOW = { timeout: 20_000 };

export interface Leader {
  id: string;
  term: number;
}

export async function openLab(page: Page, query = 'speed=16'): Promise<void> {
  await page.goto(`/?${query}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Leader Election Lab');
  // The header is in the page before the lab's code runs: wait for the stage, whose nodes are
  // drawn once the lab runs and listens for keys.
  await expect(page.locator('[data-testid^="node-"][data-role]').first()).toBeAttached(SLOW);
}

export function stageNode(page: Page, id: string): Locator {
  return page.getByTestId(`node-${id}`);
}

export function stageLeaders(page: Page): Locator {
  return page.locator('[data-testid^="node-"][data-role="leader"]');
}

/** Ids of all nodes on the stage, in ring order. */
export async function nodeIds(page: Page): Promise<string[]> {
  return page
    .locator('[data-testid^="node-"][data-role]')
    .evaluateAll((els) => els.map((el) => el.getAttribute('data-testid')!.slice('node-'.length)));
}

export async function roleOf(page: Page, id: string): Promise<string> {
  return (await stageNode(page, id).getAttribute('data-role')) ?? '';
}

/** Waits until the stage shows a leader that is not one of `except`, and returns it. */
export async function waitForLeader(
  page: Page,
  except: string[] = [],
  timeout = SLOW.timeout,
): Promise<Leader> {
  let found: Leader | null = null;
  await expect
    .poll(
      async () => {
        const all = await stageLeaders(page).evaluateAll((els) =>
          els.map((el) => ({
            id: el.getAttribute('data-testid')!.slice('node-'.length),
            term: Number(el.getAttribute('data-term')),
          })),
        );
        found = all.filter((l) => !except.includes(l.id)).sort((a, b) => b.term - a.term)[0] ?? null;
        return found?.id ?? 'no leader';
      },
      { message: `a leader other than [${except.join(', ')}] on the stage`, timeout },
    )
    .not.toBe('no leader');
  return found as unknown as Leader;
}

/** The simulated clock next to the timeline, in ms (it shows one decimal). */
export async function simMs(page: Page): Promise<number> {
  const text = await page.getByTestId('sim-time').innerText();
  return Math.round(parseFloat(text) * 1000);
}

export async function waitForSimMs(page: Page, atLeastMs: number, timeout = SLOW.timeout): Promise<void> {
  await expect
    .poll(() => simMs(page), { message: `simulated time reaches ${atLeastMs} ms`, timeout })
    .toBeGreaterThanOrEqual(atLeastMs);
}

/** Select a node with the picker's button (not the stage glyph, whose name also starts "Select"). */
export async function selectNode(page: Page, id: string): Promise<void> {
  const pick = page.getByRole('button', { name: `Select ${id}`, exact: true });
  await pick.click();
  await expect(pick).toHaveAttribute('aria-pressed', 'true');
}

/**
 * Finish the game-day step shown, as a reader's Skip does, and wait for the lab to pause on the
 * moment it ended. The button is checked and clicked in one go in the page: the step may end by
 * itself meanwhile, and a click sent to a button that was enabled when looked at would then wait
 * for it forever.
 */
export async function finishStep(page: Page): Promise<void> {
  await page.evaluate(() => {
    const skip = [...document.querySelectorAll('button')].find((b) => b.textContent?.startsWith('Skip'));
    if (skip && !skip.disabled) skip.click();
  });
  await expect(page.getByTestId('guided-status')).toContainText(/Done|complete|did not happen/, SLOW);
  await expect(page.getByTestId('play')).toHaveAttribute('aria-label', 'Play');
}

export async function pauseLab(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Pause', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Play', exact: true })).toBeVisible();
}

export async function playLab(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Play', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Pause', exact: true })).toBeVisible();
}

export function chainScene(page: Page): Locator {
  return page.getByRole('region', { name: 'Fencing chain' });
}

export function metricScene(page: Page): Locator {
  return page.getByRole('region', { name: 'leader_count' });
}

export function ledger(page: Page): Locator {
  return page.getByLabel('Latest writes at the storage');
}

export function eventLog(page: Page): Locator {
  return page.getByTestId('event-log');
}

export function banner(page: Page): Locator {
  return page.getByTestId('safety-banner');
}

/** A figure from the chart's header line, e.g. "time without a leader: 14.6 s" -> 14600. */
export async function chartFigure(
  page: Page,
  label: 'time without a leader' | 'fencing rejections' | 'transitions',
): Promise<number> {
  const text = await metricScene(page).locator('header').innerText();
  const m = new RegExp(`(?:^|\\s)${label}:\\s*([\\d.]+)\\s*(s|ms)?`).exec(text);
  if (!m) throw new Error(`the chart header shows no "${label}" figure: ${JSON.stringify(text)}`);
  const value = parseFloat(m[1]);
  return m[2] === 's' ? Math.round(value * 1000) : value;
}

/** The chart's two leader_count lines at the moment it last drew, and what the observed one pages on. */
export async function chartLines(
  page: Page,
): Promise<{ observed: number; believed: number; paging: string }> {
  const scene = metricScene(page);
  const [observed, believed, paging] = await Promise.all(
    ['data-observed', 'data-believed', 'data-paging'].map((a) => scene.getAttribute(a)),
  );
  return { observed: Number(observed), believed: Number(believed), paging: paging ?? '' };
}

/**
 * Wait until the chart draws these two lines (and paging), checked in the page on every animation
 * frame: a state that lasts a few seconds of simulated time passes in a fraction of a second at
 * 16x, and a poll from the test, a second apart on a loaded machine, can miss it entirely.
 */
export async function waitForChartLines(
  page: Page,
  want: { observed: number; believed: number; paging: string },
  message: string,
  timeout = SLOW.timeout,
): Promise<void> {
  try {
    await page.waitForFunction(
      (w) => {
        const el = document.querySelector('section.metric-scene[data-observed]');
        return (
          el !== null &&
          Number(el.getAttribute('data-observed')) === w.observed &&
          Number(el.getAttribute('data-believed')) === w.believed &&
          el.getAttribute('data-paging') === w.paging
        );
      },
      want,
      { polling: 'raf', timeout },
    );
  } catch (err) {
    const last = await chartLines(page).catch(() => undefined);
    throw new Error(
      `${message}: wanted ${JSON.stringify(want)}, last drawn ${JSON.stringify(last)} (${String(err)})`,
    );
  }
}

/** The time, in ms, of the first event-log line matching `pattern` (the log shows "12.4 s text"). */
export async function logTimeOf(page: Page, pattern: RegExp): Promise<number> {
  const lines = await eventLog(page).locator('li').allInnerTexts();
  const hit = lines.reverse().find((l) => pattern.test(l));
  if (!hit) throw new Error(`no event-log line matches ${pattern}:\n${lines.join('\n')}`);
  return Math.round(parseFloat(hit) * 1000);
}

/**
 * Set the timeline to a moment, as a drag that lets go there would: a new value and an input
 * event. The timeline moves in 100 ms steps, so the moment is rounded to one.
 */
export async function seekTo(page: Page, ms: number): Promise<void> {
  await page.getByRole('slider', { name: 'Timeline' }).fill(String(Math.round(ms / 100) * 100));
}

/**
 * Open a scene's Embed dialog from the Export tab, where each scene has its Embed button, and
 * return the dialog.
 */
export async function openEmbed(page: Page, sceneName: string): Promise<Locator> {
  await openTab(page, 'Export');
  await page.getByRole('button', { name: `Embed the ${sceneName}` }).click();
  const dialog = page.getByRole('dialog', { name: `Embed the ${sceneName}` });
  await expect(dialog).toBeVisible();
  return dialog;
}

/**
 * Select one of the tabs under the first screen (Events, Setup, Export, Learn, the failover
 * timeline), as a person does to reach what is in it.
 */
export async function openTab(page: Page, name: string): Promise<void> {
  const tab = page.getByRole('tab', { name, exact: true });
  if ((await tab.getAttribute('aria-selected')) !== 'true') await tab.click();
  await expect(tab).toHaveAttribute('aria-selected', 'true');
}

/** The setup picker's choice of the run's algorithm (the one pressed). */
export function picked(page: Page): Locator {
  return page.getByTestId('algorithm-picker').locator('button[aria-pressed="true"]');
}

/** Run another algorithm: one click on its line in the setup's picker. */
export async function chooseAlgorithm(page: Page, title: string): Promise<void> {
  await openTab(page, 'Setup');
  const choice = page
    .getByTestId('algorithm-picker')
    .getByRole('button', { name: new RegExp(`^${title}\\b`) });
  await choice.click();
  await expect(choice).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('sim-time')).toHaveText(/^\d/);
}

/**
 * The source text of a call of `fn` (a function that runs in the page) with these arguments: several
 * checks in one `page.evaluate`, one task of a busy page rather than one each.
 */
export const inPage = (fn: (...args: never[]) => unknown, ...args: unknown[]): string =>
  `(${fn.toString()})(...${JSON.stringify(args)})`;

/**
 * The words of a drawing (the stage, the chart) drawn over each other, when it is shown: pairs of
 * its labels whose glyphs meet (each text's box less the fifth of its height above and below that
 * the font keeps for ascenders and descenders). A drawing squeezed to a sliver keeps its words'
 * size on screen while its marks close up, and its labels pile on one another.
 */
export async function pileUps(page: Page, svgSelector: string, name: string): Promise<string[]> {
  return page.evaluate(pileUpsIn, [svgSelector, name] as const);
}

/** pileUps, in the page. */
export const pileUpsIn = ([sel, name]: readonly [string, string]): string[] => {
  const svg = document.querySelector(sel);
  if (!svg || svg.getClientRects().length === 0) return [];
  const boxes = [...svg.querySelectorAll('text')]
    .filter((t) => t.textContent?.trim() && t.getClientRects().length > 0)
    .map((t) => {
      const r = t.getBoundingClientRect();
      const inset = r.height / 5;
      return {
        l: r.left,
        t: r.top + inset,
        r: r.right,
        b: r.bottom - inset,
        what: t.textContent!.trim(),
      };
    });
  const out: string[] = [];
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, b] = [boxes[i], boxes[j]];
      if (a.l < b.r - 0.5 && b.l < a.r - 0.5 && a.t < b.b - 0.5 && b.t < a.b - 0.5)
        out.push(`the ${name}'s "${a.what}" is drawn over its "${b.what}"`);
    }
  return out;
};

/**
 * The chart's words that run past its edge: its panels' headings (its clients panel's, on the
 * first screen), and the labels of its time axis (the last one, under the plot's right end); and
 * a chart drawn taller than its box.
 */
export async function chartTextCut(page: Page): Promise<string[]> {
  return page.evaluate(chartTextCutIn);
}

/** chartTextCut, in the page. */
export const chartTextCutIn = (): string[] => {
  const past = (t: SVGGraphicsElement) => {
    const r = t.getBoundingClientRect();
    const edge = t.ownerSVGElement!.getBoundingClientRect();
    return r.right > edge.right + 1 || r.left < edge.left - 1;
  };
  const shown = (sel: string) =>
    [...document.querySelectorAll<SVGGraphicsElement>(sel)].filter((t) => t.getClientRects().length > 0);
  return [
    ...shown('.area-chart .metric-panel-title')
      .filter(past)
      .map((t) => `the chart's heading "${t.textContent}" runs past its edge`),
    // A tick's label is in the tick's group; the y axis's labels are not.
    ...shown('.area-chart .metric-axis g text')
      .filter(past)
      .map((t) => `the chart's time label "${t.textContent}" runs past its edge`),
    // The chart is drawn within its box (squeezed below its least plot, it is drawn taller and
    // its foot, the time axis, is cut).
    ...shown('.area-chart .metric-svg')
      .map((svg) => [svg.getBoundingClientRect().height, svg.parentElement!.clientHeight])
      .filter(([drawn, box]) => drawn > box + 1)
      .map(([drawn, box]) => `the chart is drawn ${Math.round(drawn)} px tall in a box of ${box} px`),
  ];
};
