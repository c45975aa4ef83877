#!/usr/bin/env node
// `npm run test:long`: the long versions of the randomized tests, too slow for every `npm test`.
//   1. the property tests and the fuzzers (tests/property) over 2,000 random cases each
//      (PROPERTY_RUNS, FUZZ_RUNS; `npm test` runs 300);
//   2. the browser monkey test for 60 s (MONKEY_MS; `npm test` runs 20 s).
// A value already in the environment wins, e.g. PROPERTY_RUNS=5000 npm run test:long.
// Options: --property (only part 1), --monkey (only part 2). The environment is set here rather
// than on the npm script's command line so the same command works in every shell.
// Prints each part's time and result, then one line `N passed, N failed`; exit status 1 on a failure.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const reports = join(root, '.reports');
const env = {
  ...process.env,
  PATH: join(root, 'node_modules', '.bin') + delimiter + process.env.PATH,
  PROPERTY_RUNS: process.env.PROPERTY_RUNS ?? '2000',
  FUZZ_RUNS: process.env.FUZZ_RUNS ?? '2000',
  MONKEY_MS: process.env.MONKEY_MS ?? '60000',
};
const only = new Set(process.argv.slice(2).filter((a) => a === '--property' || a === '--monkey'));
const want = (part) => only.size === 0 || only.has(`--${part}`);

const totals = { passed: 0, failed: 0 };
const lines = [];

function run(command, args) {
  const r = spawnSync(command, args, { cwd: root, env, stdio: 'inherit' });
  if (r.error) console.error(`cannot run ${command}: ${r.error.message}`);
  return r.status ?? 1;
}

function readReport(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

function record(part, started, passed, failed) {
  totals.passed += passed;
  totals.failed += failed;
  const s = ((Date.now() - started) / 1000).toFixed(1);
  lines.push(`${part.padEnd(9)} passed ${passed}  failed ${failed}  (${s} s)`);
}

function property() {
  console.log(
    `\n=== property tests and fuzzers: PROPERTY_RUNS=${env.PROPERTY_RUNS} FUZZ_RUNS=${env.FUZZ_RUNS} ===\n`,
  );
  const started = Date.now();
  const file = join(reports, 'vitest-long.json');
  rmSync(file, { force: true });
  const status = run('vitest', [
    'run',
    'tests/property',
    '--reporter=default',
    '--reporter=json',
    `--outputFile=${file}`,
  ]);
  const r = readReport(file);
  if (!r) return record('property', started, 0, 1);
  const failed = r.numFailedTests + (status !== 0 && r.numFailedTests === 0 ? 1 : 0);
  record('property', started, r.numPassedTests, failed);
}

function monkey() {
  console.log(`\n=== monkey test in Chromium: MONKEY_MS=${env.MONKEY_MS} ===\n`);
  const started = Date.now();
  if (run('node', ['scripts/ensure-browser.mjs']) !== 0) return record('monkey', started, 0, 1);
  // Counted by exit status: the spec is one test, and its JSON report path depends on E2E_DIR.
  const status = run('playwright', ['test', 'tests/e2e/monkey.spec.ts']);
  record('monkey', started, status === 0 ? 1 : 0, status === 0 ? 0 : 1);
}

mkdirSync(reports, { recursive: true });
const started = Date.now();
if (want('property')) property();
if (want('monkey')) monkey();
console.log(`\n=== summary (${((Date.now() - started) / 1000).toFixed(1)} s) ===`);
for (const line of lines) console.log(line);
console.log(`${totals.passed} passed, ${totals.failed} failed`);
process.exitCode = totals.failed > 0 ? 1 : 0;
