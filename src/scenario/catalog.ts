// Every scenario file under scenes/scenarios/ is picked up here: adding a scenario means adding a data file.
// Files that fail validation are listed with their errors instead of crashing.
//
// The page loads and validates only what it uses, when it uses it: the picker lists every file's id and title
// from a small index made at build time (virtual:scenario-index: no file or schema needed to show a link); a
// scenario's own file is fetched and validated when a link opens it (loadLinkScenario, link.ts); the rest
// load, with their descriptions, only as the picker opens (an embed never does), to drop any broken file and
// say why. Fetching every game day up front was most of the scenarios' share of the page's start.
import SCENARIO_INDEX from 'virtual:scenario-index';
import { parseScenario } from './schema';
import type { Scenario } from './types';

export interface CatalogProblem {
  file: string;
  errors: string[];
}

/** What the picker shows of a scenario: read from its file as written, before validation. */
export interface CatalogEntry {
  file: string;
  id: string;
  title: string;
  /** Empty until the file has loaded (the index made at build time leaves it out). */
  description: string;
  /** Its picker group's id (groups.ts), as written. */
  group: string;
}

const fileName = (path: string) => path.split('/').pop() as string;

const field = (data: unknown, key: string): string => {
  const v = data !== null && typeof data === 'object' ? (data as Record<string, unknown>)[key] : undefined;
  return typeof v === 'string' ? v : '';
};

type Checked = { ok: true; scenario: Scenario } | { ok: false; problem: CatalogProblem };

// Code-point sort of ASCII names: localeCompare's first call loads collation data (tens of ms on a phone).
const byPath = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Scenario files loaded so far: path to parsed JSON. With an index (path to the picker's entry), files may
 * load later, into `files`; without one, every file is there from the start and the index is read from them.
 */
export function catalogOf(
  files: Record<string, unknown>,
  index?: Record<string, Omit<CatalogEntry, 'description'>>,
) {
  const paths = (): string[] =>
    [...new Set([...Object.keys(index ?? {}), ...Object.keys(files)])].sort(byPath);
  const loaded = (): string[] => paths().filter((p) => p in files);
  const checked = new Map<string, Checked>();

  /** Validate one loaded file (once). */
  const check = (path: string): Checked => {
    let c = checked.get(path);
    if (!c) {
      const r = parseScenario(files[path]);
      c = r.ok
        ? { ok: true, scenario: r.scenario }
        : {
            ok: false,
            problem: { file: fileName(path), errors: r.errors.map((e) => `${e.field}: ${e.message}`) },
          };
      checked.set(path, c);
    }
    return c;
  };
  /** What `pick` takes of each loaded file, validated, in file order. */
  const eachLoaded = <T>(pick: (c: Checked) => T[]): T[] => loaded().flatMap((path) => pick(check(path)));
  const pathOf = (id: string): string | undefined =>
    paths().find((p) => (index?.[p] ? index[p].id : field(files[p], 'id')) === id);
  const checkId = (id: string): Checked | undefined => {
    const path = pathOf(id);
    return path === undefined || !(path in files) ? undefined : check(path);
  };

  return {
    /** Every file with an id, in file order, as the picker lists them (not validated). */
    get index(): CatalogEntry[] {
      return paths()
        .map((path) => ({
          ...(index?.[path] ?? {
            file: fileName(path),
            id: field(files[path], 'id'),
            title: field(files[path], 'title'),
            group: field(files[path], 'group'),
          }),
          description: field(files[path], 'description'),
        }))
        .filter((e) => e.id !== '');
    },
    /** The path of the file with this id (loaded or not); undefined when no file has it. */
    pathOf,
    get complete(): boolean {
      return paths().every((p) => p in files);
    },
    /** Every loaded file that validates, in file order. */
    get scenarios(): Scenario[] {
      return eachLoaded((c) => (c.ok ? [c.scenario] : []));
    },
    /** Every loaded file that does not validate, with its errors. */
    get problems(): CatalogProblem[] {
      return eachLoaded((c) => (c.ok ? [] : [c.problem]));
    },
    /** Validate the next loaded file not yet validated; false once every one is. For idle-time work. */
    checkNext(): boolean {
      const next = loaded().find((path) => !checked.has(path));
      if (next === undefined) return false;
      check(next);
      return true;
    },
    /** The scenario with this id, validated; undefined when no file has it or its file does not validate. */
    find(id: string): Scenario | undefined {
      const c = checkId(id);
      return c?.ok ? c.scenario : undefined;
    },
    /** Why the file with this id does not validate; undefined when it does, or no file has the id. */
    problemOf(id: string): CatalogProblem | undefined {
      const c = checkId(id);
      return c && !c.ok ? c.problem : undefined;
    },
  };
}

const SCENARIO_DIR = '../../scenes/scenarios/';
/** Each file's loader: every scenario is a chunk of its own. */
const LOADERS = import.meta.glob<unknown>('../../scenes/scenarios/*.json', { import: 'default' });
const FILES: Record<string, unknown> = {};
/** Files that could not be fetched (offline, say), with why. */
const UNREACHABLE = new Map<string, string>();

export const catalog = catalogOf(
  FILES,
  Object.fromEntries(SCENARIO_INDEX.map((e) => [`${SCENARIO_DIR}${e.file}`, e])),
);

async function loadPath(path: string): Promise<void> {
  const load = LOADERS[path];
  if (path in FILES || !load) return;
  try {
    FILES[path] = await load();
    UNREACHABLE.delete(path);
  } catch (e) {
    UNREACHABLE.set(path, e instanceof Error ? e.message : String(e));
  }
}

/** Load the scenario with this id, if a file has it. Never rejects: a failed fetch is said by scenarioProblem. */
export async function loadScenario(id: string): Promise<void> {
  const path = catalog.pathOf(id);
  if (path) await loadPath(path);
}

/** Load every scenario file (the picker, to find any broken one; tests). */
export async function loadAllScenarios(): Promise<void> {
  await Promise.all(Object.keys(LOADERS).map(loadPath));
}

/** A game day's title from the index (no file loaded): how every link and caption names it. */
export const scenarioTitle = (id: string): string | undefined =>
  catalog.index.find((e) => e.id === id)?.title;

/** The scenario with this id, validated; undefined when no file has it, its file does not validate, or it is not loaded. */
export const findScenario = (id: string): Scenario | undefined => catalog.find(id);

/** Why the scenario file with this id cannot be used: it does not validate, or it could not be fetched. */
export function scenarioProblem(id: string): CatalogProblem | undefined {
  const problem = catalog.problemOf(id);
  if (problem) return problem;
  const path = catalog.pathOf(id);
  const why = path && UNREACHABLE.get(path);
  return why ? { file: fileName(path), errors: [`could not be fetched (${why})`] } : undefined;
}
