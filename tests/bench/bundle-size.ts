// Load budget: gzip JavaScript that a page loads before it can run, from a production build.
//   npm run bench:load   (or npx tsx tests/bench/bundle-size.ts: build into .reports/bench-dist, then measure)
//   options: --no-build (measure the last build there), --json
// A page's figure is the sum of the gzip sizes of every JS file it loads to work (from Vite's
// build manifest): the HTML entry's chunk, every chunk it imports statically, and the chunks it
// fetches through import() as it starts. The lab page counts every chunk it can reach (its code
// and panels load right after the first paint); an embed counts the custom element's script (a
// docs page that embeds through <leader-election-scene> loads it, then the embed page in its
// frame), the embed page and the one scene it shows, the heaviest of the four being the figure.
// What loads only on demand later (the chain's alert animation) is listed apart.
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
  /** gzip KB of the JS the page loads to work (see pageLoad). */
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

/** Static closure of a chunk: it and everything it imports statically, transitively. */
function statics(manifest: Manifest, key: string, into = new Set<string>()): Set<string> {
  if (into.has(key)) return into;
  into.add(key);
  for (const dep of manifest[key]?.imports ?? []) statics(manifest, dep, into);
  return into;
}

/** The entry's chunk and every chunk it imports statically, transitively; then the dynamic rest. */
function closure(manifest: Manifest, entry: string): { eager: string[]; deferred: string[] } {
  const eager = statics(manifest, entry);
  // Everything else it can reach, through import() at any depth and what those chunks import.
  const deferred = new Set<string>();
  const reach = (key: string) => {
    for (const dep of [...(manifest[key]?.imports ?? []), ...(manifest[key]?.dynamicImports ?? [])]) {
      if (eager.has(dep) || deferred.has(dep)) continue;
      deferred.add(dep);
      reach(dep);
    }
  };
  for (const key of eager) reach(key);
  return { eager: [...eager], deferred: [...deferred] };
}

/**
 * One page's figure: the JS of `entries` loaded up front, plus the static closure of each chunk in
 * `alsoLoads` (chunks the page fetches through import() as it starts, which count as much as the
 * rest: the page is not working without them). Whatever else import() can reach is listed apart.
 */
function pageLoad(
  manifest: Manifest,
  name: string,
  entries: string[],
  budgetKb: number,
  alsoLoads: string[] | 'all' = [],
): PageLoad {
  const eager = new Set<string>();
  const deferred = new Set<string>();
  for (const entry of entries) {
    if (!manifest[entry]) throw new Error(`the build has no entry "${entry}"`);
    const c = closure(manifest, entry);
    c.eager.forEach((k) => eager.add(k));
    c.deferred.forEach((k) => deferred.add(k));
  }
  const extra = alsoLoads === 'all' ? [...deferred].filter((k) => !ON_DEMAND.includes(k)) : alsoLoads;
  for (const key of extra) {
    if (!manifest[key]) throw new Error(`the build has no chunk for "${key}"`);
    statics(manifest, key, eager);
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

/** Chunks fetched only when something happens, not as a page starts: the chain's alert animation. */
const ON_DEMAND = ['scenes/ChainScene/AlertJolt.tsx'];

/** The scene modules an embed loads, one per embed (src/embed/EmbedApp.tsx imports each lazily). */
const EMBED_SCENES: Record<string, string> = {
  cluster: 'ClusterScene',
  chain: 'ChainScene',
  'metric-line': 'MetricLineScene',
  failover: 'FailoverTimelineScene',
};

/** The manifest key of the chunk the embed page imports for a scene (named after its module). */
function sceneChunk(manifest: Manifest, name: string): string {
  const key = (manifest['embed.html']?.dynamicImports ?? []).find((k) =>
    manifest[k]?.file.startsWith(`assets/${name}-`),
  );
  if (!key) throw new Error(`the embed page imports no chunk for the ${name} scene`);
  return key;
}

export function measureLoad(): PageLoad[] {
  const manifestPath = join(outDir, '.vite', 'manifest.json');
  if (!existsSync(manifestPath))
    throw new Error(`no build manifest at ${manifestPath}: run without --no-build`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
  // The lab page loads its own code right after the first paint and its other panels once the
  // browser is idle: every chunk it can reach counts, except what loads only on demand.
  const lab = pageLoad(
    manifest,
    'lab page, with what it loads as it starts',
    ['index.html'],
    LAB_BUDGET_KB,
    'all',
  );
  // An embed shows one scene: the element's script, the embed page and that scene's chunk. The
  // heaviest scene is the figure.
  const embeds = Object.entries(EMBED_SCENES).map(([scene, key]) =>
    pageLoad(manifest, `embed, ${scene} scene`, ['src/embed/element.ts', 'embed.html'], EMBED_BUDGET_KB, [
      sceneChunk(manifest, key),
    ]),
  );
  const heaviest = embeds.reduce((a, b) => (b.gzipKb > a.gzipKb ? b : a));
  return [lab, { ...heaviest, name: `${heaviest.name} (the heaviest of the four)` }];
}

function main(): void {
  buildOnce();
  const pages = measureLoad();
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(pages, null, 2));
  } else {
    console.log('Load: gzip JavaScript a page loads to work (level 9), from a production build\n');
    for (const p of pages) {
      const ok = p.gzipKb <= p.budgetKb;
      console.log(`${p.name}: ${p.gzipKb.toFixed(1)} KB  budget <= ${p.budgetKb} KB  ${ok ? 'OK' : 'OVER'}`);
      for (const f of p.files) console.log(`    ${f.gzipKb.toFixed(1).padStart(6)} KB  ${f.file}`);
      if (p.deferredKb > 0)
        console.log(`    (+ ${p.deferredKb.toFixed(1)} KB it can load later, on demand, not counted)`);
    }
  }
  if (pages.some((p) => p.gzipKb > p.budgetKb)) process.exitCode = 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
