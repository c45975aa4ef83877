// Captions as checked claims, read off the page: the facts a step's caption (or a preset's game
// day) declares (`claims`), compared with what the page shows at the pause: the stage's roles and
// tokens, the storage's highest token, the chart's two leader_count lines and counters, and the
// safety banner's words. Used by the walk over every game day (present-fit.spec.ts) and by the
// presets' check (claims.spec.ts); tests/scenes/claims.test.ts checks the same claims headless.
import type { Page } from '@playwright/test';
import type { Claims } from '../../src/scenario/types';
import { checkStatements } from '../captionChecks';
import type { Snapshot } from '../../src/engine';
import { expect } from './lab';

/** A figure from the chart's header line ("fencing rejections: 3"), as lab.ts chartFigure reads it. */
function headerFigure(header: string, label: string): number {
  const m = new RegExp(`(?:^|\\s)${label}:\\s*([\\d.]+)\\s*(s|ms)?`).exec(header);
  if (!m) throw new Error(`the chart header shows no "${label}" figure: ${JSON.stringify(header)}`);
  return m[2] === 's' ? Math.round(parseFloat(m[1]) * 1000) : parseFloat(m[1]);
}

/**
 * What the page shows of the facts a caption can claim, read in one go (a walk over every step of
 * every game day reads it often): the stage's roles and tokens, the storage's highest token, the
 * chart's two lines and header, and the banner.
 */
export async function pageFacts(page: Page) {
  const raw = await page.evaluate(() => {
    const chart = document.querySelector('section.metric-scene');
    return {
      nodes: [...document.querySelectorAll('[data-testid^="node-"][data-role]')].map((el) => ({
        id: el.getAttribute('data-testid')!.slice('node-'.length),
        role: el.getAttribute('data-role')!,
        paused: el.classList.contains('node-paused'),
        term: Number(el.getAttribute('data-term')),
      })),
      observed: Number(chart?.getAttribute('data-observed')),
      believed: Number(chart?.getAttribute('data-believed')),
      // A chart its room hides (data-chart='hidden', useChartRoom.ts) shows no figures; its
      // innerText would be its text run together.
      header: chart?.checkVisibility() ? (chart.querySelector('header')?.innerText ?? '') : null,
      storage: document.querySelector('[data-testid="storage"]')?.textContent ?? '',
      banner:
        (document.querySelector('[data-testid="safety-banner"]') as HTMLElement | null)?.innerText ?? '',
    };
  });
  const nodes = raw.nodes.map((n) => ({
    id: n.id,
    state: n.role === 'dead' ? 'dead' : n.paused ? `paused ${n.role}` : n.role,
    term: n.term,
  }));
  const believers = nodes.filter((n) => n.state.endsWith('leader'));
  return {
    nodes: Object.fromEntries(nodes.map((n) => [n.id, n.state])),
    believedLeaders: believers.map((n) => n.id).sort(),
    // The lab follows the believer in the highest epoch (first in node order on a tie).
    leader: [...believers].sort((a, b) => b.term - a.term)[0]?.id ?? null,
    leaderCount: raw.believed,
    leaderCountObserved: raw.observed,
    maxTokenSeen: Number(/max (\d+)/.exec(raw.storage)?.[1]),
    chartShown: raw.header !== null,
    fencingRejections: raw.header === null ? NaN : headerFigure(raw.header, 'fencing rejections'),
    leaderTransitions: raw.header === null ? NaN : headerFigure(raw.header, 'transitions'),
    banner: raw.banner,
  };
}

export type PageFacts = Awaited<ReturnType<typeof pageFacts>>;

/** Each claimed fact next to what the page shows for it (facts the page does not draw are left to the headless test). */
export function compareClaims(claims: Claims, seen: PageFacts) {
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
  return { said, shown, count: Object.keys(said).length };
}

/** Two frames: whatever the page had to draw for the moment it shows has been drawn. */
async function twoFrames(page: Page): Promise<void> {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/**
 * Until the chart has drawn exactly the moment the page shows (the clock's `data-now-ms`, not its
 * text, which is rounded to a tenth of a second: a chart drawn a few milliseconds before a pause on
 * "elected" still shows no leader). Its redraws are spaced (one asked for too soon comes up to
 * 400 ms later), and a jump's or a pause's redraw waits a frame; only call it at a pause.
 */
export async function chartDrawnNow(page: Page): Promise<void> {
  const clock = page.getByTestId('sim-time');
  const chart = page.locator('section.metric-scene');
  await expect
    .poll(
      async () =>
        Number(await chart.getAttribute('data-drawn-ms')) - Number(await clock.getAttribute('data-now-ms')),
      { message: 'the chart has drawn the moment the page shows' },
    )
    .toBe(0);
}

/**
 * The claims compared with the page once it has drawn the paused moment: each view draws it on
 * its own next frame, which on a loaded machine can come a little after the caption, so the page
 * is read until two reads a couple of frames apart agree (at most 5 s). The comparison is
 * returned for the caller to assert, with the facts last read.
 */
export async function claimsShown(page: Page, claims: Claims) {
  // The chart mounts once the page is idle: wait for it (and its figures) before the first read.
  await expect(page.locator('section.metric-scene header')).toContainText('transitions:');
  // Reads that agree can both be of an earlier moment: first wait until it has drawn the moment shown.
  await chartDrawnNow(page);
  let seen = await pageFacts(page);
  for (const until = Date.now() + 5000; Date.now() < until;) {
    await twoFrames(page);
    const next = await pageFacts(page);
    // A chart hidden for a moment (its room measured while another view's height changed) is
    // read again once it is back, and one whose count is not yet the stage's (drawn while the
    // frame lagged, its figures the last sample's) once it has been drawn again.
    const settled =
      next.chartShown &&
      next.leaderCount === next.believedLeaders.length &&
      JSON.stringify(next) === JSON.stringify(seen);
    seen = next;
    if (settled) break;
  }
  if (!seen.chartShown) throw new Error('the chart stayed hidden at the pause: its figures cannot be read');
  return { ...compareClaims(claims, seen), seen };
}

/** What the banner must say of a moment with these counts (SafetyBanner's words). */
function bannerSays(believed: number, observed: number): RegExp {
  if (believed >= 2) return new RegExp(`believed leader_count ${believed}, observed ${observed}`);
  if (believed === 0) return /leader_count 0|Starting/;
  if (observed === 0) return /observed leader_count 0, believed 1/;
  return /One leader/;
}

/**
 * The banner beside the caption speaks of the counts the chart shows (a broken invariant's banner
 * says so, with both counts), and every fact it states is true of the headless snapshot at the
 * pause `at`.
 */
export function expectBannerTrue(seen: PageFacts, at: Snapshot, where: string): void {
  expect(seen.banner, `${where}: the banner`).toMatch(
    seen.banner.includes('broken')
      ? new RegExp(
          seen.leaderCount === 1 && seen.leaderCountObserved === 1
            ? 'broken'
            : `believed leader_count ${seen.leaderCount}, observed ${seen.leaderCountObserved}`,
        )
      : bannerSays(seen.leaderCount, seen.leaderCountObserved),
  );
  expect(checkStatements(seen.banner, at), `${where}: the banner's facts`).toEqual([]);
}
