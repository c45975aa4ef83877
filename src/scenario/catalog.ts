// Every scenario file under scenes/scenarios/ is picked up here: adding a scenario means adding
// a data file. Files that fail validation are listed with their errors instead of crashing.
import { parseScenario } from './schema';
import type { Scenario } from './types';

const files = import.meta.glob('../../scenes/scenarios/*.json', { eager: true, import: 'default' });

export interface CatalogProblem {
  file: string;
  errors: string[];
}

function load(): { scenarios: Scenario[]; problems: CatalogProblem[] } {
  const scenarios: Scenario[] = [];
  const problems: CatalogProblem[] = [];
  // File names are plain ASCII: a code-point sort, not localeCompare, whose first call loads the
  // browser's collation data (tens of milliseconds on a phone, as the page starts).
  for (const [path, data] of Object.entries(files).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const r = parseScenario(data);
    if (r.ok) scenarios.push(r.scenario);
    else problems.push({ file: path.split('/').pop() as string, errors: r.errors.map((e) => `${e.field}: ${e.message}`) });
  }
  return { scenarios, problems };
}

let loaded: ReturnType<typeof load> | null = null;

/** Validated on first use, not when the module loads: the page's first paint does not wait for it. */
export const catalog = {
  get scenarios(): Scenario[] {
    loaded ??= load();
    return loaded.scenarios;
  },
  get problems(): CatalogProblem[] {
    loaded ??= load();
    return loaded.problems;
  },
};

export function findScenario(id: string): Scenario | undefined {
  return catalog.scenarios.find((s) => s.id === id);
}
