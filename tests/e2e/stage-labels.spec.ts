// The stage's words never sit on top of each other or of its shapes, at every size the lab is
// used at: a warming-up leader's label clears the storage, the storage's words stay in its box,
// partition outlines go around the role labels, a group's name clears the GC-pause labels, the
// pause label clears the selection ring, and an exported image carries no selection ring.
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { Simulation, type Command } from '../../src/engine';
import { encodeRun } from '../../src/shared/share';
import { expect, openTab, simMs, SLOW, test } from './lab';

const EXPERIMENT = { seed: 1, nodes: 5, network: { delayMsMin: 60, delayMsMax: 180 } };

/** The first moment a leader is warming up in the page's default run (the leader nearest the storage). */
function warmingUpMoment(): number {
  const sim = new Simulation(EXPERIMENT);
  for (let t = 100; t < 30_000; t += 50) {
    sim.runUntil(t);
    // A moment the clock shows exactly (it shows tenths of a second).
    if (sim.snapshot().nodes.some((n) => n.role === 'leader' && !n.ready))
      return Math.ceil(t / 100) * 100 + 100;
  }
  throw new Error('no leader warms up in the first 30 s');
}

async function openRun(page: Page, commands: { atMs: number; command: Command }[], atMs: number, extra = '') {
  const run = encodeRun({ experiment: EXPERIMENT, commands, atMs });
  await page.goto(`/?run=${run}${extra}`);
  await expect.poll(() => simMs(page), SLOW).toBe(atMs);
  await expect(page.locator('[data-testid^="node-"][data-role]')).toHaveCount(5);
}

type Box = { left: number; top: number; right: number; bottom: number; what: string };

/** Screen boxes of the stage's words and shapes, read in the page. */
async function stageBoxes(page: Page) {
  return page.evaluate(() => {
    const box = (el: Element, what: string) => {
      const r = el.getBoundingClientRect();
      return { left: r.left, top: r.top, right: r.right, bottom: r.bottom, what };
    };
    const svg = document.querySelector('.cluster-svg')!;
    const storage = svg.querySelector('[data-testid="storage"]')!;
    const texts = [...svg.querySelectorAll('text')].filter((t) => t.getClientRects().length > 0);
    return {
      storageBox: box(storage.querySelector('path')!, 'storage box'),
      storageTexts: texts.filter((t) => storage.contains(t)).map((t) => box(t, `storage "${t.textContent}"`)),
      otherTexts: texts.filter((t) => !storage.contains(t)).map((t) => box(t, `"${t.textContent}"`)),
      roles: [...svg.querySelectorAll('.node-role')].map((t) => box(t, `role "${t.textContent}"`)),
      pauses: [...svg.querySelectorAll('.node-paused-label')].map((t) => box(t, `"${t.textContent}"`)),
      groups: [...svg.querySelectorAll('[data-testid="partition-group"] text')].map((t) =>
        box(t, `"${t.textContent}"`),
      ),
      nodeTexts: [...svg.querySelectorAll('[data-testid^="node-"] text')].map((t) =>
        box(t, `"${t.textContent}"`),
      ),
    };
  });
}

const overlaps = (a: Box, b: Box, slack = 0.5) =>
  a.left < b.right - slack &&
  b.left < a.right - slack &&
  a.top < b.bottom - slack &&
  b.top < a.bottom - slack;
const inside = (a: Box, b: Box, slack = 0.5) =>
  a.left >= b.left - slack &&
  a.right <= b.right + slack &&
  a.top >= b.top - slack &&
  a.bottom <= b.bottom + slack;

function collisions(list: Box[], against: Box[]): string[] {
  return list.flatMap((a) => against.filter((b) => overlaps(a, b)).map((b) => `${a.what} on ${b.what}`));
}

const SIZES = [
  { name: 'present 1280x720', width: 1280, height: 720, extra: '&present' },
  { name: 'present 1920x1080', width: 1920, height: 1080, extra: '&present' },
  { name: 'phone 390x844', width: 390, height: 844, extra: '' },
  { name: 'phone 360x740', width: 360, height: 740, extra: '' },
  { name: 'laptop 1280x800', width: 1280, height: 800, extra: '' },
];

