// One screen shows cause and effect: on a laptop and a desktop screen the stage, the fencing
// chain, the leader_count chart and the failover timeline are all in view without scrolling, with the node and network
// controls; a game day's caption sits beside the picture and a step that names a view outlines
// that view and nothing else (the chart drawn whole in its box); present mode shows the three together at projector sizes.
import type { Locator, Page } from '@playwright/test';
import {
  chainScene,
  chartTextCut,
  expect,
  finishStep,
  metricScene,
  openLab,
  pileUps,
  selectNode,
  test,
  waitForLeader,
} from './lab';

const stage = (page: Page) => page.getByRole('group', { name: 'Cluster stage' });

/** Where a box sticks out of the viewport, in words; empty when it is wholly inside. */
async function outside(page: Page, what: string, el: Locator): Promise<string[]> {
  const box = await el.boundingBox();
  const vp = page.viewportSize()!;
  if (!box) return [`${what} is not shown`];
  const out: string[] = [];
  if (box.x < -1 || box.x + box.width > vp.width + 1) out.push(`${what} x ${box.x}..${box.x + box.width}`);
  if (box.y < -1 || box.y + box.height > vp.height + 1) out.push(`${what} y ${box.y}..${box.y + box.height}`);
  return out;
}

/** Where the chart is drawn taller than its box, which cuts off its foot (the no-leader band, the axis). */
async function chartCut(page: Page): Promise<string[]> {
  const svg = await metricScene(page).locator('.metric-svg').boundingBox();
  const box = await metricScene(page).locator('.metric-chart').boundingBox();
  if (!svg || !box || svg.y + svg.height <= box.y + box.height + 1) return [];
  return [`leader_count chart ${Math.round(svg.height)} px tall in a ${Math.round(box.height)} px box`];
}

/**
 * Where the four views stick out of the window. `timeline: 'if shown'`: the failover timeline may
 * have given its place to the stage (present mode, on a step that would leave the stage too small).
 */
async function viewsOutside(page: Page, { timeline = 'always' } = {}): Promise<string[]> {
  const failover = page.getByTestId('failover-timeline');
  return [
    ...(await outside(page, 'stage', stage(page))),
    ...(await outside(page, 'fencing chain', chainScene(page))),
    ...(await outside(page, 'leader_count chart', metricScene(page).locator('.metric-svg'))),
    ...(await chartCut(page)),
    ...(timeline === 'always' || (await failover.isVisible())
      ? await outside(page, 'failover timeline', failover)
      : []),
  ];
}

/** The elements the guided highlight outlines (3 px in the focus colour), by what they hold. */
async function outlined(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('.lab *')]
      .filter((el) => {
        const cs = getComputedStyle(el);
        return cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) >= 3 && !el.matches(':focus');
      })
      .map((el) =>
        el.querySelector('.cluster-svg')
          ? 'stage'
          : el.querySelector('.chain-scene')
            ? 'chain'
            : el.querySelector('.metric-svg')
              ? 'chart'
              : `${el.tagName.toLowerCase()}.${el.getAttribute('class')}`,
      ),
  );
}

for (const size of [
  { width: 1280, height: 800 },
  { width: 1440, height: 900 },
  { width: 1920, height: 1080 },
]) {
  test.describe(`${size.width}x${size.height}`, () => {
    test.use({ viewport: size });

    test('stage, chain, chart and failover timeline are on the first screen, with the node and network controls', async ({
      page,
    }) => {
      await openLab(page, 'speed=4');
      const leader = await waitForLeader(page);
      await selectNode(page, leader.id);
      const controls = [
        page.getByRole('button', { name: `Kill ${leader.id}` }),
        page.getByRole('button', { name: `Pause ${leader.id} for 30 s, longer than the Lease (15 s)` }),
        page.getByRole('button', { name: 'Isolate the leader' }),
        page.getByRole('button', { name: 'Split 2 | 3' }),
        page.getByRole('button', { name: 'Heal the network' }),
        page.getByTestId('play'),
      ];
      const out = await viewsOutside(page);
      for (const c of controls)
        out.push(...(await outside(page, (await c.getAttribute('aria-label')) ?? 'control', c)));
      expect(out).toEqual([]);
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
    });

    test('a game day puts its caption beside the picture and outlines exactly the view it names', async ({
      page,
    }) => {
      // Step 5 asks to watch the chain, step 6 the chart.
      await page.goto('/?scenario=gc-pause-long&step=5&speed=4');
      await expect(page.getByTestId('guided')).toContainText('step 5 of');
      // A two-line banner and a failover's three rows: the chart's least room at 1280x800.
      await expect.poll(() => viewsOutside(page)).toEqual([]);
      const caption = (await page.getByTestId('guided-caption').boundingBox())!;
      const picture = (await stage(page).boundingBox())!;
      const beside = caption.x >= picture.x + picture.width - 1 || caption.x + caption.width <= picture.x + 1;
      const level = caption.y < picture.y + picture.height && caption.y + caption.height > picture.y;
      expect(
        beside && level,
        `caption ${JSON.stringify(caption)} beside stage ${JSON.stringify(picture)}`,
      ).toBe(true);
      await expect.poll(() => outlined(page)).toEqual(['chain']);
      await finishStep(page);
      await page.getByTestId('guided-next').click();
      await expect(page.getByTestId('guided')).toContainText('step 6 of');
      await expect.poll(() => outlined(page)).toEqual(['chart']);
      await expect.poll(() => viewsOutside(page)).toEqual([]);
    });
  });
}

