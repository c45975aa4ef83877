// A projector shows what the step is about: in present mode at 1920x1080 and 1280x720, at every
// step of every game day (as it begins and once it is done), the view the step names is whole on
// the screen (nothing of it outside the window or cut by a panel's edge), and so are the guided
// panel's buttons; the stage and the chart, wherever they are shown, have no label over another
// (a step that leaves either too little room hides it), the chart is drawn within its box and no
// heading of its panels nor label of its time axis runs past its edge; and the chain's words stay
// in their steps (none past a card's side, no title under its step's "now" tag).
// The same walk checks the captions as claims in the page: at every step's pause the caption is
// the headless run's (its numbers filled from the same moment), every fact the step declares
// (`claims`: roles, leaders, both leader_count lines, counters, the highest token) is what the
// stage, the storage and the chart show, and the banner's words are true of that moment
// (claimsInPage.ts; tests/scenes/claims.test.ts checks the same headless).
import { readdirSync, readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { Simulation, type Snapshot } from '../../src/engine';
import { runScenario, runStep } from '../../src/scenario/run';
import { parseScenario } from '../../src/scenario/schema';
import type { Scenario } from '../../src/scenario/types';
import { claimsShown, expectBannerTrue } from './claimsInPage';
import { chartTextCutIn, expect, finishStep, inPage, metricScene, pileUpsIn, test, WHOLE_PAGE } from './lab';

const DIR = new URL('../../scenes/scenarios/', import.meta.url);
const SCENARIOS: Scenario[] = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .map((f) => {
    const r = parseScenario(JSON.parse(readFileSync(new URL(f, DIR), 'utf8')));
    if (!r.ok) throw new Error(`${f} does not parse`);
    return r.scenario;
  });

/** The element that shows the view a step names (the one the guided highlight outlines). */
const VIEW_SELECTOR: Record<string, string> = {
  storage: '[data-testid="storage"]',
  banner: '[data-testid="safety-banner"]',
  log: '.event-log',
};
const viewSelector = (view: string) => VIEW_SELECTOR[view] ?? '.scene-panel[data-watched]';

/**
 * What of an element is not on screen, in words: its box outside the window, or any of its text
 * outside what its panels leave visible (each ancestor that clips its overflow, and the window).
 */
const cutIn = (sel: string, boxOnly: boolean): string[] => {
  const el = document.querySelector(sel);
  if (!el) return [`${sel} is not in the page`];
  const box = el.getBoundingClientRect();
  if (box.width === 0 || box.height === 0) return [`${sel} is not shown`];
  // What the window and every clipping ancestor leave visible.
  let vis = { left: 0, top: 0, right: innerWidth, bottom: innerHeight };
  for (let a: Element | null = el; a; a = a.parentElement) {
    const cs = getComputedStyle(a);
    if (cs.overflowX === 'visible' && cs.overflowY === 'visible') continue;
    const r = a.getBoundingClientRect();
    vis = {
      left: Math.max(vis.left, r.left),
      top: Math.max(vis.top, r.top),
      right: Math.min(vis.right, r.right),
      bottom: Math.min(vis.bottom, r.bottom),
    };
  }
  const out: string[] = [];
  const where = (r: DOMRect) =>
    `${Math.round(r.left)},${Math.round(r.top)}..${Math.round(r.right)},${Math.round(r.bottom)}`;
  if (box.left < -1 || box.top < -1 || box.right > innerWidth + 1 || box.bottom > innerHeight + 1)
    out.push(`${sel} at ${where(box)} is outside the ${innerWidth}x${innerHeight} window`);
  if (boxOnly) return out;
  // Text kept for screen readers only: clipped to nothing, in a box of a pixel.
  const hiddenForSight = (e: Element) => {
    for (let a: Element | null = e; a && a !== el.parentElement; a = a.parentElement) {
      const cs = getComputedStyle(a);
      if (cs.clip !== 'auto' || cs.clipPath.startsWith('inset(50%')) return true;
    }
    return false;
  };
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    const text = t.textContent?.trim();
    const parent = t.parentElement;
    if (!text || !parent || !parent.checkVisibility({ visibilityProperty: true, opacityProperty: true }))
      continue;
    if (hiddenForSight(parent)) continue;
    const range = document.createRange();
    range.selectNodeContents(t);
    const r = range.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    if (r.left < vis.left - 1 || r.top < vis.top - 1 || r.right > vis.right + 1 || r.bottom > vis.bottom + 1)
      out.push(`"${text.slice(0, 40)}" at ${where(r)} is cut`);
  }
  return out;
};

/**
 * The chain's words that leave their place: a title under its step's "now" tag, or a word wider
 * than its step (a long name at a projector's type) running past the card's side into the next
 * one. (The strip's foot may cut a step's last lines when the step does not name the chain.)
 */
