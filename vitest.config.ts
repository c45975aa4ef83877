import { defineConfig } from 'vitest/config';

// Explicit include: without it Vitest would also load the Playwright specs under tests/e2e.
export default defineConfig({
  test: {
    include: [
      'tests/unit/**/*.test.{ts,tsx}',
      'tests/property/**/*.test.ts',
      'tests/scenes/**/*.test.{ts,tsx}',
    ],
    environment: 'node',
    setupFiles: ['tests/setup-codec.ts'],
    testTimeout: 60_000,
  },
});
