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
  for (const [path, data] of Object.entries(files).sort(([a], [b]) => a.localeCompare(b))) {
    const r = parseScenario(data);
    if (r.ok) scenarios.push(r.scenario);
    else problems.push({ file: path.split('/').pop() as string, errors: r.errors.map((e) => `${e.field}: ${e.message}`) });
  }
  return { scenarios, problems };
}

export const catalog = load();

export function findScenario(id: string): Scenario | undefined {
  return catalog.scenarios.find((s) => s.id === id);
}
