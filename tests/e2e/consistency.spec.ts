// The views never contradict each other about the same moment. Several game days are walked
// step by step; at the end of each step (the lab pauses there, on exactly that moment) the
// banner, the fencing chain, the leader_count chart, the caption and the event log are read and
// checked against the stage and against the same run replayed headless.
import { readdirSync, readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { algorithmFor, Simulation } from '../../src/engine';
import { parseScenario } from '../../src/scenario/schema';
import type { Scenario } from '../../src/scenario/types';
import { banner, chainScene, chartLines, eventLog, expect, finishStep, simMs, test, WHOLE_PAGE } from './lab';
import { chartDrawnNow } from './claimsInPage';

test.use(WHOLE_PAGE);
test.describe.configure({ timeout: 120_000 });

const SCENARIOS = ['gc-pause-long', 'gc-pause-long-no-fencing', 'quorum-split-2-3', 'no-quorum-split-brain'];

const DIR = new URL('../../scenes/scenarios/', import.meta.url);

function findScenario(id: string): Scenario {
  for (const file of readdirSync(DIR)) {
    const r = parseScenario(JSON.parse(readFileSync(new URL(file, DIR), 'utf8')));
    if (r.ok && r.scenario.id === id) return r.scenario;
  }
  throw new Error(`no scenario ${id}`);
}

interface Moment {
  step: number;
  atMs: number;
  leaders: { id: string; term: number }[];
  /** The chart's two leader_count lines. */
  chartBelieved: number;
  chartObserved: number;
  banner: string;
  chain: string;
  caption: string;
  log: string[];
}

async function read(page: Page, step: number): Promise<Moment> {
  const leaders = await page.locator('[data-testid^="node-"][data-role="leader"]').evaluateAll((els) =>
    els.map((el) => ({
      id: el.getAttribute('data-testid')!.slice('node-'.length),
      term: Number(el.getAttribute('data-term')),
    })),
  );
  const lines = await chartLines(page);
  return {
    step,
    atMs: await simMs(page),
    leaders,
    chartBelieved: lines.believed,
    chartObserved: lines.observed,
    banner: await banner(page).innerText(),
    chain: await chainScene(page).getByTestId('quorum-headline').innerText(),
    caption: await page.getByTestId('guided-caption').innerText(),
    log: await eventLog(page).locator('li').allInnerTexts(),
  };
}

/**
 * Both leader_counts of the same run headless ("believed/observed"), if they are the same all
 * through the 0.1 s the clock shows.
 */
function headlessLeaderCounts(id: string, atMs: number): { believed: number; observed: number } | null {
  const scenario = findScenario(id);
  const sim = new Simulation(scenario.experiment);
  const counts = new Set<string>();
  for (let t = Math.max(0, atMs - 100); t <= atMs + 100; t += 10) {
    sim.runUntil(t);
    const s = sim.snapshot();
    counts.add(`${s.leaderCount}/${s.leaderCountObserved}`);
  }
  if (counts.size !== 1) return null;
  const [believed, observed] = [...counts][0].split('/').map(Number);
  return { believed, observed };
}

/** Whether the same run headless has `node` winning `term` by atMs. */
function headlessWon(id: string, atMs: number, node: string, term: number): boolean {
  const sim = new Simulation(findScenario(id).experiment);
  sim.runUntil(atMs);
  return sim.events.some((e) => e.type === 'elected' && e.node === node && e.term === term);
}

function check(id: string, fencingOff: boolean, m: Moment): string[] {
  const where = `${id} step ${m.step} at ${m.atMs} ms`;
  const wrong: string[] = [];
  const count = m.leaders.length;
  if (m.chartBelieved !== count)
    wrong.push(
      `${where}: the chart's believed line says ${m.chartBelieved}, the stage shows ${count} leaders`,
    );
  const headless = headlessLeaderCounts(id, m.atMs);
  if (headless !== null && headless.believed !== count)
    wrong.push(`${where}: the stage shows ${count} leaders, the run has leader_count ${headless.believed}`);
  if (headless !== null && headless.observed !== m.chartObserved)
    wrong.push(
      `${where}: the chart's observed line says ${m.chartObserved}, the run has ${headless.observed}`,
    );
  if (count >= 2 && /no split brain/i.test(m.banner))
    wrong.push(`${where}: the banner says "no split brain" with leader_count ${count}: ${m.banner}`);
  if (count !== 1 && !m.banner.includes(`leader_count ${count}`))
    wrong.push(`${where}: the banner does not give leader_count ${count}: ${m.banner}`);
  if (fencingOff && /fencing decides/i.test(m.banner))
    wrong.push(`${where}: fencing is off but the banner says fencing decides: ${m.banner}`);
  const led = /^(n\d+) leads term (\d+)/.exec(m.chain);
  if (led && !m.leaders.some((l) => l.id === led[1] && l.term === Number(led[2])))
    wrong.push(`${where}: the chain says "${m.chain}", the stage's leaders are ${JSON.stringify(m.leaders)}`);
  if (/^No leader/.test(m.chain) && count > 0)
    wrong.push(`${where}: the chain says no leader, the stage ${count}`);
  for (const claim of m.caption.matchAll(/\b(n\d+)(?:,| is)? (?:still )?(?:leads|the leader)\b/g)) {
    if (!m.leaders.some((l) => l.id === claim[1]))
      wrong.push(
        `${where}: the caption says "${claim[0]}", the stage's leaders are ${JSON.stringify(m.leaders)}`,
      );
  }
  // "The believed leader_count is 2" is the run's own count (a frozen leader included); a bare
  // "leader_count is 1" is what the stage and the chart show.
  for (const claim of m.caption.matchAll(/\b(believed |observed )?leader_count is (?:back to )?(\d+)/g)) {
    const said = Number(claim[2]);
    if (claim[1] === 'believed ') {
      const run = headlessLeaderCounts(id, m.atMs);
      if (run && run.believed !== said)
        wrong.push(`${where}: the caption says "${claim[0]}", the run's believed count is ${run.believed}`);
    } else if (claim[1] === 'observed ') {
      const run = headlessLeaderCounts(id, m.atMs);
      if (run && run.observed !== said)
        wrong.push(`${where}: the caption says "${claim[0]}", the run's observed count is ${run.observed}`);
    } else if (said !== count)
      wrong.push(`${where}: the caption says "${claim[0]}", the stage shows ${count}`);
  }
  // The log says how each leader took office in its algorithm's words: Raft's votes won for a
  // term, or a Lease's holder, a Bully coordinator, taking office in its epoch. It shows its newest
  // 40 lines: once full, an older win is looked up in the same run headless.
  const { epoch, leader } = algorithmFor(findScenario(id).experiment.algorithm).words;
  const full = m.log.length >= 40;
  for (const l of m.leaders) {
    const said = [`${l.id} won ${epoch} ${l.term} with`, `${l.id} became ${leader} (${epoch} ${l.term})`];
    const told = full
      ? headlessWon(id, m.atMs, l.id, l.term)
      : m.log.some((line) => said.some((s) => line.includes(s)));
    if (!told)
      wrong.push(
        `${where}: ${l.id} leads ${epoch} ${l.term} on the stage, the event log never says it took office`,
      );
  }
  return wrong;
}

for (const id of SCENARIOS) {
  test(`banner, chain, chart, caption and log agree with the stage through ${id}`, async ({ page }) => {
    const scenario = findScenario(id);
    const fencingOff = scenario.experiment.safety?.fencing === false;
    await page.goto(`/?scenario=${id}&speed=64`);
    const guided = page.getByTestId('guided');
    const wrong: string[] = [];
    const total = scenario.steps.length;
    for (let step = 1; step <= total; step++) {
      await expect(guided).toContainText(`step ${step} of ${total}`);
      // Finish the step; the lab pauses on the moment it ends.
      await finishStep(page);
      await page.waitForTimeout(300);
      await chartDrawnNow(page);
      wrong.push(...check(id, fencingOff, await read(page, step)));
      if (step < total) await page.getByTestId('guided-next').click();
    }
    expect(wrong).toEqual([]);
  });
}

test('a step beyond the scenario opens step 1 and says so', async ({ page }) => {
  await page.goto('/?scenario=gc-pause-long&step=99');
  await expect(page.getByTestId('guided')).toContainText('step 1 of');
  const notes = page.getByTestId('link-problems');
  await expect(notes).toContainText('"step"');
  await expect(notes).toContainText('99');
  await expect(notes).toContainText(/step 1/);
  await expect(notes).not.toContainText('defaults');
});
