#!/usr/bin/env node
// `npm run lighthouse`: build the site, serve it with `vite preview` on a free port, and measure
// its pages with Lighthouse in Chromium, on Lighthouse's mobile profile (a mid-range phone on a
// throttled network, simulated) and its desktop profile. Each page and profile runs several
// times, since one mobile run's performance score moves by several points with the machine's
// load; the median run is the result, as Lighthouse's own guidance on variability advises.
// Prints every run's performance score, then the median run's four category scores against the
// target and the audits that cost it points. Exit status 1 when a median score is under the
// target. Not part of `npm test`: scores move with the machine's load, which would make tests
// flaky. The median runs' full reports go to .reports/lighthouse/, to see what each audit found.
//
//   npm run lighthouse                        the lab page and a writer's embed, 5 runs each
//   npm run lighthouse -- '?present'          any page or query of the site instead
//   npm run lighthouse -- --runs 1 '' embed.html
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildAndServe, root } from './preview-server.mjs';

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
const TARGET = 95;
const METRICS = [
  'first-contentful-paint',
  'largest-contentful-paint',
  'total-blocking-time',
  'speed-index',
  'cumulative-layout-shift',
];
// The lab as a visitor first sees it, and the fencing chain as docs embed it (docs/embedding.md).
const DEFAULT_PAGES = ['', 'embed.html?scene=chain&scenario=gc-pause-long&autoplay=1'];
const chromePath = process.env.CHROME_PATH ?? process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

let args;
try {
  args = parseArgs({ options: { runs: { type: 'string', default: '5' } }, allowPositionals: true });
} catch (error) {
  console.error(`lighthouse: ${error.message}`);
  process.exit(2);
}
const runs = Number(args.values.runs);
if (!Number.isInteger(runs) || runs < 1 || runs > 50) {
  console.error(`lighthouse: --runs must be a whole number from 1 to 50, not "${args.values.runs}"`);
  process.exit(2);
}
const pages = args.positionals.length > 0 ? args.positionals : DEFAULT_PAGES;

/**
 * The embed page asks search engines not to index it (a frame inside other pages, not a page to
 * land on: its `<meta name="robots" content="noindex">`), which Lighthouse's SEO category counts
 * against it; SEO is the lab page's to score.
 */
const categoriesOf = (page) =>
  page.startsWith('embed.html') ? CATEGORIES.filter((c) => c !== 'seo') : CATEGORIES;

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

const score = (lhr, category) => Math.round((lhr.categories[category].score ?? 0) * 100);
const slug = (page) =>
  page
    .replace(/\.html/, '')
    .replace(/[^a-z0-9]+/gi, '-')
    .replace(/^-|-$/g, '') || 'lab';

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
  for (const page of pages) {
    for (const [profile, config] of [
      ['mobile', undefined],
      ['desktop', desktopConfig],
    ]) {
      const results = [];
      const categories = categoriesOf(page);
      console.log(
        `\n${profile}: ${site.url}${page}${categories.includes('seo') ? '' : ' (no SEO: not to be indexed)'}`,
      );
      for (let i = 0; i < runs; i++) {
        const run = await lighthouse(
          site.url + page,
          { port: chrome.port, logLevel: 'error', onlyCategories: categories },
          config,
        );
        if (!run) throw new Error('Lighthouse returned no result');
        const { lhr } = run;
        if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.message}`);
        results.push(lhr);
        // The benchmark index is Lighthouse's measure of this machine's CPU (a mid-range phone is
        // about 1,000; under 1,000 Lighthouse warns that the mobile score will read low).
        const tbt = lhr.audits['total-blocking-time'].displayValue;
        console.log(
          `  run ${i + 1}/${runs}: performance ${score(lhr, 'performance')}, total blocking time ${tbt}, benchmark index ${Math.round(lhr.environment.benchmarkIndex)}`,
        );
        for (const warning of lhr.runWarnings) console.log(`    warning: ${warning}`);
      }
      const byPerformance = [...results].sort((a, b) => score(a, 'performance') - score(b, 'performance'));
      const median = byPerformance[Math.floor((results.length - 1) / 2)];
      writeFileSync(join(reports, `${slug(page)}-${profile}.json`), JSON.stringify(median));
      if (runs > 1)
        console.log(
          `  median run (performance ${byPerformance.map((r) => score(r, 'performance')).join(', ')}):`,
        );
      console.log(
        `  ${METRICS.map((id) => `${median.audits[id].title} ${median.audits[id].displayValue}`).join(', ')}`,
      );
      for (const category of categories) {
        const value = score(median, category);
        const mark = value >= TARGET ? 'ok' : `UNDER ${TARGET}`;
        console.log(
          `  ${median.categories[category].title.padEnd(15)} ${String(value).padStart(3)}  ${mark}`,
        );
        if (value < TARGET) below++;
        for (const line of losses(median, category)) console.log(line);
      }
    }
  }
} finally {
  await chrome?.kill();
  site.stop();
}
console.log(below ? `\n${below} score(s) under ${TARGET}` : `\nevery score is at least ${TARGET}`);
process.exitCode = below ? 1 : 0;
