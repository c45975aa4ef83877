// The explorer runs in the page's Web Worker as well as in Node, and its results depend on the
// seed alone: its sources import no Node or UI module and use no unseeded randomness or date.
// eslint.config.js says the same; this test keeps the rule if the lint config changes.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const DIR = fileURLToPath(new URL('../../../src/explorer', import.meta.url));

const FORBIDDEN: { pattern: RegExp; why: string }[] = [
  { pattern: /from\s+['"](node:|fs['"]|path['"]|os['"]|child_process['"])/, why: 'a Node module' },
  { pattern: /from\s+['"](react|react-dom|zustand|d3)(\/[^'"]*)?['"]/, why: 'a UI library' },
  { pattern: /(?<![\w$.])Math\s*\.\s*random\b/, why: 'Math.random' },
  { pattern: /(?<![\w$.])Date\s*\.\s*now\b|\bnew\s+Date\b/, why: 'the date' },
  { pattern: /(?<![\w$.])(window|document)\s*\./, why: 'the DOM' },
];

/** Problems in a source, comments left out, as "line N: what". */
function scanExplorerSource(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' ')).replace(/\/\/.*$/gm, '');
  return code
    .split('\n')
    .flatMap((line, i) =>
      FORBIDDEN.filter((f) => f.pattern.test(line)).map((f) => `line ${i + 1}: ${f.why}`),
    );
}

describe('src/explorer runs anywhere and depends on the seed alone', () => {
  const files = readdirSync(DIR).filter((f) => f.endsWith('.ts'));

  it.each(files)('%s', (file) => {
    expect(scanExplorerSource(readFileSync(join(DIR, file), 'utf8'))).toEqual([]);
  });

  it.each([
    "import { readFileSync } from 'node:fs';",
    "import { join } from 'path';",
    "import { useState } from 'react';",
    'const r = Math.random();',
    'const t = Date.now();',
    'const d = new Date();',
    'window.postMessage(1);',
  ])('the scanner flags %s', (line) => {
    expect(scanExplorerSource(`// fine\n${line}\n`)).toHaveLength(1);
  });

  it('the scanner ignores comments', () => {
    expect(scanExplorerSource('// never Math.random or Date.now\n/* window.x */\nconst nowMs = 1;')).toEqual(
      [],
    );
  });
});