const chainWordsOutIn = (): string[] => {
  const out: string[] = [];
  for (const step of document.querySelectorAll('.area-chain .chain-step')) {
    const card = step.getBoundingClientRect();
    // The tag, where it is drawn over what is under it (in the strip, an outcome's alert is
    // drawn over it and its title: the alert is the step's news).
    const tagEl = step.querySelector('.chain-now');
    const tag = tagEl?.getBoundingClientRect();
    const tagOnTop =
      tag &&
      tagEl!.contains(document.elementFromPoint((tag.left + tag.right) / 2, (tag.top + tag.bottom) / 2));
    const name = `chain step ${step.className.replace(/.*chain-step-(\d).*/, '$1')}`;
    const walker = document.createTreeWalker(step, NodeFilter.SHOW_TEXT);
    for (let t = walker.nextNode(); t; t = walker.nextNode()) {
      const text = t.textContent?.trim();
      const parent = t.parentElement!;
      if (!text || parent.closest('.chain-now') || !parent.checkVisibility({ visibilityProperty: true }))
        continue;
      // Text kept for screen readers only is clipped to nothing.
      let forSight = true;
      for (let a: Element = parent; a !== step; a = a.parentElement!)
        if (getComputedStyle(a).clip !== 'auto') forSight = false;
      if (!forSight) continue;
      const range = document.createRange();
      range.selectNodeContents(t);
      // A line at a time: a title's words under the tag are on its first line.
      for (const r of range.getClientRects()) {
        if (r.width === 0) continue;
        if (r.left < card.left - 1 || r.right > card.right + 1)
          out.push(`${name}'s "${text.slice(0, 40)}" runs past its card's side`);
        const inset = r.height / 5;
        if (tagOnTop && tag.left < r.right - 0.5 && r.left < tag.right - 0.5)
          if (tag.top < r.bottom - inset - 0.5 && r.top + inset < tag.bottom - 0.5)
            out.push(`${name}'s "now" tag covers its "${text.slice(0, 40)}"`);
      }
    }
  }
  return out;
};

async function stepLabel(page: Page): Promise<string> {
  return page.getByTestId('guided').locator('h2 .hint').innerText();
}

/** Presses a guided button without scrolling to it, as a clicker's key would. */
async function press(page: Page, name: RegExp): Promise<void> {
  await page.evaluate(
    (src) =>
      [...document.querySelectorAll<HTMLButtonElement>('[data-testid="guided"] button')]
        .find((b) => new RegExp(src).test(b.textContent ?? ''))
        ?.click(),
    name.source,
  );
}

async function problemsAt(page: Page, scenario: Scenario, index: number, when: string): Promise<string[]> {
  const view = scenario.steps[index].watch?.view;
  // Every check in one task of the page (a busy one takes a frame or more to run each).
  const [inView, buttons, ...rest] = (await page.evaluate(
    `[${[
      // The event log is a list that scrolls: its box is what must be on screen.
      view ? inPage(cutIn, viewSelector(view), view === 'log') : '[]',
      inPage(cutIn, '[data-testid="guided"] .btn-row', false),
      // Every step shows the stage and the chart whole or not at all.
      inPage(pileUpsIn, ['.cluster-svg', 'stage']),
      inPage(pileUpsIn, ['.area-chart .metric-svg', 'chart']),
      inPage(chartTextCutIn),
      inPage(chainWordsOutIn),
      'scrollY === 0 ? [] : [`the page scrolled by ${scrollY} px`]',
    ].join(',')}]`,
  )) as string[][];
  const out = [...inView, ...buttons.map((p) => `Previous / Skip / Next: ${p}`), ...rest.flat()];
  return [...new Set(out)].map((p) => `step ${index + 1} (${view ?? 'no view'}, ${when}): ${p}`);
}

const SIZES = [
  { width: 1920, height: 1080 },
  { width: 1280, height: 720 },
];

/** The window at `size`, if it is not already. */
async function resizeTo(page: Page, size: { width: number; height: number }): Promise<void> {
  const now = page.viewportSize();
  if (now?.width !== size.width || now.height !== size.height) await page.setViewportSize(size);
}

