import { defineConfig } from 'vitest/config';

// The real suite (`npm run test:real`): a real etcd cluster per file, so one file at a time and
// one test at a time; timings are real, so the timeouts leave room for a busy machine.
export default defineConfig({
  test: {
    include: ['tests/real/**/*.test.ts'],
    environment: 'node',
    fileParallelism: false,
    maxWorkers: 1,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
