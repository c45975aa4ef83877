// Every preset file under scenes/presets/, in file-name order (adding a system is adding a data file);
// those failing validation are listed with their errors.
import type { CatalogProblem } from '../scenario/catalog';
import { parsePreset, type Preset } from './schema';

export function presetCatalogOf(files: Record<string, unknown>) {
  const presets: Preset[] = [];
  const problems: CatalogProblem[] = [];
  const sorted = Object.entries(files).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [path, data] of sorted) {
    const r = parsePreset(data);
    if (r.ok) presets.push(r.preset);
    else
      problems.push({
        file: path.split('/').pop() as string,
        errors: r.errors.map((e) => `${e.field}: ${e.message}`),
      });
  }
  return { presets, problems };
}

const FILES = import.meta.glob('../../scenes/presets/*.json', { eager: true, import: 'default' });
let loaded: ReturnType<typeof presetCatalogOf> | undefined;
/** Validated on first use, not as the page loads: the Setup panel lists them when it opens. */
export const presetCatalog = {
  get presets(): Preset[] {
    return (loaded ??= presetCatalogOf(FILES)).presets;
  },
  get problems(): CatalogProblem[] {
    return (loaded ??= presetCatalogOf(FILES)).problems;
  },
};

export const findPreset = (id: string): Preset | undefined => presetCatalog.presets.find((p) => p.id === id);
