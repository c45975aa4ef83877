// Warm-up you can see: a run's warm-up is a setting (a cold leader, a pre-warmed standby, a
// duration), the chart's client view draws what the clients saw (errors while no leader serves,
// leader_count already 1 during warm-up, then the writes that waited it out), and the failover
// timeline beside the chart breaks its figures down. Each run here opens at a fixed moment from a
// run link, and its numbers are checked against the engine's own run of the same link.
import type { Page } from '@playwright/test';
import { LabEngine } from '../../src/store/labEngine';
import { normalizeExperiment, WARM_UP_PRESETS, type Command, type ExperimentInput } from '../../src/engine';
import { readPageParams } from '../../src/shared/link';
import { encodeRun } from '../../src/shared/share';
import { columnsOf } from '../scenes/columns';
import { clientNow } from '../../scenes/MetricLineScene/clientView';
import { SLOW, chartFigure, expect, metricScene, openLab, simMs, test } from './lab';

const KILL_AT_MS = 20_000;
const KILL: Command = { do: 'kill', node: 'leader' };

/** The experiment the lab builds from these parameters, as a visitor's link would. */
function pageExperiment(query: string): ExperimentInput {
  return readPageParams(`?${query}`).experiment;
}

/** The engine's run of the same link, to the same moment. */
function engineAt(experiment: ExperimentInput, atMs: number): LabEngine {
  const lab = new LabEngine(normalizeExperiment(experiment), [{ atMs: KILL_AT_MS, command: KILL }]);
  lab.advanceTo(atMs);
  return lab;
}

/** Open the run (its leader killed at 20 s) paused at atMs. */
async function openAt(page: Page, experiment: ExperimentInput, atMs: number): Promise<void> {
  const run = encodeRun({ experiment, commands: [{ atMs: KILL_AT_MS, command: KILL }], atMs });
  await openLab(page, `run=${run}`);
  await expect.poll(() => simMs(page), SLOW).toBe(atMs);
}

const timeline = (page: Page) => page.getByTestId('failover-timeline');

/** A phase's seconds as the timeline's legend gives them ("warm-up 10.0 s"). */
async function phaseMs(page: Page, phase: 'detection' | 'election' | 'warm-up'): Promise<number> {
  const text = await timeline(page).locator(`.legend-${phase}`).innerText();
  const m = /([\d.]+) s/.exec(text);
  if (!m) throw new Error(`no duration in the ${phase} legend: ${JSON.stringify(text)}`);
  return Math.round(parseFloat(m[1]) * 1000);
}

/** The client panel's error bars, by the start of their interval. */
async function errorBarStarts(page: Page): Promise<number[]> {
  return metricScene(page)
    .locator('.metric-bar-client-errors')
    .evaluateAll((els) => els.map((el) => Number(el.getAttribute('data-start-ms'))));
}

// A screen whose first screen keeps the client panel: at 1280x800 the compact chart gives it up
// (its figures stay in the header), where it was drawn past its box's foot.
test.use({ viewport: { width: 1440, height: 900 } });

for (const [name, query, warmUpMs] of [
  ['a cold leader', 'warmup=cold', WARM_UP_PRESETS.cold],
  ['a pre-warmed standby', 'warmup=prewarmed', WARM_UP_PRESETS.prewarmed],
  ['a duration of 4 s', 'warmup=4000', 4000],
] as const) {
  test(`the warm-up setting changes the run: ${name}`, async ({ page }) => {
    const experiment = pageExperiment(`clients=30&${query}`);
    expect(experiment.warmUpMs).toBe(warmUpMs);
    const end = 60_000;
    const lab = engineAt(experiment, end);
    const f = lab.sim.snapshot().failovers.at(-1)!;
    expect(f.readyAtMs - f.electedAtMs, "the engine's warm-up is the setting").toBe(warmUpMs);
    await openAt(page, experiment, end);

    // The timeline's warm-up phase is the setting.
    await expect(timeline(page).locator('.legend-warm-up')).toBeVisible(SLOW);
    expect(await phaseMs(page, 'warm-up')).toBe(warmUpMs);

    // The clients' errors run from the kill until the new leader is ready (and the writes sent
    // before then have landed, a network trip): the warm-up is part of their outage.
    const samples = lab.sim.samples;
    let lastErrorMs = -1;
    for (let i = 1; i < samples.length; i++)
      if (samples[i].clientErrors! > samples[i - 1].clientErrors!) lastErrorMs = samples[i].atMs;
    expect(lastErrorMs).toBeGreaterThanOrEqual(f.readyAtMs);
    expect(lastErrorMs).toBeLessThan(f.readyAtMs + 1000);
    // The panel draws that period: error bars from the kill to the last error's interval. The
    // chart redraws a little after the run reaches its moment (a frame or a throttled redraw
    // later, longer on a loaded machine), so its bars are awaited before they are read.
    const lastBarMs = Math.floor(lastErrorMs / 1000) * 1000;
    const barsFromKill = async () => (await errorBarStarts(page)).filter((t) => t >= KILL_AT_MS);
    await expect
      .poll(async () => (await barsFromKill()).length, SLOW)
      .toBe((lastBarMs - KILL_AT_MS) / 1000 + 1);
    const bars = await barsFromKill();
    expect(Math.min(...bars)).toBe(KILL_AT_MS);
    expect(Math.max(...bars)).toBe(lastBarMs);
  });
}

