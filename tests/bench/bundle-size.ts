// Load budget: gzip JavaScript that a page loads before it can run, from a production build.
//   npm run bench:load   (or npx tsx tests/bench/bundle-size.ts: build into .reports/bench-dist, then measure)
//   options: --no-build (measure the last build there), --json
// A page's figure is the sum of the gzip sizes of every JS file its HTML entry loads: the entry
// chunk and, recursively, every chunk it imports statically (from Vite's build manifest).
// Chunks behind a dynamic import() load later, on demand, and are listed apart.
// The embed's figure adds the custom element's script, since a docs page that embeds through
// <leader-election-scene> loads that script and then the embed page in its frame.
// Budgets: lab page <= 170 KB, embed <= 120 KB (1 KB = 1024 bytes, gzip level 9 as a static host
// would precompress). It builds into its own directory so a running preview of dist/ is untouched.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { benchDist as outDir, buildOnce } from './browserKit';

export const LAB_BUDGET_KB = 170;
export const EMBED_BUDGET_KB = 120;

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

export interface PageLoad {
  name: string;
  /** gzip KB of the JS loaded up front. */
  gzipKb: number;
  budgetKb: number;
  files: { file: string; gzipKb: number }[];
  /** gzip KB of chunks it may load later through import(). */
  deferredKb: number;
}

const kb = (bytes: number) => bytes / 1024;

function gzipKbOf(file: string): number {
  return kb(gzipSync(readFileSync(join(outDir, file)), { level: 9 }).length);
}

/** The entry's chunk and every chunk it imports statically, transitively; then the dynamic rest. */
function closure(manifest: Manifest, entry: string): { eager: string[]; deferred: string[] } {
  const eager = new Set<string>();
  const visit = (key: string) => {
    if (eager.has(key)) return;
    eager.add(key);
    for (const dep of manifest[key]?.imports ?? []) visit(dep);
  };
  visit(entry);
  const deferred = new Set<string>();
  const visitLazy = (key: string) => {
    for (const dep of manifest[key]?.dynamicImports ?? []) {
      if (eager.has(dep) || deferred.has(dep)) continue;
      deferred.add(dep);
      for (const d of manifest[dep]?.imports ?? []) if (!eager.has(d)) deferred.add(d);
      visitLazy(dep);
    }
  };
  for (const key of eager) visitLazy(key);
  return { eager: [...eager], deferred: [...deferred] };
}

function pageLoad(manifest: Manifest, name: string, entries: string[], budgetKb: number): PageLoad {
  const eager = new Set<string>();
  const deferred = new Set<string>();
  for (const entry of entries) {
    if (!manifest[entry]) throw new Error(`the build has no entry "${entry}"`);
    const c = closure(manifest, entry);
    c.eager.forEach((k) => eager.add(k));
    c.deferred.forEach((k) => deferred.add(k));
  }
  const files = [...eager]
    .map((k) => manifest[k].file)
    .filter((f) => f.endsWith('.js'))
    .map((file) => ({ file, gzipKb: gzipKbOf(file) }))
    .sort((a, b) => b.gzipKb - a.gzipKb);
  const deferredKb = [...deferred]
    .filter((k) => !eager.has(k))
    .map((k) => manifest[k].file)
    .filter((f) => f.endsWith('.js'))
    .reduce((sum, f) => sum + gzipKbOf(f), 0);
  return { name, gzipKb: files.reduce((s, f) => s + f.gzipKb, 0), budgetKb, files, deferredKb };
}

export function measureLoad(): PageLoad[] {
  const manifestPath = join(outDir, '.vite', 'manifest.json');
  if (!existsSync(manifestPath)) throw new Error(`no build manifest at ${manifestPath}: run without --no-build`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
  return [
    pageLoad(manifest, 'lab page (index.html)', ['index.html'], LAB_BUDGET_KB),
    pageLoad(manifest, 'embed (element script + embed.html)', ['src/embed/element.ts', 'embed.html'], EMBED_BUDGET_KB),
  ];
}

function main(): void {
  buildOnce();
  const pages = measureLoad();
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(pages, null, 2));
  } else {
    console.log('Load: gzip JavaScript loaded up front (level 9), from a production build\n');
    for (const p of pages) {
      const ok = p.gzipKb <= p.budgetKb;
      console.log(`${p.name}: ${p.gzipKb.toFixed(1)} KB  budget <= ${p.budgetKb} KB  ${ok ? 'OK' : 'OVER'}`);
      for (const f of p.files) console.log(`    ${f.gzipKb.toFixed(1).padStart(6)} KB  ${f.file}`);
      if (p.deferredKb > 0) console.log(`    (+ ${p.deferredKb.toFixed(1)} KB loaded later on demand)`);
    }
  }
  if (pages.some((p) => p.gzipKb > p.budgetKb)) process.exitCode = 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
