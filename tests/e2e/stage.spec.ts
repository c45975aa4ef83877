// The stage's moving parts in Chromium: lease arcs and message dots are drawn on a canvas over
// the SVG (by a worker that owns it), in the stylesheet's colours; they stand still while the
// lab is paused and move while it plays; and an SVG export carries the same shapes, leaving the
// page's SVG as it was.
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { frameMotion } from '../../scenes/ClusterScene/motion';
import { Simulation } from '../../src/engine';
import { encodeRun } from '../../src/shared/share';
import { expect, openLab, openTab, pauseLab, playLab, simMs, SLOW, test, waitForLeader } from './lab';

const EXPERIMENT = { seed: 1, nodes: 5, network: { delayMsMin: 60, delayMsMax: 180 } };
const KILL = { do: 'kill', node: 'leader' } as const;

/** Opened paused at a moment after a failover (24.3 s unless told): a new leader, renewing. */
async function openMoment(page: Page, atMs = 24_300): Promise<void> {
  const run = encodeRun({ experiment: EXPERIMENT, commands: [{ atMs: 5000, command: KILL }], atMs });
  await openLab(page, `run=${run}`);
  await expect.poll(() => simMs(page), SLOW).toBe(atMs);
}

interface Ring {
  x: number;
  y: number;
  r: number;
  rgb: number[];
}

/**
 * Look at the stage as the screen shows it: a fingerprint of its pixels, and how many pixels on
 * a ring around a point are within a small distance of a colour. Worked out in the page, so
 * only two numbers come back.
 */
async function lookAtStage(page: Page, ring: Ring): Promise<{ print: number; hits: number }> {
  const png = (await page.locator('.cluster-stage').screenshot()).toString('base64');
  return page.evaluate(
    async ({ b64, ring }) => {
      const img = new Image();
      img.src = `data:image/png;base64,${b64}`;
      await img.decode();
      const c = document.createElement('canvas');
      c.width = img.width;
      c.height = img.height;
      const g = c.getContext('2d')!;
      g.drawImage(img, 0, 0);
      const px = g.getImageData(0, 0, c.width, c.height).data;
      let print = 0;
      for (let i = 0; i < px.length; i += 4)
        print = (print * 31 + px[i] + 7 * px[i + 1] + 13 * px[i + 2]) | 0;
      let hits = 0;
      for (let a = 0; a < 360; a += 2) {
        for (const dr of [-1, 0, 1]) {
          const x = Math.round(ring.x + (ring.r + dr) * Math.cos((a * Math.PI) / 180));
          const y = Math.round(ring.y + (ring.r + dr) * Math.sin((a * Math.PI) / 180));
          const i = (y * c.width + x) * 4;
          const d =
            Math.abs(px[i] - ring.rgb[0]) +
            Math.abs(px[i + 1] - ring.rgb[1]) +
            Math.abs(px[i + 2] - ring.rgb[2]);
          if (d <= 40) hits++;
        }
      }
      return { print, hits };
    },
    { b64: png, ring },
  );
}

/** Where a node's centre is on screen relative to the stage, and CSS px per viewBox unit. */
async function nodeOnStage(page: Page, id: string): Promise<{ x: number; y: number; scale: number }> {
  return page.evaluate((nodeId) => {
    const svg = document.querySelector('.cluster-svg') as SVGSVGElement;
    const box = svg.getBoundingClientRect();
    const vb = svg.viewBox.baseVal;
    const scale = Math.min(box.width / vb.width, box.height / vb.height);
    const node = document.querySelector(`[data-testid="node-${nodeId}"]`) as SVGGElement;
    const m = node.transform.baseVal.consolidate()!.matrix;
    return {
      x: (box.width - vb.width * scale) / 2 + m.e * scale,
      y: (box.height - vb.height * scale) / 2 + m.f * scale,
      scale,
    };
  }, id);
}

/** The stroke colour the stylesheet gives this node's lease arc, as [r, g, b]. */
async function arcColour(page: Page, id: string): Promise<number[]> {
  const css = await page
    .locator(`[data-testid="node-${id}"] .lease-arc`)
    .evaluate((el) => getComputedStyle(el).stroke);
  return (css.match(/\d+/g) ?? []).slice(0, 3).map(Number);
}

