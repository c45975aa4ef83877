// The game days' picker lists every scenario by id, title and group, but the page loads a scenario's file
// (its steps, its setup, its description) only when that game day opens or the picker does. This
// plugin gives the page the list as a small module of its own, `virtual:scenario-index`, read from
// the files at
// build time (and again whenever one changes, in the dev server). A file that is not JSON, or has
// no string id, is listed with an empty id: the picker leaves it out and, once the page has
// validated that file, says why.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Plugin } from 'vite';

const ID = 'virtual:scenario-index';
const RESOLVED = `\0${ID}`;

export interface ScenarioIndexEntry {
  /** The file's name under scenes/scenarios. */
  file: string;
  id: string;
  title: string;
  /** Its picker group's id, as written (groups.ts; the schema checks it once the file loads). */
  group: string;
}

function text(data: unknown, key: string): string {
  const v = data !== null && typeof data === 'object' ? (data as Record<string, unknown>)[key] : undefined;
  return typeof v === 'string' ? v : '';
}

export function readScenarioIndex(dir: string): ScenarioIndexEntry[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((file) => {
      let data: unknown = null;
      try {
        data = JSON.parse(readFileSync(join(dir, file), 'utf8'));
      } catch {
        // Listed with an empty id; validating the file names the problem.
      }
      return {
        file,
        id: text(data, 'id'),
        title: text(data, 'title'),
        group: text(data, 'group'),
      };
    });
}

export function scenarioIndex(root: string): Plugin {
  const dir = resolve(root, 'scenes/scenarios');
  return {
    name: 'scenario-index',
    resolveId: (id) => (id === ID ? RESOLVED : undefined),
    load(id) {
      if (id !== RESOLVED) return undefined;
      for (const f of readdirSync(dir)) if (f.endsWith('.json')) this.addWatchFile(join(dir, f));
      return `export default ${JSON.stringify(readScenarioIndex(dir))};`;
    },
    handleHotUpdate({ file, server }) {
      if (!file.startsWith(dir)) return;
      const mod = server.moduleGraph.getModuleById(RESOLVED);
      if (mod) server.moduleGraph.invalidateModule(mod);
    },
  };
}
