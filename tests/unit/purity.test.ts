// Boundary test: the engine is the lab's truth and must give the same run for the same seed
// everywhere, so src/engine imports no UI library and touches no DOM, wall clock, real timer or
// unseeded randomness. eslint.config.js enforces the same; this test keeps the rule even if the
// lint config changes, and checks its own scanner on bad lines.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ENGINE_DIR = fileURLToPath(new URL('../../src/engine', import.meta.url));

const FORBIDDEN_MODULE = /^(react|react-dom|zustand|d3|d3-[\w-]+|motion|framer-motion)(\/.*)?$/;

const FORBIDDEN_CODE: { pattern: RegExp; why: string }[] = [
  { pattern: /(?<![\w$.])Math\s*\.\s*random\b/, why: 'Math.random (use the seeded rng)' },
  { pattern: /(?<![\w$.])Date\s*\.\s*now\b/, why: 'Date.now (use simulated time)' },
  { pattern: /\bnew\s+Date\b/, why: 'new Date (use simulated time)' },
  { pattern: /(?<![\w$.])performance\s*\.\s*now\b/, why: 'performance.now (use simulated time)' },
  { pattern: /(?<![\w$.])setTimeout\b/, why: 'setTimeout (timers are simulated events)' },
  { pattern: /(?<![\w$.])setInterval\b/, why: 'setInterval (timers are simulated events)' },
  { pattern: /(?<![\w$.])window\s*\./, why: 'window (no DOM in the engine)' },
  { pattern: /(?<![\w$.])document\s*\./, why: 'document (no DOM in the engine)' },
];

/** Blank out comments (and, unless keepStrings, the contents of string literals), keeping line numbers. */
function codeOnly(source: string, keepStrings = false): string {
  let out = '';
  let i = 0;
  while (i < source.length) {
    const ch = source[i];
    const next = source[i + 1];
    if (ch === '/' && next === '/') {
      while (i < source.length && source[i] !== '\n') i++;
    } else if (ch === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2);
      const stop = end < 0 ? source.length : end + 2;
      out += source.slice(i, stop).replace(/[^\n]/g, ' ');
      i = stop;
    } else if (ch === '"' || ch === "'" || ch === '`') {
      out += ch;
      i++;
      while (i < source.length && source[i] !== ch) {
        const escaped = source[i] === '\\';
        const end = escaped ? i + 2 : i + 1;
        const text = source.slice(i, end);
        out += keepStrings ? text : text.replace(/[^\n]/g, ' ');
        i = end;
      }
      out += ch;
      i++;
    } else {
      out += ch;
      i++;
    }
  }
  return out;
}

/** Every module specifier imported, re-exported or required in the source. */
function importedModules(source: string): string[] {
  const found: string[] = [];
  const re = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)(['"])([^'"]+)\1/g;
  for (const m of source.matchAll(re)) found.push(m[2]);
  return found;
}

/** The purity problems in one file's source, as "line N: what". */
export function scanEngineSource(source: string): string[] {
  const problems: string[] = [];
  // Only real imports count: a comment may name a library.
  for (const spec of importedModules(codeOnly(source, true))) {
    if (FORBIDDEN_MODULE.test(spec)) problems.push(`imports "${spec}"`);
  }
  codeOnly(source)
    .split('\n')
    .forEach((line, i) => {
      for (const { pattern, why } of FORBIDDEN_CODE)
        if (pattern.test(line)) problems.push(`line ${i + 1}: ${why}`);
    });
  return problems;
}

function engineFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return engineFiles(path);
    return /\.(ts|tsx|js|mjs|cjs)$/.test(entry.name) ? [path] : [];
  });
}

describe('src/engine stays pure', () => {
  const files = engineFiles(ENGINE_DIR);

  it('has engine sources to scan', () => {
    expect(files.length).toBeGreaterThan(3);
  });

  it.each(files.map((f) => [relative(ENGINE_DIR, f), f]))(
    '%s imports no UI library and uses no wall clock, timer, DOM or Math.random',
    (_name, file) => {
      expect(scanEngineSource(readFileSync(file, 'utf8'))).toEqual([]);
    },
  );
});

// The leaderless model (src/leaderless) is a deterministic model of its own, under the same rule.
const LEADERLESS_DIR = fileURLToPath(new URL('../../src/leaderless', import.meta.url));

describe('src/leaderless stays pure', () => {
  const files = engineFiles(LEADERLESS_DIR);

  it.each(files.map((f) => [relative(LEADERLESS_DIR, f), f]))(
    '%s imports no UI library and uses no wall clock, timer, DOM or Math.random',
    (_name, file) => {
      expect(scanEngineSource(readFileSync(file, 'utf8'))).toEqual([]);
    },
  );
});

describe('the purity scanner', () => {
  it.each([
    ["import { useState } from 'react';", 'imports "react"'],
    ['import { createRoot } from "react-dom/client";', 'imports "react-dom/client"'],
    ["import { createStore } from 'zustand/vanilla';", 'imports "zustand/vanilla"'],
    ["import * as d3 from 'd3';", 'imports "d3"'],
    ["import { scaleLinear } from 'd3-scale';", 'imports "d3-scale"'],
    ["import { animate } from 'motion';", 'imports "motion"'],
    ["export { motion } from 'framer-motion';", 'imports "framer-motion"'],
    ["const r = await import('react');", 'imports "react"'],
    ["import 'd3-selection';", 'imports "d3-selection"'],
    ['const x = Math.random();', 'Math.random'],
    ['const t = Date.now();', 'Date.now'],
    ['const d = new Date();', 'new Date'],
    ['const p = performance.now();', 'performance.now'],
    ['setTimeout(tick, 10);', 'setTimeout'],
    ['const h = setInterval(tick, 10);', 'setInterval'],
    ['const w = window.innerWidth;', 'window'],
    ["document.title = 'x';", 'document'],
  ])('flags %s', (line, expected) => {
    const problems = scanEngineSource(`// fine so far\n${line}\n`);
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.join('; ')).toContain(expected);
  });

  it('ignores comments, strings and look-alike names', () => {
    const clean = [
      '// never call Math.random or Date.now here; no setTimeout either',
      '/* window.document is off limits */',
      "// the page, unlike the engine, does import { useState } from 'react'",
      "/* import * as d3 from 'd3' */",
      "const message = 'Timers are simulated: no setTimeout, no window.';",
      'const T = { window: 6 };',
      'cancelTimer(n, T.window);',
      'const nowMs = c.nowMs;',
      "import { nextInt } from './rng';",
      "import { z } from 'zod';",
    ].join('\n');
    expect(scanEngineSource(clean)).toEqual([]);
  });
});