test("the canvas draws the leader's lease arc in its theme colour, still while paused and moving while playing", async ({
  page,
}) => {
  await openMoment(page);
  const leader = await waitForLeader(page);
  const at = await nodeOnStage(page, leader.id);
  // The arc: NODE_R + 7 viewBox units around the node.
  const ring = { x: at.x, y: at.y, r: 37 * at.scale, rgb: await arcColour(page, leader.id) };
  const still = await lookAtStage(page, ring);
  expect(still.hits).toBeGreaterThan(30);
  // Paused: once the page has finished mounting the parts below the first screen (which can
  // move the stage by a pixel on a busy machine), two looks at the stage are the same picture.
  let last = still.print;
  await expect
    .poll(
      async () => {
        const now = (await lookAtStage(page, ring)).print;
        const same = now === last;
        last = now;
        return same;
      },
      { message: 'two looks at the paused stage are the same picture', ...SLOW },
    )
    .toBe(true);
  expect((await lookAtStage(page, ring)).print).toBe(last);
  // Dark theme: the canvas takes the new colour from the stylesheet.
  await page.emulateMedia({ colorScheme: 'dark' });
  const dark = { ...ring, rgb: await arcColour(page, leader.id) };
  expect(dark.rgb).not.toEqual(ring.rgb);
  await expect.poll(async () => (await lookAtStage(page, dark)).hits, SLOW).toBeGreaterThan(30);
  const darkStill = await lookAtStage(page, dark);
  // Playing: messages move, so the picture changes from one look to the next.
  await playLab(page);
  await expect.poll(async () => (await lookAtStage(page, dark)).print, SLOW).not.toBe(darkStill.print);
});

/** The same run headless, at the first moment from 24 s on with messages in flight on the stage. */
function momentWithMessages(): { atMs: number; dots: number; arcs: number } {
  const sim = new Simulation(EXPERIMENT);
  sim.runUntil(5000);
  sim.apply(KILL);
  for (let t = 24_000; t < 30_000; t += 100) {
    sim.runUntil(t);
    const m = frameMotion(sim.snapshot(), sim.experiment.lease);
    const dots = Object.values(m.dots).flat().length;
    if (dots > 0) return { atMs: t, dots, arcs: m.arcs.length };
  }
  throw new Error('no message in flight from 24 s to 30 s');
}

test("an SVG export of the stage carries the arcs and dots the canvas shows, and leaves the page's SVG as it was", async ({
  page,
}) => {
  const moment = momentWithMessages();
  await openMoment(page, moment.atMs);
  await waitForLeader(page);
  await openTab(page, 'Export');
  const [file] = await Promise.all([
    page.waitForEvent('download', SLOW),
    page.getByRole('button', { name: 'Export the cluster stage as SVG', exact: true }).click(),
  ]);
  const svg = (await readFile((await file.path()) as string)).toString('utf8');
  const shapes = await page.evaluate((text) => {
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    // A node's first path is its lease arc (the copy keeps no classes, only its test ids).
    const nodes = [...doc.querySelectorAll('[data-testid^="node-"]')];
    return {
      arcs: nodes.filter((n) => (n.querySelector('path')?.getAttribute('d') ?? '') !== '').length,
      dots: [...doc.querySelectorAll('[data-testid^="dots-"]')].map(
        (p) => (p.getAttribute('d') ?? '').split('M').length - 1,
      ),
    };
  }, svg);
  // Each live node has its lease arc (the killed leader none), and every message in flight a dot:
  // the same shapes the engine's snapshot gives headless.
  expect(shapes.arcs).toBe(moment.arcs);
  expect(moment.arcs).toBe(4);
  expect(shapes.dots.reduce((a, b) => a + b, 0)).toBe(moment.dots);
  // On the page the SVG's own paths are empty again: the canvas draws them.
  const pageDots = await page
    .locator('[data-testid^="dots-"]')
    .evaluateAll((els) => els.map((e) => e.getAttribute('d') ?? ''));
  expect(pageDots.every((d) => d === '')).toBe(true);
});

test("paused, the page's DOM holds still while the frame loop keeps running", async ({ page }) => {
  await openLab(page, 'speed=16');
  await waitForLeader(page);
  await pauseLab(page);
  // The charts draw on a throttle, so one last draw of the paused moment may land just after the
  // click: wait for a quiet 500 ms (within 5 s), then count every change over a full second.
  const changes = await page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let n = 0;
        let quietSince = performance.now();
        const mo = new MutationObserver((r) => {
          n += r.length;
          quietSince = performance.now();
        });
        mo.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
        const started = performance.now();
        const settle = setInterval(() => {
          const now = performance.now();
          if (now - quietSince < 500 && now - started < 5000) return;
          clearInterval(settle);
          n = 0;
          setTimeout(() => {
            mo.disconnect();
            resolve(n);
          }, 1000);
        }, 50);
      }),
  );
  expect(changes).toBe(0);
});
