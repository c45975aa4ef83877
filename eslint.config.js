import tseslint from 'typescript-eslint';

// The engine is the lab's truth: it must stay pure so the same seed gives the same run
// everywhere (browser, CLI, tests). These rules keep UI libraries, the DOM, the wall clock
// and unseeded randomness out of src/engine.
const enginePurity = {
  files: ['src/engine/**/*.ts'],
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

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', '.reports/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  enginePurity,
);
