// Captions as checked claims, in the page: a few game days are stepped through in Chromium and at
// every pause the facts the step's caption declares (scenes/scenarios/*.json `claims`) are read
// off what the page shows: the stage's roles, the chart's two leader_count lines and counters,
// and the safety banner's words. The caption itself must be the headless run's, its numbers filled
// from the same moment. tests/scenes/claims.test.ts checks every game day headless.
import { readdirSync, readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { parseScenario } from '../../src/scenario/schema';
import { runScenario, runStep } from '../../src/scenario/run';
import { checkStatements, statedFacts } from '../../src/scenario/claims';
import { Simulation, type ExperimentInput, type Snapshot } from '../../src/engine';
import { nextHint } from '../../src/app/hint';
import { ALL_COMMANDS } from '../../src/store/backend';
import { gameDayExperiment, parsePreset } from '../../src/presets/schema';
import { encodeRun } from '../../src/shared/share';
import type { Claims, Scenario } from '../../src/scenario/types';
import {
  banner,
  chainScene,
  chartFigure,
  chartLines,
  expect,
  finishStep,
  simMs,
  SLOW,
  test,
  WHOLE_PAGE,
} from './lab';

test.use(WHOLE_PAGE);

function load(file: string): Scenario {
  const r = parseScenario(
    JSON.parse(readFileSync(new URL(`../../scenes/scenarios/${file}`, import.meta.url), 'utf8')),
  );
  if (!r.ok) throw new Error(`${file}: ${r.errors.map((e) => `${e.field}: ${e.message}`).join('; ')}`);
  return r.scenario;
}

/** What the page shows of the facts a caption can claim. */
async function pageFacts(page: Page) {
  const nodes = await page.locator('[data-testid^="node-"][data-role]').evaluateAll((els) =>
    els.map((el) => {
      const role = el.getAttribute('data-role')!;
      const paused = el.classList.contains('node-paused');
      return {
        id: el.getAttribute('data-testid')!.slice('node-'.length),
        state: role === 'dead' ? 'dead' : paused ? `paused ${role}` : role,
        term: Number(el.getAttribute('data-term')),
      };
    }),
  );
  const lines = await chartLines(page);
  const believers = nodes.filter((n) => n.state.endsWith('leader'));
  return {
    nodes: Object.fromEntries(nodes.map((n) => [n.id, n.state])),
    believedLeaders: believers.map((n) => n.id).sort(),
    // The lab follows the believer in the highest epoch (first in node order on a tie).
    leader: [...believers].sort((a, b) => b.term - a.term)[0]?.id ?? null,
    leaderCount: lines.believed,
    leaderCountObserved: lines.observed,
    maxTokenSeen: Number(/max (\d+)/.exec((await page.getByTestId('storage').textContent()) ?? '')?.[1]),
    fencingRejections: await chartFigure(page, 'fencing rejections'),
    leaderTransitions: await chartFigure(page, 'transitions'),
    banner: await banner(page).innerText(),
  };
}

/**
 * The page's facts once it has drawn the paused moment: each view draws it on its own next frame,
 * which on a loaded machine can come a little after the caption, so the facts are read until two
 * reads a few frames apart agree (at most 5 s).
 */
async function settledFacts(page: Page) {
  let last = await pageFacts(page);
  for (const until = Date.now() + 5000; Date.now() < until;) {
    await page.waitForTimeout(100);
    const next = await pageFacts(page);
    if (JSON.stringify(next) === JSON.stringify(last)) return next;
    last = next;
  }
  return last;
}

/** Each claimed fact next to what the page shows for it (facts the page does not draw are left to the headless test). */
function compare(claims: Claims, seen: Awaited<ReturnType<typeof pageFacts>>) {
  const said: Record<string, unknown> = {};
  const shown: Record<string, unknown> = {};
  if (claims.leader !== undefined) [said.leader, shown.leader] = [claims.leader, seen.leader];
  if (claims.believedLeaders)
    [said.believedLeaders, shown.believedLeaders] = [
      [...claims.believedLeaders].sort(),
      seen.believedLeaders,
    ];
  for (const [id, state] of Object.entries(claims.nodes ?? {}))
    [said[`nodes.${id}`], shown[`nodes.${id}`]] = [state, seen.nodes[id]];
  const m = claims.metrics ?? {};
  for (const k of [
    'leaderCount',
    'leaderCountObserved',
    'fencingRejections',
    'leaderTransitions',
    'maxTokenSeen',
  ] as const)
    if (m[k] !== undefined) [said[k], shown[k]] = [m[k], seen[k]];
  return { said, shown };
}

/** What the banner must say of a moment with these counts (SafetyBanner's words). */
function bannerSays(believed: number, observed: number): RegExp {
  if (believed >= 2) return new RegExp(`believed leader_count ${believed}, observed ${observed}`);
  if (believed === 0) return /leader_count 0|Starting/;
  if (observed === 0) return /observed leader_count 0, believed 1/;
  return /One leader/;
}

const CASES = [
  '02-kill-leader.json',
  '04-gc-pause-long.json',
  '07-quorum-split-2-3.json',
  '17-ring-lost-election.json',
  '18b-zookeeper-herd-effect.json',
  '16-bully-split-2-3.json',
];

for (const file of CASES) {
  test(`claims: every step of ${file} pauses on what its caption says`, async ({ page }) => {
    test.setTimeout(120_000);
    const scenario = load(file);
    const headless = runScenario(scenario).steps;
    // The headless snapshot at each pause: what the banner in the page must be true of (a game day
    // shows its caption in the hint's place; tests/scenes/claims.test.ts checks the hint headless).
    const sim = new Simulation(scenario.experiment);
    const pauses: Snapshot[] = scenario.steps.map((step) => {
      runStep(sim, step, sim.experiment.untilMs);
      return sim.snapshot();
    });
    await page.goto(`/?scenario=${scenario.id}&speed=64`);
    const guided = page.getByTestId('guided');
    await expect(guided).toContainText(scenario.title);
    for (const [i, step] of scenario.steps.entries()) {
      await expect(guided).toContainText(`step ${i + 1} of ${scenario.steps.length}`);
      await finishStep(page);
      await expect(page.getByTestId('guided-caption')).toHaveText(headless[i].caption);
      const seen = await settledFacts(page);
      const { said, shown } = compare(step.claims ?? {}, seen);
      expect(shown, `${scenario.id} step ${i + 1}: the page at the pause`).toEqual(said);
      // A broken invariant's banner says so, with both counts; otherwise it speaks of the counts.
      expect(seen.banner, `${scenario.id} step ${i + 1}: the banner`).toMatch(
        seen.banner.includes('broken')
          ? new RegExp(
              seen.leaderCount === 1 && seen.leaderCountObserved === 1
                ? 'broken'
                : `believed leader_count ${seen.leaderCount}, observed ${seen.leaderCountObserved}`,
            )
          : bannerSays(seen.leaderCount, seen.leaderCountObserved),
      );
      expect(
        checkStatements(seen.banner, pauses[i]),
        `${scenario.id} step ${i + 1}: the banner's facts`,
      ).toEqual([]);
      if (i < scenario.steps.length - 1) await page.getByTestId('guided-next').click();
    }
  });
}

test('the chain card and the caption tell one story of the zombie write: client-go never hears the refusal', async ({
  page,
}) => {
  const scenario = load('04-gc-pause-long.json');
  const zombieStep = scenario.steps.findIndex((s) => (s.claims?.metrics?.fencingRejections ?? 0) >= 5);
  await page.goto(`/?scenario=${scenario.id}&step=${zombieStep + 1}&speed=64`);
  await finishStep(page);
  const caption = await page.getByTestId('guided-caption').innerText();
  expect(caption).toMatch(/never hears it, so n1 carries on/);
  // The chain's alert says what storage did and what the writer's election made of it, in
  // Kubernetes' words: nothing, so n1 still acts as leader, as the stage and the caption show.
  const alert = chainScene(page).getByTestId('zombie-alert');
  await expect(alert).toContainText(/ZOMBIE WRITE REJECTED: n1 token 0 < 1/);
  await expect(alert).toContainText("client-go's elector never hears of it");
  await expect(alert).not.toContainText('gets a retryable error');
  await expect(page.getByTestId('node-n1')).toHaveAttribute('data-role', 'leader');
});

// The hint under the stage, in the page: every preset's game day opened at its end, and each
// step's pause of two game days opened as a free run (a game day shows its caption in the hint's
// place). The page's words must be the hint of the headless snapshot at that moment, and every
// fact they state true of it.
const HINT_CAN = { seek: true, step: true, speed: true, replay: true, commands: ALL_COMMANDS };

function hintMoments(): { where: string; experiment: ExperimentInput; atMs: number }[] {
  const dir = new URL('../../scenes/presets/', import.meta.url);
  const out = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      const r = parsePreset(JSON.parse(readFileSync(new URL(f, dir), 'utf8')));
      if (!r.ok) throw new Error(`${f}: ${r.errors.map((e) => `${e.field}: ${e.message}`).join('; ')}`);
      const experiment = gameDayExperiment(r.preset);
      return {
        where: `preset ${r.preset.id} (end)`,
        experiment,
        atMs: new Simulation(experiment).experiment.untilMs,
      };
    });
  for (const file of ['02-kill-leader.json', '07-quorum-split-2-3.json']) {
    const scenario = load(file);
    const sim = new Simulation(scenario.experiment);
    scenario.steps.forEach((step, i) => {
      runStep(sim, step, sim.experiment.untilMs);
      out.push({ where: `${scenario.id} step ${i + 1}`, experiment: scenario.experiment, atMs: sim.nowMs });
    });
  }
  return out;
}

test('the hint under the stage says of each moment only what is true of it', async ({ page }) => {
  test.setTimeout(180_000);
  const problems: string[] = [];
  let facts = 0;
  for (const m of hintMoments()) {
    await page.goto(`/?run=${encodeRun({ experiment: m.experiment, commands: [], atMs: m.atMs })}`);
    // The link opens paused at its moment (the clock shows it to a tenth of a second).
    await expect.poll(async () => Math.abs((await simMs(page)) - m.atMs), SLOW).toBeLessThanOrEqual(50);
    const sim = new Simulation(m.experiment);
    sim.runUntil(m.atMs);
    const s = sim.snapshot();
    const expected = nextHint({ snapshot: s, selected: null, experiment: sim.experiment, can: HINT_CAN });
    const hint = page.getByTestId('next-hint');
    await expect(hint, m.where).toHaveText(expected);
    const shown = await hint.innerText();
    facts += statedFacts(shown).length;
    for (const f of checkStatements(shown, s))
      problems.push(
        `${m.where}: "${shown}" says ${f.claim} ${JSON.stringify(f.said)}, is ${JSON.stringify(f.actual)}`,
      );
  }
  expect(problems).toEqual([]);
  expect(facts, 'facts the hints stated').toBeGreaterThan(10);
});
