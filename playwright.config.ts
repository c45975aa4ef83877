import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumPath } from './tests/chromium';

// Override when 4173 is taken (e.g. another checkout's preview server is running).
const port = Number(process.env.E2E_PORT ?? 4173);
// Override to run two suites from one checkout at once (with different ports): the build, the
// results and the JSON report then go under this directory instead of dist/, test-results/ and
// .reports/.
const dir = process.env.E2E_DIR;
const distDir = dir ? `${dir}/dist` : 'dist';
// A production build made already, served as it is instead of building one: `npm test` builds
// once for this step and the benchmarks after it.
const built = process.env.E2E_BUILT;

// Both projects' browser: Desktop Chrome on the Chromium found here, with the arguments a
// container needs (tests/chromium.ts).
const BROWSER = {
  ...devices['Desktop Chrome'],
  launchOptions: { executablePath: chromiumPath(), args: CHROMIUM_ARGS },
};

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: dir ? `${dir}/test-results` : 'test-results',
  workers: 2,
  // A two-core CI machine runs the page and the simulation well below their nominal speed; the
  // specs wait on what the page shows, so generous limits only matter when something is wrong.
  timeout: 90_000,
  expect: { timeout: 10_000 },
  forbidOnly: !!process.env.CI,
  retries: 0,
  // `list` for people; the JSON report is what scripts/test-all.mjs counts.
  reporter: [['list'], ['json', { outputFile: dir ? `${dir}/playwright.json` : '.reports/playwright.json' }]],
  use: {
    baseURL: `http://localhost:${port}`,
    screenshot: 'only-on-failure',
    // A trace records every action's page and a screencast for every test, kept only where one
    // fails: a third of the suite's time (guided, consistency and stage-labels took 207-226 s with
    // it, 135-152 s without). CI keeps only its log, so it records none; a run here keeps a
    // failure's trace to open with `npx playwright show-trace`.
    trace: process.env.CI ? 'off' : 'retain-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      // The real-mode specs run a real etcd cluster and a dev server: they run alone, after the
      // rest (the project below), so that their load never slows a timing-sensitive spec beside them.
      testIgnore: /real-mode\.spec\.ts/,
      use: BROWSER,
    },
    {
      name: 'real-mode',
      testMatch: /real-mode\.spec\.ts/,
      dependencies: ['chromium'],
      use: BROWSER,
    },
  ],
  // Test the production build, as it will be served. Playwright starts and stops the server
  // (stopping `npx vite preview` by hand would leave its child holding the port). Never reuse a
  // server already on the port: it could be serving some other checkout's build.
  webServer: {
    command: built
      ? `npx vite preview --outDir ${built} --port ${port} --strictPort`
      : `npx vite build --outDir ${distDir} --emptyOutDir && npx vite preview --outDir ${distDir} --port ${port} --strictPort`,
    url: `http://localhost:${port}`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
