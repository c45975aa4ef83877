// The engine as the page runs it: bundled by Vite, the page's own build tool, into plain ES
// modules. Imported through tsx instead, every binding one module takes from another is read
// through a getter of tsx's module wrapper, a tenth of a run's time that no user ever pays.
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'vite';

export type EngineModule = typeof import('../../src/engine');

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Build the engine and every algorithm's rules into .reports/bench-engine, and load them. */
export async function bundledEngine(): Promise<EngineModule> {
  const outDir = join(root, '.reports', 'bench-engine');
  await build({
    configFile: false,
    root,
    publicDir: false,
    logLevel: 'warn',
    build: {
      outDir,
      emptyOutDir: true,
      minify: false,
      target: 'es2022',
      lib: {
        entry: { engine: join(root, 'src/engine/index.ts'), all: join(root, 'src/engine/algorithms/all.ts') },
        formats: ['es'],
      },
    },
  });
  const engine = (await import(pathToFileURL(join(outDir, 'engine.js')).href)) as EngineModule;
  await import(pathToFileURL(join(outDir, 'all.js')).href);
  return engine;
}
