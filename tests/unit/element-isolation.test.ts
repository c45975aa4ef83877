// The custom element's script (src/embed/element.ts, built as leader-election-scene.js) is loaded
// by docs as a classic script, so it must not begin with an `import`. The build gives it a shared
// chunk, and so an import, as soon as any other entry imports one of its modules: once, the scene
// registry read the element's table and all nine custom-element browser tests failed. This checks
// the import graph in seconds, before a build.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const ENTRY = join(ROOT, 'src/embed/element.ts');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** The project files a module imports (static and dynamic), resolved to paths. */
function localImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:from\s+|import\s*\(\s*|^import\s+)['"](\.[^'"]+)['"]/gm)].map(
    (m) => m[1],
  );
  return specs.flatMap((spec) => {
    const base = resolve(dirname(file), spec);
    const found = [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find(
      (p) => existsSync(p) && statSync(p).isFile(),
    );
    return found && /\.tsx?$/.test(found) ? [found] : [];
  });
}

describe("the custom element's script", () => {
  it('shares no module with the rest of the lab', () => {
    const own = new Set<string>([ENTRY]);
    for (const todo = [ENTRY]; todo.length > 0;) {
      for (const dep of localImports(todo.pop()!)) if (!own.has(dep)) todo.push((own.add(dep), dep));
    }
    expect(own.size, 'the element imports its attribute table').toBeGreaterThan(1);
    const shared = [...sources(join(ROOT, 'src')), ...sources(join(ROOT, 'scenes'))]
      .filter((file) => !own.has(file))
      .flatMap((file) =>
        localImports(file)
          .filter((dep) => own.has(dep))
          .map((dep) => `${relative(ROOT, file)} imports ${relative(ROOT, dep)}`),
      );
    expect(shared).toEqual([]);
  });
});
