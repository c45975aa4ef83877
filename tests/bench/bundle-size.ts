// Load budget: the gzip JavaScript Chromium actually fetches for a page, with no user action,
// until the network is idle, from a production build.
//   npm run bench:load   (or npx tsx tests/bench/bundle-size.ts: build into .reports/bench-dist, then measure)
//   options: --no-build (measure the last build there), --json
// The lab page is measured as it opens by default and as the Kubernetes Lease first screen
// (`?algorithm=k8s-lease`, the lease's own 15 s / 10 s / 2 s timings), whose algorithm's rules load
// in Raft's place.
// Each page opens in a fresh browser context (an empty cache) and every script it or its frames
// request is counted, as the network saw it, until no request has started for QUIET_MS: the
// lab's code, the scenes of its first screen, the panels it mounts once idle (export, learning,
// help), and anything else it fetches by itself. What loads only on a person's action (the run
// link codec, the alert animation) is not fetched, so it is not counted; the rest of the build
// is listed apart. The embed is measured as a docs page uses it: the page loads the
// <leader-election-scene> script, which frames the embed page, which loads the scene it shows,
// for every scene in free play and for every example docs/embedding.md gives (elements and
// iframes, with their game days and steps); the heaviest of them is the figure. The offline worker's cache fill (public/sw.js, after the page
// has loaded) is a download for later visits, not part of this one, so workers are off here.
// Budgets: lab page <= 170 KB, embed <= 120 KB (1 KB = 1024 bytes, gzip level 9 as a static host
// would precompress). It builds into its own directory so a running preview of dist/ is untouched.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Browser } from '@playwright/test';
import { SCENES } from '../../src/shared/scenes';
import { benchDist as outDir, withBrowser } from './browserKit';

export const LAB_BUDGET_KB = 170;
export const EMBED_BUDGET_KB = 120;

/** The network counts as idle once no request has started for this long. */
const QUIET_MS = 2500;
/** However busy, a page is measured for at most this long. */
const MAX_WAIT_MS = 30_000;

export interface PageLoad {
  name: string;
  /** gzip KB of the JavaScript the page fetched (see the file's header). */
  gzipKb: number;
  budgetKb: number;
  files: { file: string; gzipKb: number }[];
  /** gzip KB of the build's other scripts, which this page did not fetch. */
  deferredKb: number;
  /** For the heaviest embed: every embed it was the heaviest of, with its total. */
  among?: { name: string; gzipKb: number }[];
}

/** One line per page measured beside the heaviest, heaviest first. */
export function amongLines(p: PageLoad): string[] {
  return [...(p.among ?? [])]
    .sort((a, b) => b.gzipKb - a.gzipKb)
    .map((e) => `    ${e.gzipKb.toFixed(1).padStart(6)} KB  ${e.name}`);
}

const kb = (bytes: number) => bytes / 1024;

function gzipKbOf(file: string): number {
  return kb(gzipSync(readFileSync(join(outDir, file)), { level: 9 }).length);
}

/** Every script in the build, by its path under the build directory. */
function builtScripts(): string[] {
  const assets = readdirSync(join(outDir, 'assets'))
    .filter((f) => f.endsWith('.js'))
    .map((f) => `assets/${f}`);
  return [...assets, ...readdirSync(outDir).filter((f) => f.endsWith('.js') && f !== 'sw.js')];
}

