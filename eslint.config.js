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
);