test('the client view shows the clients unavailable while leader_count reads 1, as the engine counts it', async ({
  page,
}) => {
  const experiment = pageExperiment('clients=30&warmup=cold');
  const probe = engineAt(experiment, 60_000).sim.snapshot().failovers.at(-1)!;
  // Halfway through the new leader's warm-up.
  const at = Math.round((probe.electedAtMs + probe.readyAtMs) / 200) * 100;
  const lab = engineAt(experiment, at);
  const want = clientNow(columnsOf(lab.sim.samples));
  expect(want.latencyMs, 'no write served during warm-up').toBeNull();
  expect(want.errorsPerS).toBeGreaterThan(0);
  await openAt(page, experiment, at);

  const scene = metricScene(page);
  await expect(scene).toHaveAttribute('data-observed', '1', SLOW);
  const figure = scene.getByTestId('metric-clients');
  await expect(figure).toHaveAttribute('data-errors-per-s', String(want.errorsPerS));
  await expect(figure).toHaveAttribute('data-latency-ms', '');
  await expect(figure).toContainText('none served');
  // The chart's text alternative and its hidden table say the same.
  await expect(scene.getByRole('img')).toHaveAttribute(
    'aria-label',
    /leader_count observed 1.*clients: .*none served/,
  );
  await expect(scene.locator('table')).toContainText(
    `${want.errors} failed and ${want.served} served in total`,
  );
  // The panel is drawn on the first screen's chart.
  await expect(scene.locator('.metric-panel-clients')).toBeVisible();

  // Once warm, the writes that waited are served: the latency the engine measured.
  const after = Math.round((probe.readyAtMs + 500) / 100) * 100;
  const warm = clientNow(columnsOf(engineAt(experiment, after).sim.samples));
  expect(warm.latencyMs).not.toBeNull();
  await openAt(page, experiment, after);
  await expect(metricScene(page).getByTestId('metric-clients')).toHaveAttribute(
    'data-latency-ms',
    String(warm.latencyMs),
    SLOW,
  );
});

test('the failover timeline is on the first screen, and its phases sum to the chart', async ({ page }) => {
  const experiment = pageExperiment('clients=30&warmup=cold');
  const end = 60_000;
  const lab = engineAt(experiment, end);
  const f = lab.sim.snapshot().failovers.at(-1)!;
  await openAt(page, experiment, end);

  const box = await timeline(page).boundingBox();
  expect(box, 'the timeline is shown').not.toBeNull();
  expect(box!.y + box!.height, 'the timeline ends on the first screen').toBeLessThanOrEqual(800);

  await expect(timeline(page).locator('.legend-detection')).toBeVisible(SLOW);
  const [detection, election, warmUp] = [
    await phaseMs(page, 'detection'),
    await phaseMs(page, 'election'),
    await phaseMs(page, 'warm-up'),
  ];
  // Detection and election are the chart's time without a leader (to the legend's 0.1 s).
  const without = await chartFigure(page, 'time without a leader');
  expect(Math.abs(detection + election - without)).toBeLessThanOrEqual(100);
  expect(without).toBe(Math.round((f.electedAtMs - f.lostAtMs) / 100) * 100);
  // The timeline says both sums in words: no leader, then no service (warm-up included).
  const sums = timeline(page).getByTestId('failover-sums');
  await expect(sums).toContainText(`no leader ${((f.electedAtMs - f.lostAtMs) / 1000).toFixed(1)} s`);
  await expect(sums).toContainText(`no service ${((f.readyAtMs - f.lostAtMs) / 1000).toFixed(1)} s`);
  expect(Math.abs(detection + election + warmUp - (f.readyAtMs - f.lostAtMs))).toBeLessThanOrEqual(150);
});

test('the warm-up is a setup choice, and a bad value in a link names the field', async ({ page }) => {
  await openLab(page, 'warmup=lukewarm&paused');
  await expect(page.getByTestId('link-problems')).toContainText(
    /"warmup" must be cold, prewarmed or a whole number of ms/,
  );
  await page.getByRole('tab', { name: 'Setup', exact: true }).click();
  const choice = page.getByRole('group', { name: 'Warm-up' });
  await choice.getByRole('button', { name: /Pre-warmed standby/ }).click();
  await expect(choice.getByRole('button', { name: /Pre-warmed standby/ })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(page.getByRole('spinbutton', { name: 'Warm-up' })).toHaveValue('0');
  await choice.getByRole('button', { name: /Cold/ }).click();
  await expect(page.getByRole('spinbutton', { name: 'Warm-up' })).toHaveValue(String(WARM_UP_PRESETS.cold));
  await page.getByRole('spinbutton', { name: 'Warm-up' }).fill('700000');
  await expect(page.locator('.setup-panel .field-errors')).toContainText('warmUpMs');
});
