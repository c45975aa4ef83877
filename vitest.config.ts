import { defineConfig } from 'vitest/config';
import { scenarioIndex } from './scripts/scenario-index.ts';

// Explicit include: without it Vitest would also load the Playwright specs under tests/e2e.
export default defineConfig({
  // The game days' index (src/scenario/catalog.ts reads it), as the page's build has it.
  plugins: [scenarioIndex(import.meta.dirname)],
  test: {
    include: [
      'tests/unit/**/*.test.{ts,tsx}',
      'tests/property/**/*.test.ts',
      'tests/scenes/**/*.test.{ts,tsx}',
    ],
    environment: 'node',
    setupFiles: ['tests/setup-codec.ts'],
    testTimeout: 60_000,
    // The files of a worker share one module graph: each would otherwise import the engine, every
    // algorithm and the setup's game days afresh, about half of the suite's CPU time. No test
    // changes what a module holds for another (they pass with their files in any order:
    // --sequence.shuffle.files).
    isolate: false,
  },
});