for (const size of SIZES) {
  test.describe(size.name, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    test('a warming-up leader clears the storage, and the storage keeps its words in its box', async ({
      page,
    }) => {
      await openRun(page, [], warmingUpMoment(), size.extra);
      await expect(page.locator('.node-role', { hasText: 'warming up' })).toHaveCount(1);
      const b = await stageBoxes(page);
      expect(collisions(b.otherTexts, [b.storageBox])).toEqual([]);
      expect(b.storageTexts.filter((t) => !inside(t, b.storageBox)).map((t) => t.what)).toEqual([]);
    });

    test('partition outlines go around the labels, and group names clear the GC-pause labels', async ({
      page,
    }) => {
      await openRun(
        page,
        [
          {
            atMs: 3000,
            command: {
              do: 'partition',
              groups: [
                ['n1', 'n2'],
                ['n3', 'n4', 'n5'],
              ],
            },
          },
          { atMs: 3000, command: { do: 'pause', node: 'n1', forMs: 30_000 } },
          { atMs: 3000, command: { do: 'pause', node: 'n3', forMs: 30_000 } },
        ],
        6000,
        size.extra,
      );
      await expect(page.getByTestId('partition-group')).toHaveCount(2);
      const b = await stageBoxes(page);
      // Points along each outline, on screen.
      const outline = await page.evaluate(() =>
        [...document.querySelectorAll<SVGPathElement>('[data-testid="partition-group"] path')].flatMap(
          (p) => {
            const m = p.getScreenCTM()!;
            const len = p.getTotalLength();
            const pts: { x: number; y: number }[] = [];
            for (let d = 0; d < len; d += 2) {
              const q = p.getPointAtLength(d);
              pts.push({ x: m.a * q.x + m.c * q.y + m.e, y: m.b * q.x + m.d * q.y + m.f });
            }
            return pts;
          },
        ),
      );
      const crossed = b.roles
        .filter((r) =>
          outline.some((p) => p.x > r.left + 1 && p.x < r.right - 1 && p.y > r.top + 1 && p.y < r.bottom - 1),
        )
        .map((r) => r.what);
      expect(crossed, 'role labels an outline runs through').toEqual([]);
      expect(collisions(b.groups, [...b.nodeTexts, ...b.pauses])).toEqual([]);
    });

    test('the GC-pause label clears the selection ring', async ({ page }) => {
      await openRun(
        page,
        [{ atMs: 3000, command: { do: 'pause', node: 'n1', forMs: 30_000 } }],
        6000,
        size.extra,
      );
      await page.getByTestId('node-n1').click();
      await expect(page.getByTestId('node-n1')).toHaveAttribute('aria-pressed', 'true');
      const gap = await page.getByTestId('node-n1').evaluate((g) => {
        const ring = g.querySelector('.focus-ring') as SVGCircleElement;
        const label = g.querySelector('.node-paused-label') as SVGTextElement;
        const r = ring.getBoundingClientRect();
        const scale = r.height / (2 * ring.r.baseVal.value);
        const strokeTop = r.top - (parseFloat(getComputedStyle(ring).strokeWidth) / 2) * scale;
        return strokeTop - label.getBoundingClientRect().bottom;
      });
      expect(gap).toBeGreaterThanOrEqual(0);
    });
  });
}

test('an exported stage carries no selection ring', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 4000 });
  await openRun(page, [], 8000);
  await page.getByTestId('node-n2').click();
  await expect(page.getByTestId('node-n2')).toHaveAttribute('aria-pressed', 'true');
  const exportButton = page.getByRole('button', { name: 'Export the cluster stage as SVG', exact: true });
  await openTab(page, 'Export');
  const [file] = await Promise.all([page.waitForEvent('download', SLOW), exportButton.click()]);
  const svg = (await readFile((await file.path()) as string)).toString('utf8');
  const ring = await page.evaluate((text) => {
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    const circle = doc.querySelector('[data-testid="node-n2"] circle');
    if (!circle) return 'no ring at all';
    const style = circle.getAttribute('style') ?? '';
    const stroke =
      /(?:^|;)\s*stroke:\s*([^;]+)/.exec(style)?.[1]?.trim() ?? circle.getAttribute('stroke') ?? 'none';
    return stroke;
  }, svg);
  expect(ring).toMatch(/^(none|transparent|rgba\(0, 0, 0, 0\)|no ring at all)$/);
});
