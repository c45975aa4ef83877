// `npm run social-preview`: render public/social-preview.png (1200 x 630, the size link previews
// use) from the built lab page in Chromium, at a fixed run so the image only changes when the
// page does: seed 1, the leader killed at 5 s, seen at 24.3 s with the new leader in place.
// The og:image:alt text in index.html describes this picture; change both together.
// Every algorithm's rules: this runs in Node (or a worker), with no page to load them on demand.
import '../src/engine/algorithms/all';
import { chromium } from '@playwright/test';
import { join } from 'node:path';
import { loadCodec } from '../src/shared/codec';
import { encodeRun } from '../src/shared/share';
import { buildAndServe, root } from './preview-server.mjs';

const WIDTH = 1200;
const HEIGHT = 630;
/** Lay the page out 1000 px wide (the two-column lab) and scale it to the image's width. */
const LAYOUT_WIDTH = 1000;

await loadCodec(); // the run link's codec, which the page loads apart
const run = encodeRun({
  // The page's own defaults (src/app/urlParams.ts): its slower network lets messages be seen.
  experiment: { seed: 1, nodes: 5, network: { delayMsMin: 60, delayMsMax: 180 } },
  commands: [{ atMs: 5000, command: { do: 'kill', node: 'leader' } }],
  atMs: 24_300,
});

const site = await buildAndServe();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});
try {
  const scale = WIDTH / LAYOUT_WIDTH;
  const page = await browser.newPage({
    viewport: { width: LAYOUT_WIDTH, height: Math.round(HEIGHT / scale) },
    deviceScaleFactor: scale,
    colorScheme: 'light',
  });
  await page.goto(`${site.url}?run=${run}`);
  await page.locator('.cluster-svg').waitFor();
  // The stage and the controls beside it, with a little of the page's margin above them.
  await page
    .locator('.lab-grid')
    .evaluate((el) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 12));
  const path = join(root, 'public', 'social-preview.png');
  await page.screenshot({ path, animations: 'disabled' });
  console.log(`wrote ${path}`);
} finally {
  await browser.close();
  site.stop();
}
