// Every URL parameter of the lab page, the embed page and the <leader-election-scene> element in one table:
// what it accepts, its default, its pages and, for a setup, where its value goes. docs/embedding.md's table
// is made from it (gen:docs), each row's words from paramDocs.ts, apart so the pages never load them.
import { ALGORITHM_KINDS, WARM_UP_PRESETS, type ExperimentInput } from '../engine';
import { MAX_SPEED, MIN_SPEED } from '../store/labStore';
import { SCENES } from './scenes';

export type ParamPage = 'lab' | 'embed' | 'element';

/** What a reader made of one raw value: the value, or why not and what is used instead. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; why: string; used?: T };

export interface Param<T> {
  pages: readonly ParamPage[];
  /** The default, as the docs show it. */
  defaultText: string;
  read(raw: string): Parsed<T>;
  /** A setup of the cluster: where its value goes in the experiment (a scenario or run brings its own). */
  setup?: (experiment: ExperimentInput, value: T) => void;
  /** Set by the page for itself (not documented). */
  internal?: boolean;
}

function int(min: number, max: number): (raw: string) => Parsed<number> {
  return (raw) => {
    const v = Number(raw);
    if (raw.trim() !== '' && Number.isInteger(v) && v >= min && v <= max) return { ok: true, value: v };
    return { ok: false, why: `must be a whole number from ${min} to ${max}` };
  };
}

/** 1 / 0, true / false; an empty value (`?paused`) means on. */
function flag(raw: string): Parsed<boolean> {
  const v = raw.toLowerCase();
  if (v === '' || v === '1' || v === 'true') return { ok: true, value: true };
  if (v === '0' || v === 'false') return { ok: true, value: false };
  return { ok: false, why: 'must be 1 or 0' };
}

/** One of `values` (each list has two or more), in any case. */
function choice<T extends string>(values: readonly T[]): (raw: string) => Parsed<T> {
  const list = `${values.slice(0, -1).join(', ')} or ${values[values.length - 1]}`;
  return (raw) => {
    const v = raw.toLowerCase();
    const hit = values.find((x) => x === v);
    return hit ? { ok: true, value: hit } : { ok: false, why: `must be ${list}` };
  };
}

/** A warm-up: `cold`, `prewarmed` (WARM_UP_PRESETS) or a duration in ms. */
function warmUp(raw: string): Parsed<number> {
  const named = WARM_UP_PRESETS[raw.toLowerCase() as keyof typeof WARM_UP_PRESETS];
  if (named !== undefined) return { ok: true, value: named };
  const r = int(0, 600_000)(raw);
  return r.ok ? r : { ok: false, why: 'must be cold, prewarmed or a whole number of ms from 0 to 600000' };
}

function text(raw: string): Parsed<string> {
  return { ok: true, value: raw };
}

function speed(raw: string): Parsed<number> {
  const v = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(v) || v <= 0)
    return { ok: false, why: 'must be a positive number' };
  if (v < MIN_SPEED) return { ok: false, why: `must be at least ${MIN_SPEED}`, used: MIN_SPEED };
  if (v > MAX_SPEED) return { ok: false, why: `must be at most ${MAX_SPEED}`, used: MAX_SPEED };
  return { ok: true, value: v };
}

/** A scene by its id or another of its names, in any case. */
function scene(raw: string): Parsed<string> {
  const v = raw.toLowerCase();
  // Own entries only: a lookup by key would take "constructor" or "__proto__" for a scene.
  const hit = SCENES.find((s) => s.id === v || (s.aliases as readonly string[]).includes(v));
  return hit
    ? { ok: true, value: hit.id }
    : { ok: false, why: `must be one of ${SCENES.map((s) => s.id).join(', ')}` };
}

const ALL: readonly ParamPage[] = ['lab', 'embed', 'element'];
const FRAMES: readonly ParamPage[] = ['embed', 'element'];