/** Open `path` in a fresh context and collect the scripts it fetches until the network is quiet. */
async function fetchedScripts(
  browser: Browser,
  baseUrl: string,
  path: string,
  docsPage?: string,
): Promise<string[]> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    serviceWorkers: 'block',
  });
  const scripts = new Set<string>();
  let lastRequestAt = Date.now();
  context.on('request', (req) => {
    lastRequestAt = Date.now();
    const url = new URL(req.url());
    if (url.origin === baseUrl && url.pathname.endsWith('.js')) scripts.add(url.pathname.replace(/^\//, ''));
  });
  const page = await context.newPage();
  if (docsPage)
    await page.route(`${baseUrl}/${path}`, (route) =>
      route.fulfill({ contentType: 'text/html', body: docsPage }),
    );
  const started = Date.now();
  await page.goto(`${baseUrl}/${path}`, { waitUntil: 'load' });
  while (Date.now() - lastRequestAt < QUIET_MS && Date.now() - started < MAX_WAIT_MS)
    await page.waitForTimeout(250);
  await context.close();
  return [...scripts];
}

const DOCS = fileURLToPath(new URL('../../docs/embedding.md', import.meta.url));
const DOCS_SITE = 'https://example.org/lab/';

/**
 * Each embed docs/embedding.md shows (a custom element or an iframe of the embed page), pointed at
 * `baseUrl`: the heaviest of them is what a writer following the docs ships.
 */
export function documentedEmbeds(baseUrl: string): { name: string; html: string }[] {
  const text = readFileSync(DOCS, 'utf8').replaceAll(DOCS_SITE, `${baseUrl}/`);
  const tags =
    text.match(/<leader-election-scene\b[^>]*><\/leader-election-scene>|<iframe\b[^>]*>\s*<\/iframe>/g) ?? [];
  return [...new Set(tags)].map((html) => ({
    name: html.startsWith('<iframe')
      ? `iframe ${/embed\.html\?([^"]+)/.exec(html)?.[1] ?? ''}`
      : `element ${html.replace(/^<leader-election-scene\s*|><\/leader-election-scene>$/g, '')}`,
    html,
  }));
}

function pageLoad(name: string, fetched: string[], budgetKb: number, all: string[]): PageLoad {
  const files = fetched.map((file) => ({ file, gzipKb: gzipKbOf(file) })).sort((a, b) => b.gzipKb - a.gzipKb);
  const deferredKb = all.filter((f) => !fetched.includes(f)).reduce((sum, f) => sum + gzipKbOf(f), 0);
  return { name, gzipKb: files.reduce((s, f) => s + f.gzipKb, 0), budgetKb, files, deferredKb };
}

export async function measureLoad(): Promise<PageLoad[]> {
  return withBrowser(async ({ browser, baseUrl }) => {
    const all = builtScripts();
    const lab = pageLoad(
      'lab page, until the network is idle',
      await fetchedScripts(browser, baseUrl, ''),
      LAB_BUDGET_KB,
      all,
    );
    const labLease = pageLoad(
      'lab page opened as the Kubernetes Lease first screen (?algorithm=k8s-lease), until the network is idle',
      await fetchedScripts(browser, baseUrl, '?algorithm=k8s-lease'),
      LAB_BUDGET_KB,
      all,
    );
    const embeds: PageLoad[] = [];
    const measure = async (name: string, body: string) => {
      // The element's script only where an element is: an iframe needs none.
      const script = body.includes('<leader-election-scene')
        ? `<script src="${baseUrl}/leader-election-scene.js"></script>`
        : '';
      const docs = `<!doctype html><html lang="en"><head><title>Docs</title>${script}</head><body>${body}</body></html>`;
      const fetched = await fetchedScripts(browser, baseUrl, 'bench-docs-page.html', docs);
      embeds.push(pageLoad(`embed, ${name}, until the network is idle`, fetched, EMBED_BUDGET_KB, all));
    };
    for (const scene of SCENES)
      await measure(
        `${scene.id} scene`,
        `<leader-election-scene scene="${scene.id}"></leader-election-scene>`,
      );
    // What a writer pastes: every example docs/embedding.md gives, on the site measured here.
    for (const example of documentedEmbeds(baseUrl))
      await measure(`docs example ${example.name}`, example.html);
    const heaviest = embeds.reduce((a, b) => (b.gzipKb > a.gzipKb ? b : a));
    const among = embeds.map((e) => ({ name: e.name, gzipKb: e.gzipKb }));
    return [
      lab,
      labLease,
      { ...heaviest, name: `${heaviest.name} (the heaviest of the ${embeds.length})`, among },
    ];
  });
}

async function main(): Promise<void> {
  const pages = await measureLoad();
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(pages, null, 2));
  } else {
    console.log(
      'Load: gzip JavaScript Chromium fetches, no user action, until the network is idle (level 9)\n',
    );
    for (const p of pages) {
      const ok = p.gzipKb <= p.budgetKb;
      console.log(`${p.name}: ${p.gzipKb.toFixed(1)} KB  budget <= ${p.budgetKb} KB  ${ok ? 'OK' : 'OVER'}`);
      for (const f of p.files) console.log(`    ${f.gzipKb.toFixed(1).padStart(6)} KB  ${f.file}`);
      console.log(`    (+ ${p.deferredKb.toFixed(1)} KB in the build it did not fetch)`);
      if (p.among) console.log(`  the ${p.among.length} embeds measured:\n${amongLines(p).join('\n')}`);
    }
  }
  if (pages.some((p) => p.gzipKb > p.budgetKb)) process.exitCode = 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) void main();
