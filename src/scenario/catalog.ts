// Every scenario file under scenes/scenarios/ is picked up here: adding a scenario means adding
// a data file. Files that fail validation are listed with their errors instead of crashing.
//
// The page validates only what it uses, when it uses it: the picker lists every file's id,
// title and description as they are written (no schema needed to show a link), opening a
// scenario validates that one file, and the list of broken files fills in one file per idle
// moment (useCatalogProblems). Validating the whole catalog at once was one of the longest tasks
// of the page's start on a phone.
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
  description: string;
}

const fileName = (path: string) => path.split('/').pop() as string;

const field = (data: unknown, key: string): string => {
  const v = data !== null && typeof data === 'object' ? (data as Record<string, unknown>)[key] : undefined;
  return typeof v === 'string' ? v : '';
};

type Checked = { ok: true; scenario: Scenario } | { ok: false; problem: CatalogProblem };

/** A catalog of scenario files (path to parsed JSON). */
export function catalogOf(files: Record<string, unknown>) {
  // File names are plain ASCII: a code-point sort, not localeCompare, whose first call loads the
  // browser's collation data (tens of milliseconds on a phone, as the page starts).
  const sorted = Object.entries(files).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const checked = new Map<string, Checked>();

  /** Validate one file (once). */
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
  const checkId = (id: string): Checked | undefined => {
    const path = sorted.find(([, data]) => field(data, 'id') === id)?.[0];
    return path === undefined ? undefined : check(path);
  };

  return {
    /** Every file with an id, in file order, as the picker lists them (not validated). */
    get index(): CatalogEntry[] {
      return sorted
        .map(([path, data]) => ({
          file: fileName(path),
          id: field(data, 'id'),
          title: field(data, 'title'),
          description: field(data, 'description'),
        }))
        .filter((e) => e.id !== '');
    },
    /** Every file that validates, in file order. */
    get scenarios(): Scenario[] {
      return sorted.flatMap(([path]) => {
        const c = check(path);
        return c.ok ? [c.scenario] : [];
      });
    },
    /** Every file that does not validate, with its errors. */
    get problems(): CatalogProblem[] {
      return sorted.flatMap(([path]) => {
        const c = check(path);
        return c.ok ? [] : [c.problem];
      });
    },
    /** Validate the next file not yet validated; false once every file is. For idle-time work. */
    checkNext(): boolean {
      const next = sorted.find(([path]) => !checked.has(path));
      if (!next) return false;
      check(next[0]);
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

export const catalog = catalogOf(
  import.meta.glob('../../scenes/scenarios/*.json', { eager: true, import: 'default' }),
);

/** The scenario with this id, validated; undefined when no file has it or its file does not validate. */
export const findScenario = (id: string): Scenario | undefined => catalog.find(id);

/** Why the scenario file with this id does not validate; undefined when it does, or no file has the id. */
export const scenarioProblem = (id: string): CatalogProblem | undefined => catalog.problemOf(id);
