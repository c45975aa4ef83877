#!/usr/bin/env node
// `npm run lighthouse`: build the site, serve it with `vite preview` on a free port, and measure
// the lab page with Lighthouse in Chromium, on Lighthouse's mobile profile (a mid-range phone on
// a throttled network) and its desktop profile. Prints the four category scores of each against
// the target, and the audits that cost points. Exit status 1 when a score is under the target.
// Not part of `npm test`: scores move with the machine's load, which would make tests flaky.
// The full reports go to .reports/lighthouse/{mobile,desktop}.json, to see what each audit found.
//
//   npm run lighthouse                 the lab page as a visitor first sees it
//   npm run lighthouse -- '?paused'    any page or query of the site (here: not playing)
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildAndServe, root } from './preview-server.mjs';

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
const TARGET = 95;
const METRICS = ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'speed-index', 'cumulative-layout-shift'];
const chromePath = process.env.CHROME_PATH ?? process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Audits in this category that lost points, worst first. */
function losses(lhr, category) {
  return lhr.categories[category].auditRefs
    .filter((ref) => ref.weight > 0 && lhr.audits[ref.id].score !== null && lhr.audits[ref.id].score < 1)
    .sort((a, b) => b.weight * (1 - lhr.audits[b.id].score) - a.weight * (1 - lhr.audits[a.id].score))
    .map((ref) => {
      const audit = lhr.audits[ref.id];
      const value = audit.displayValue ? ` (${audit.displayValue})` : '';
      return `    - ${audit.title}${value}`;
    });
}

const page = process.argv[2] ?? '';
const reports = join(root, '.reports', 'lighthouse');
mkdirSync(reports, { recursive: true });
const site = await buildAndServe();
let chrome;
let below = 0;
try {
  chrome = await chromeLauncher.launch({
    chromePath,
    chromeFlags: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  for (const [profile, config] of [
    ['mobile', undefined],
    ['desktop', desktopConfig],
  ]) {
    const run = await lighthouse(site.url + page, { port: chrome.port, logLevel: 'error', onlyCategories: CATEGORIES }, config);
    if (!run) throw new Error('Lighthouse returned no result');
    const { lhr } = run;
    if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.message}`);
    writeFileSync(join(reports, `${profile}.json`), JSON.stringify(lhr));
    console.log(`\n${profile} (${lhr.finalDisplayedUrl})`);
    console.log(`  ${METRICS.map((id) => `${lhr.audits[id].title} ${lhr.audits[id].displayValue}`).join(', ')}`);
    for (const category of CATEGORIES) {
      const score = Math.round((lhr.categories[category].score ?? 0) * 100);
      const mark = score >= TARGET ? 'ok' : `UNDER ${TARGET}`;
      console.log(`  ${lhr.categories[category].title.padEnd(15)} ${String(score).padStart(3)}  ${mark}`);
      if (score < TARGET) below++;
      for (const line of losses(lhr, category)) console.log(line);
    }
  }
} finally {
  await chrome?.kill();
  site.stop();
}
console.log(below ? `\n${below} score(s) under ${TARGET}` : `\nevery score is at least ${TARGET}`);
process.exitCode = below ? 1 : 0;