/** One row of the table (a setup parameter's row also says where its value goes). */
function param<T>(
  pages: readonly ParamPage[],
  defaultText: string,
  read: (raw: string) => Parsed<T>,
  setup?: Param<T>['setup'],
): Param<T> {
  return { pages, defaultText, read, ...(setup ? { setup } : {}) };
}

/** The table. The order is the docs' order. */
export const PARAMS = {
  scene: param(FRAMES, `\`${SCENES[0].id}\``, scene),
  // Ids are lower case, as `scene=` is read in any case.
  scenario: param(ALL, 'none', (raw) => ({ ok: true, value: raw.toLowerCase() })),
  // Any whole number: whether the game day has that step is said with its own range (link.ts).
  step: param(ALL, '1', (raw) =>
    /^\s*\d+\s*$/.test(raw)
      ? { ok: true, value: Number(raw) }
      : { ok: false, why: "must be a whole number from 1 to the scenario's number of steps" },
  ),
  run: param(ALL, 'none', text),
  algorithm: param(
    ALL,
    // The lab page opened with none of the setup, game day and run parameters is the card's.
    '`raft` (the lab page opened with no setup, `scenario` or `run`: `k8s-lease`)',
    choice(ALGORITHM_KINDS),
    (e, v) => {
      e.algorithm = v;
      // The page's Raft timing is Raft's alone: another algorithm has its own.
      if (v !== 'raft') delete e.raft;
    },
  ),
  seed: param(ALL, '1', int(0, 4294967295), (e, v) => void (e.seed = v)),
  nodes: param(ALL, '5', int(1, 9), (e, v) => void (e.nodes = v)),
  clients: param(ALL, '0', int(0, 2000), (e, v) => void (e.workload = { ...e.workload, clients: v })),
  warmup: param(ALL, '2000', warmUp, (e, v) => void (e.warmUpMs = v)),
  witness: param(ALL, '`0`', flag, (e, v) => void (e.witness = v)),
  speed: param(ALL, '1', speed),
  paused: param(['lab'], 'off', flag),
  present: param(['lab'], 'off', flag),
  autoplay: param(FRAMES, '`1` (a shared run: `0`)', flag),
  controls: param(FRAMES, '`minimal`', choice(['minimal', 'none'] as const)),
  theme: param(ALL, '`system`', choice(['light', 'dark', 'system'] as const)),
  real: param(['lab'], 'none', text),
  token: param(['lab'], 'none', text),
  height: param(['element'], 'fits the scene', text),
  title: param(['element'], 'the scene and its scenario', text),
  id: { ...param(['embed'], 'none', text), internal: true },
} as const;

export type ParamName = keyof typeof PARAMS;
type ValueOf<P> = P extends Param<infer T> ? T : never;
export type ParamValues = { [K in ParamName]?: ValueOf<(typeof PARAMS)[K]> };

const NAMES = Object.keys(PARAMS) as ParamName[];

export function paramsOf(page: ParamPage): ParamName[] {
  return NAMES.filter((n) => (PARAMS[n].pages as readonly ParamPage[]).includes(page));
}

/** Parameters that describe a cluster setup, each with where it goes in the experiment. */
export const SETUP_PARAMS = NAMES.filter((n) => PARAMS[n].setup !== undefined);

/** Parameters that say which run is shown (a run link replaces them all). */
export const RUN_PARAMS: readonly ParamName[] = ['run', 'scenario', 'step', ...SETUP_PARAMS];

/** Names a link may carry that belong to someone else (campaign tags, click ids): never noted. */
function foreign(name: string): boolean {
  return /^utm_/i.test(name) || /clid$/i.test(name) || name === '';
}