/** The band labels that leave the plot (at 1280x720 they ran past its top and its foot, over the line). */
async function bandLabelsOut(page: Page): Promise<string[]> {
  return metricScene(page)
    .locator('.metric-svg')
    .evaluate((svg) => {
      const bands = [...svg.querySelectorAll('.metric-band-fill')].map((b) => b.getBoundingClientRect());
      const [top, bottom] = [Math.min(...bands.map((b) => b.top)), Math.max(...bands.map((b) => b.bottom))];
      return [...svg.querySelectorAll('.metric-band-label')]
        .map((t) => [t.textContent!, t.getBoundingClientRect()] as const)
        .filter(([, r]) => r.top + r.height / 5 < top - 0.5 || r.bottom - r.height / 5 > bottom + 0.5)
        .map(([what]) => `"${what}" is drawn outside the plot`);
    });
}

// A laptop's first screen: the chart drawn whole in its box, its y labels and band labels apart,
// in a short window (1280x720) and with a client panel to fit (1280x800, 7 nodes, 200 clients).
for (const [w, h, query] of [
  [1280, 720, 'speed=8'],
  [1280, 800, 'nodes=7&clients=200&speed=8'],
] as const) {
  test.describe(`${w}x${h}, ${query}`, () => {
    test.use({ viewport: { width: w, height: h } });

    test('the leader_count chart is drawn whole in its box, no label over another', async ({ page }) => {
      await openLab(page, query);
      await waitForLeader(page);
      const problems = async () => [
        ...(await chartTextCut(page)),
        ...(await pileUps(page, '.area-chart .metric-svg', 'chart')),
        ...(await bandLabelsOut(page)),
      ];
      await expect.poll(problems).toEqual([]);
    });
  });
}

for (const size of [
  { width: 1920, height: 1080 },
  { width: 1280, height: 720 },
]) {
  test.describe(`present ${size.width}x${size.height}`, () => {
    test.use({ viewport: size });

    test('present mode shows stage, chain and chart together, every node on screen, in large type', async ({
      page,
    }) => {
      await page.goto('/?present&scenario=quorum-split-2-3');
      await expect(page.getByTestId('guided')).toContainText('step 1 of');
      await expect(page.locator('[data-testid^="node-"][data-role]')).toHaveCount(5);
      // Step 1 names the chain: at 1280x720 its strip (which loads once the page is idle) leaves
      // the stage room for its words only in the failover timeline's place.
      const onScreen = async () => {
        const out = await viewsOutside(page, { timeline: 'if shown' });
        for (const id of ['n1', 'n2', 'n3', 'n4', 'n5'])
          out.push(...(await outside(page, `node ${id}`, page.getByTestId(`node-${id}`))));
        out.push(...(await outside(page, 'caption', page.getByTestId('guided-caption'))));
        return out;
      };
      await expect.poll(onScreen).toEqual([]);
      const rootPx = await page.evaluate(() =>
        parseFloat(getComputedStyle(document.documentElement).fontSize),
      );
      expect(rootPx).toBeGreaterThanOrEqual(17);
      // Node ids on the stage are at least 20 px on screen.
      const idPx = await page
        .getByTestId('node-n1')
        .locator('.node-id')
        .evaluate((t) => t.getBoundingClientRect().height);
      expect(idPx).toBeGreaterThanOrEqual(20);
    });
  });
}

test.describe('what to do first', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('one line near the stage says what to do first, and stays true as the run changes', async ({
    page,
  }) => {
    // The first screen's Kubernetes Lease: its leader is the holder.
    await openLab(page, 'speed=8');
    const leader = await waitForLeader(page);
    const hint = page.getByTestId('next-hint');
    await expect(hint).toContainText(`The holder is ${leader.id}`);
    const h = (await hint.boundingBox())!;
    const s = (await stage(page).boundingBox())!;
    expect(Math.abs(h.y - (s.y + s.height)), 'the hint sits right under the stage').toBeLessThan(60);
    await selectNode(page, leader.id);
    await expect(hint).toContainText('Pause 30 s');
    await page.getByRole('button', { name: `Kill ${leader.id}` }).click();
    await expect(hint).not.toContainText(`The holder is ${leader.id}`);
    await expect(hint).toContainText(/no holder|elect/i);
    // The others wait out the 15 s Lease: a minute of wall time for a busy machine.
    const next = await waitForLeader(page, [leader.id], 60_000);
    await expect(hint).toContainText(`The holder is ${next.id}`);
  });
});
