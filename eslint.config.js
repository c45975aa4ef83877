import { builtinModules } from 'node:module';
import { dirname, relative, resolve } from 'node:path';
import tseslint from 'typescript-eslint';

// The engine is the lab's truth: it must stay pure so the same seed gives the same run
// everywhere (browser, CLI, tests). These rules keep UI libraries, the DOM, the wall clock
// and unseeded randomness out of src/engine (and out of src/leaderless, the leaderless model, held
// to the same rule).
const enginePurity = {
  files: ['src/engine/**/*.ts', 'src/leaderless/**/*.ts'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          { group: ['react', 'react-*', 'react/*'], message: 'src/engine must not import React.' },
          { group: ['zustand', 'zustand/*'], message: 'src/engine must not import zustand.' },
          { group: ['d3', 'd3-*'], message: 'src/engine must not import D3.' },
          { group: ['motion', 'motion/*', 'framer-motion'], message: 'src/engine must not import motion.' },
        ],
      },
    ],
    'no-restricted-globals': [
      'error',
      { name: 'window', message: 'No DOM in the engine.' },
      { name: 'document', message: 'No DOM in the engine.' },
      { name: 'setTimeout', message: 'Timers are simulated events.' },
      { name: 'setInterval', message: 'Timers are simulated events.' },
      { name: 'performance', message: 'No wall clock in the engine.' },
    ],
    'no-restricted-properties': [
      'error',
      { object: 'Math', property: 'random', message: 'Use the seeded rng.' },
      { object: 'Date', property: 'now', message: 'Use simulated time.' },
    ],
    'no-restricted-syntax': [
      'error',
      { selector: "NewExpression[callee.name='Date']", message: 'Use simulated time.' },
    ],
  },
};

// The failure explorer runs in the page's Web Worker and in Node, and must give the same result
// for the same seed: no Node or DOM modules, no unseeded randomness, no calendar clock. (It reads
// a wall clock, injected, only for its budget and its rate, never for a result.)
const explorerPurity = {
  files: ['src/explorer/**/*.ts'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: ['node:*', 'fs', 'path', 'os', 'child_process'],
            message: 'src/explorer also runs in a Web Worker.',
          },
          {
            group: ['react', 'react-*', 'zustand', 'zustand/*', 'd3', 'd3-*'],
            message: 'src/explorer has no UI.',
          },
        ],
      },
    ],
    'no-restricted-globals': [
      'error',
      { name: 'window', message: 'No DOM in the explorer.' },
      { name: 'document', message: 'No DOM in the explorer.' },
    ],
    'no-restricted-properties': [
      'error',
      { object: 'Math', property: 'random', message: "Use the engine's seeded rng." },
      { object: 'Date', property: 'now', message: 'Results must not depend on the date.' },
    ],
    'no-restricted-syntax': [
      'error',
      { selector: "NewExpression[callee.name='Date']", message: 'Results must not depend on the date.' },
    ],
  },
};

// The page (src/app) and the embed (src/embed) are two entries that share what sits below them
// (src/shared, src/store, scenes): neither imports the other, or the embed would carry the page's
// code (and the page the embed's).
const entrySeparation = [
  {
    files: ['src/app/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/embed/**', '**/embed'],
              message: 'src/app must not import src/embed: move the shared part to src/shared.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/embed/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/app/**', '**/app'],
              message: 'src/embed must not import src/app: move the shared part to src/shared.',
            },
          ],
        },
      ],
    },
  },
];

// src/real runs in two runtimes. src/real/model is the part the page imports (the events, the
// commands, the settings, the fold): it runs in the browser, so it imports no Node module, no
// Node-only package and no other part of src/real. The rest of src/real (cluster, candidate,
// bridge, measurement) is Node only, and the page (src/app, src/store, src/embed, src/shared,
// scenes) imports none of it. tests/unit/real/lintBoundary.test.ts checks both rules on snippets.
const REAL_DIR = resolve(import.meta.dirname, 'src/real');
const REAL_MODEL_DIR = resolve(REAL_DIR, 'model');
/** Packages that run only in Node: the build, test and measuring tools. */
const NODE_ONLY_PACKAGES =
  /^(vite|tsx|vitest|playwright|@playwright\/[^/]+|chrome-launcher|lighthouse|jsdom)(\/|$)/;

/** Does a relative import from `file` land in src/real outside src/real/model? */
function nodeOnlyRealPart(file, source) {
  if (!source.startsWith('.')) return null;
  const target = resolve(dirname(file), source);
  const inReal = !relative(REAL_DIR, target).startsWith('..');
  const inModel = !relative(REAL_MODEL_DIR, target).startsWith('..');
  return inReal && !inModel ? relative(import.meta.dirname, target) : null;
}

const realBoundaryRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Only src/real/model, of src/real, may be imported by browser code.' },
    messages: {
      nodeOnly:
        '{{target}} is Node only (src/real/{cluster,candidate,bridge,measurement}): browser code may import only src/real/model.',
    },
    schema: [],
  },
  create(context) {
    const check = (node) => {
      if (!node.source || typeof node.source.value !== 'string') return;
      const target = nodeOnlyRealPart(context.filename, node.source.value);
      if (target) context.report({ node: node.source, messageId: 'nodeOnly', data: { target } });
    };
    return {
      ImportDeclaration: check,
      ExportAllDeclaration: check,
      ExportNamedDeclaration: check,
      ImportExpression: check,
    };
  },
};

const realBoundary = [
  {
    plugins: { lab: { rules: { 'real-boundary': realBoundaryRule } } },
  },
  {
    files: ['src/real/model/**/*.ts'],
    rules: {
      'lab/real-boundary': 'error',
      'no-restricted-imports': [
        'error',
        {
          // By exact name: a pattern "events" would also match the model's own ./events.
          paths: builtinModules.map((name) => ({
            name,
            message: 'src/real/model runs in the browser (the page imports it): no Node module.',
          })),
          patterns: [
            {
              regex: '^node:',
              message: 'src/real/model runs in the browser (the page imports it): no Node module.',
            },
            {
              regex: NODE_ONLY_PACKAGES.source,
              message: 'src/real/model runs in the browser (the page imports it): no Node-only package.',
            },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        ...['process', 'Buffer', 'require', '__dirname', '__filename', 'global'].map((name) => ({
          name,
          message: 'src/real/model runs in the browser (the page imports it): no Node global.',
        })),
      ],
    },
  },
  {
    files: [
      'src/app/**/*.{ts,tsx}',
      'src/store/**/*.{ts,tsx}',
      'src/embed/**/*.{ts,tsx}',
      'src/shared/**/*.{ts,tsx}',
      'scenes/**/*.{ts,tsx}',
    ],
    rules: { 'lab/real-boundary': 'error' },
  },
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', '.reports/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  enginePurity,
  explorerPurity,
  ...entrySeparation,
  ...realBoundary,
);