function distance(a: string, b: string): number {
  const d = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = d[0];
    d[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const keep = d[j];
      d[j] = Math.min(d[j] + 1, d[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = keep;
    }
  }
  return d[b.length];
}

/** The known name closest to an unknown one, if it looks like a typo of it. */
export function suggest(name: string, page: ParamPage): string | null {
  const lower = name.toLowerCase();
  let best: string | null = null;
  let bestD = 3;
  let bestPrefix = -1;
  for (const n of paramsOf(page)) {
    const d = distance(lower, n);
    // A typo keeps the start of the word: a name sharing fewer than two first letters is not suggested
    // ("sceen" is not "seed"), and ties go to the longer shared start ("sped" is "speed", not "seed").
    let prefix = 0;
    while (prefix < n.length && n[prefix] === lower[prefix]) prefix++;
    if (prefix < 2) continue;
    if (d < bestD || (d === bestD && prefix > bestPrefix)) [best, bestD, bestPrefix] = [n, d, prefix];
  }
  return best;
}

const PAGE_WORDS: Record<ParamPage, string> = { lab: 'the lab', embed: 'an embed', element: 'the element' };

export interface ReadParams {
  /** The values given and readable (or the value used instead, for one out of range). */
  values: ParamValues;
  /** Which parameters the query carried at all, readable or not. */
  given: Set<ParamName>;
  /** One line per parameter that was not used as given. */
  notes: string[];
}

/** Echo a value as typed, cut short when it is long (a broken run link can be kilobytes). */
export function quote(raw: string): string {
  return JSON.stringify(raw.length > 40 ? `${raw.slice(0, 40)}…` : raw);
}

/** "used 5", or "ignored" when the parameter has no value to fall back on. */
function usedText(name: ParamName, used: unknown): string {
  if (used !== undefined) return `used ${String(used)}`;
  // The default as the docs give it, without their backquotes and asides.
  const d = PARAMS[name].defaultText.replace(/`/g, '').replace(/\s*\(.*\)$/, '');
  return d === 'none' ? 'ignored' : `used ${d}`;
}

/** Read a page's query through the table; anything unknown or unreadable gets a note. Never throws. */
export function readParams(search: string, page: ParamPage): ReadParams {
  const q = new URLSearchParams(search);
  const known = new Set(paramsOf(page));
  const values: Record<string, unknown> = {};
  const given = new Set<ParamName>();
  const notes: string[] = [];
  for (const [name, raw] of q) {
    if (!known.has(name as ParamName)) {
      if (foreign(name) || (page === 'embed' && name === 'id')) continue;
      const near = suggest(name, page);
      notes.push(
        `${quote(name)} is not a parameter of ${PAGE_WORDS[page]}${near ? ` (did you mean "${near}"?)` : ''}: ignored`,
      );
      continue;
    }
    const key = name as ParamName;
    if (given.has(key)) continue; // the first of repeated parameters counts, as URLSearchParams.get reads
    given.add(key);
    const r = (PARAMS[key] as Param<unknown>).read(raw);
    if (r.ok) values[key] = r.value;
    else {
      if (r.used !== undefined) values[key] = r.used;
      notes.push(`"${key}" ${r.why} (got ${quote(raw)}): ${usedText(key, r.used)}`);
    }
  }
  return { values: values as ParamValues, given, notes };
}

/** What of a query another page takes and reads: "Open in the lab" sends it, sans embed-only parameters. */
export function queryFor(search: string, page: ParamPage): string {
  const known = new Set(paramsOf(page));
  const out = new URLSearchParams();
  for (const [name, raw] of new URLSearchParams(search)) {
    if (!known.has(name as ParamName) || out.has(name)) continue;
    if ((PARAMS[name as ParamName] as Param<unknown>).read(raw).ok) out.append(name, raw);
  }
  const query = out.toString();
  return query ? `?${query}` : '';
}

/** The experiment a link's setup parameters describe, on top of the page's defaults. */
export function setupOf(values: ParamValues, base: ExperimentInput): ExperimentInput {
  const e = structuredClone(base);
  for (const name of SETUP_PARAMS) {
    const v = values[name];
    if (v !== undefined) (PARAMS[name] as Param<unknown>).setup?.(e, v);
  }
  return e;
}