/** Two frames: what a resize or a step changed has been laid out and painted. */
async function painted(page: Page): Promise<void> {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/**
 * The problems of this moment at each projector size, the window resized in place. A scene that
 * loads apart (the chain, the chart, a tab's scene) may still be on its way: each size is given up
 * to `settleMs` before what it shows counts (none once the walk has found a problem: it fails
 * anyway, and then says everything it finds rather than running out of time).
 */
async function atBothSizes(
  page: Page,
  scenario: Scenario,
  index: number,
  when: string,
  settleMs: number,
): Promise<string[]> {
  const out: string[] = [];
  // The size the window has first, as it is, then the other, resized to.
  const first = SIZES.findIndex((size) => size.width === page.viewportSize()?.width);
  for (const size of first > 0 ? [...SIZES].reverse() : SIZES) {
    await resizeTo(page, size);
    // The views redraw for their new boxes a frame or a throttled redraw later, and a chart that
    // mounts with the step measures itself later still: on a busy machine (two browsers on two
    // cores) that took over 2 s, so a layout has 5 s to settle before what it shows is a problem.
    const until = Date.now() + settleMs;
    let found: string[];
    do {
      await painted(page);
      found = await problemsAt(page, scenario, index, `${when}, ${size.width}x${size.height}`);
    } while (found.length > 0 && Date.now() < until);
    out.push(...found);
  }
  return out;
}

/** The headless run's caption and snapshot at each step's pause: what the page must show there. */
function headlessPauses(scenario: Scenario): { caption: string; at: Snapshot }[] {
  const captions = runScenario(scenario).steps.map((s) => s.caption);
  const sim = new Simulation(scenario.experiment);
  return scenario.steps.map((step, i) => {
    runStep(sim, step, sim.experiment.untilMs);
    return { caption: captions[i], at: sim.snapshot() };
  });
}

/**
 * Whether the stage and the chart are shown at this window size: a step whose view is a tab's
 * fills the screen with it, a step naming the event log hides the stage, and so does a step that
 * leaves it too little room (a hidden stage stops drawing, so its roles are those of the moment it
 * was hidden; shown again, it catches up).
 */
async function stageAndChartShownAt(page: Page, size: { width: number; height: number }): Promise<boolean> {
  await resizeTo(page, size);
  await painted(page);
  return (
    (await metricScene(page).first().isVisible()) &&
    (await page.locator('[data-testid^="node-"][data-role]').first().isVisible())
  );
}

/** The caption and the claims of a step at its pause, and the banner, against the headless run's. */
async function checkClaims(
  page: Page,
  scenario: Scenario,
  i: number,
  pause: { caption: string; at: Snapshot },
): Promise<number> {
  const where = `${scenario.id} step ${i + 1}`;
  await expect(page.getByTestId('guided-caption'), `${where}: the caption`).toHaveText(pause.caption);
  const { said, shown, count, seen } = await claimsShown(page, scenario.steps[i].claims ?? {});
  expect(shown, `${where}: the page at the pause`).toEqual(said);
  expectBannerTrue(seen, pause.at, where);
  return count;
}

test.describe('present mode at 1920x1080 and 1280x720', () => {
  // The longest file of the suite, a page per game day and nothing shared between them: its game
  // days go to whichever worker is free, rather than all to one that then finishes minutes after
  // the other.
  test.describe.configure({ mode: 'parallel' });
  test.use({ viewport: SIZES[0] });
  for (const scenario of SCENARIOS) {
    test(`${scenario.id}: every step's view is whole on screen, and its caption's claims are what the page shows`, async ({
      page,
    }) => {
      test.setTimeout(120_000);
      const pauses = headlessPauses(scenario);
      await page.goto(`/?present&scenario=${scenario.id}&speed=8`);
      const guided = page.getByTestId('guided');
      const total = scenario.steps.length;
      const problems: string[] = [];
      let claimsChecked = 0;
      const apart: number[] = [];
      for (let i = 0; i < total; i++) {
        await expect(guided.locator('h2')).toContainText(`step ${i + 1} of ${total}`);
        problems.push(...(await atBothSizes(page, scenario, i, 'as it begins', problems.length ? 0 : 5000)));
        await press(page, /Skip/);
        await expect(page.getByTestId('guided-status')).not.toContainText('Waiting');
        // The claims, at the pause, on the big projector, or, where the step leaves the stage no
        // room there, on a screen tall enough for it; a step whose view fills the screen (the
        // znode queue, the leaderless comparison) or that hides the stage (the event log) is
        // checked after the walk, opened at that step.
        if (
          (await stageAndChartShownAt(page, SIZES[0])) ||
          (await stageAndChartShownAt(page, WHOLE_PAGE.viewport))
        )
          claimsChecked += await checkClaims(page, scenario, i, pauses[i]);
        else apart.push(i);
        problems.push(...(await atBothSizes(page, scenario, i, 'done', problems.length ? 0 : 5000)));
        if (i < total - 1) await press(page, /Next/);
      }
      expect(await stepLabel(page)).toBe(`step ${total} of ${total}`);
      expect(problems).toEqual([]);
      // Those steps outside present mode, on a screen that shows every view with the step's.
      await page.setViewportSize(WHOLE_PAGE.viewport);
      for (const i of apart) {
        await page.goto(`/?scenario=${scenario.id}&step=${i + 1}&speed=64`);
        await expect(guided.locator('h2')).toContainText(`step ${i + 1} of ${total}`);
        await finishStep(page);
        claimsChecked += await checkClaims(page, scenario, i, pauses[i]);
      }
      test.info().annotations.push({ type: 'claims checked', description: String(claimsChecked) });
      console.log(`${scenario.id}: ${claimsChecked} claims checked in the page over ${total} steps`);
      expect(claimsChecked, 'claims the page was checked against').toBeGreaterThanOrEqual(total);
    });
  }
});
