#!/usr/bin/env node
// `npm test`: every check the project has, in one command, in this order:
//   typecheck (tsc), lint (eslint) and format (prettier --check) side by side, unit/property/scene tests (Vitest),
//   the real suite (`npm run test:real`: a real etcd cluster, about 45 s; skipped in one line
//   where etcd is not installed), a production build, browser tests (Playwright),
//   then the short benchmarks (`npm run bench:ci`, about a minute), last so that nothing else
//   runs beside them on the machine, and after Playwright's step has made sure of a browser.
// Each runner streams its own output. A failure does not stop the run, so the last line counts
// everything: `N passed, N failed` (and `, N skipped` when some were), computed from the runners'
// JSON reports; typecheck, lint, format and the short benchmarks count as one test each. The benchmarks
// fail only on a gross regression (a figure twice its budget), never on a busy machine's noise.
// Exit status 1 on any failure.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const reports = join(root, '.reports');
const env = { ...process.env, PATH: join(root, 'node_modules', '.bin') + delimiter + process.env.PATH };

const totals = { passed: 0, failed: 0, skipped: 0 };
const lines = [];
/** Failed tests by name, printed again under the summary so the run's last lines say what failed. */
const failures = [];

function run(command, args, extraEnv = {}) {
  const r = spawnSync(command, args, { cwd: root, env: { ...env, ...extraEnv }, stdio: 'inherit' });
  if (r.error) console.error(`cannot run ${command}: ${r.error.message}`);
  return r.status ?? 1;
}

/** When the current step began: each step's line says how long it took. */
let stepStart = Date.now();

function heading(title) {
  stepStart = Date.now();
  console.log(`\n=== ${title} ===\n`);
}

function record(step, counts) {
  totals.passed += counts.passed;
  totals.failed += counts.failed;
  totals.skipped += counts.skipped ?? 0;
  // Per-step lines are worded apart from the final line, so only the final line reads `N passed, N failed`.
  const skipped = counts.skipped ? `  skipped ${counts.skipped}` : '';
  const note = counts.note ? `  (${counts.note})` : '';
  const took = `  ${Math.round((Date.now() - stepStart) / 1000)} s`;
  lines.push(`${step.padEnd(11)} passed ${counts.passed}  failed ${counts.failed}${skipped}${note}${took}`);
}

function readReport(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/** A check with no report of its own counts as one test. */
function single(step, command, args) {
  heading(step);
  const status = run(command, args);
  record(step, status === 0 ? { passed: 1, failed: 0 } : { passed: 0, failed: 1 });
}

/**
 * Checks with no report of their own, run side by side (each alone takes one core at most); each
 * one's output is printed whole, under its own heading, once it has finished, in the order given.
 */
async function singles(checks) {
  const started = Date.now();
  const done = checks.map(
    ([step, command, args]) =>
      new Promise((resolveDone) => {
        let output = '';
        const child = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
        child.stdout.on('data', (d) => (output += d));
        child.stderr.on('data', (d) => (output += d));
        child.on('error', (e) =>
          resolveDone({ step, status: 1, output: `cannot run ${command}: ${e.message}` }),
        );
        child.on('close', (status) =>
          resolveDone({ step, status: status ?? 1, output, took: Date.now() - started }),
        );
      }),
  );
  for (const result of done) {
    const { step, status, output, took } = await result;
    heading(step);
    process.stdout.write(output);
    stepStart = Date.now() - (took ?? 0);
    record(step, status === 0 ? { passed: 1, failed: 0 } : { passed: 0, failed: 1 });
  }
}

function vitest() {
  heading('vitest');
  const file = join(reports, 'vitest.json');
  rmSync(file, { force: true });
  const status = run('vitest', ['run', '--reporter=default', '--reporter=json', `--outputFile=${file}`]);
  recordVitest('vitest', status, readReport(file));
}

function real() {
  heading('real');
  const file = join(reports, 'vitest-real.json');
  rmSync(file, { force: true });
  const status = run('node', ['scripts/test-real.mjs', '--report', file]);
  const r = readReport(file);
  // No etcd on this machine: the suite said so in one line; it counts as one skipped test.
  if (r?.skipped) return record('real', { passed: 0, failed: 0, skipped: 1, note: r.skipped });
  recordVitest('real', status, r);
}

/** Counts from a Vitest JSON report. */
function recordVitest(step, status, r) {
  if (!r) return record(step, { passed: 0, failed: 1, note: `no report, exit status ${status}` });
  // A test file that fails to load has no test results of its own: count it as one failure.
  const brokenFiles = (r.testResults ?? []).filter(
    (f) => f.status === 'failed' && !(f.assertionResults ?? []).some((a) => a.status === 'failed'),
  ).length;
  for (const f of r.testResults ?? []) {
    const file = f.name ? f.name.replace(root, '').replace(/^[\\/]/, '') : '?';
    const failed = (f.assertionResults ?? []).filter((a) => a.status === 'failed');
    for (const a of failed)
      failures.push(
        `${step}: ${file} > ${a.fullName ?? a.title} | ${firstLine(a.failureMessages?.[0])}${detail(a.failureMessages?.[0])}`,
      );
    if (f.status === 'failed' && failed.length === 0)
      failures.push(`${step}: ${file} | ${firstLine(f.message)}`);
  }
  const counts = {
    passed: r.numPassedTests,
    failed: r.numFailedTests + brokenFiles,
    skipped: r.numPendingTests + r.numTodoTests,
  };
  if (status !== 0 && counts.failed === 0) {
    counts.failed = 1;
    counts.note = `exit status ${status}`;
  }
  record(step, counts);
}

/**
 * One production build for the browser tests and the benchmarks, where and as the benchmarks make
 * theirs (tests/bench/browserKit.ts, with its manifest): each would otherwise build the same site
 * again. Returns its directory, or null when it failed (each step then builds its own, as alone).
 */
function build() {
  heading('build');
  const dir = join(reports, 'bench-dist');
  const status = run('vite', ['build', '--manifest', '--outDir', dir, '--emptyOutDir', '--logLevel', 'warn']);
  const took = `  ${Math.round((Date.now() - stepStart) / 1000)} s`;
  lines.push(`${'build'.padEnd(11)} ${status === 0 ? 'shared by playwright and bench:ci' : 'failed'}${took}`);
  return status === 0 ? dir : null;
}

function playwright(built) {
  heading('playwright');
  if (run('node', ['scripts/ensure-browser.mjs']) !== 0) {
    return record('playwright', { passed: 0, failed: 1, note: 'no browser' });
  }
  // The reporters (list + JSON to .reports/playwright.json, or under E2E_DIR) are set in playwright.config.ts.
  const file = process.env.E2E_DIR
    ? resolve(root, process.env.E2E_DIR, 'playwright.json')
    : join(reports, 'playwright.json');
  rmSync(file, { force: true });
  // The build is served as it is (playwright.config.ts); without one, Playwright builds its own.
  const status = run('playwright', ['test'], built ? { E2E_BUILT: built } : {});
  const r = readReport(file);
  if (!r?.stats)
    return record('playwright', { passed: 0, failed: 1, note: `no report, exit status ${status}` });
  for (const t of failedPlaywrightTests(r.suites ?? [], [])) failures.push(`playwright: ${t}`);
  for (const e of r.errors ?? []) failures.push(`playwright: ${firstLine(e.message)}`);
  const s = r.stats;
  const counts = { passed: s.expected + s.flaky, failed: s.unexpected, skipped: s.skipped };
  // Errors outside any test (the web server did not start, a spec did not compile).
  if (status !== 0 && counts.failed === 0) {
    counts.failed = Math.max(1, (r.errors ?? []).length);
    counts.note = `exit status ${status}`;
  }
  record('playwright', counts);
}

/** An error message's non-empty lines, without colour codes. */
const messageLines = (message) =>
  String(message ?? '')
    .replace(/\u001b\[[0-9;]*m/g, '')
    .split('\n')
    .filter((l) => l.trim() !== '');

/** The first line of an error message, without colour codes, at most 200 characters. */
function firstLine(message) {
  return (messageLines(message)[0] ?? '(no message)').trim().slice(0, 200);
}

/**
 * The rest of a failure's message, indented under its summary line: the end of CI's log is often
 * all that is kept, and a flaky failure must be readable there (what was expected, what came).
 */
const detail = (message) =>
  messageLines(message)
    .slice(1, 41)
    .map((l) => `\n      ${l.slice(0, 200)}`)
    .join('');

/** `file:line > title | first line of the error` for every test Playwright counted as unexpected. */
function failedPlaywrightTests(suites, titles) {
  const out = [];
  for (const suite of suites) {
    const path = suite.title && !suite.title.endsWith('.ts') ? [...titles, suite.title] : titles;
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        if (t.status !== 'unexpected') continue;
        const last = t.results?.[t.results.length - 1];
        const project = t.projectName ? ` [${t.projectName}]` : '';
        out.push(
          `${spec.file}:${spec.line}${project} > ${[...path, spec.title].join(' > ')} | ${firstLine(last?.error?.message)}${detail(last?.error?.message)}`,
        );
      }
    }
    out.push(...failedPlaywrightTests(suite.suites ?? [], path));
  }
  return out;
}

mkdirSync(reports, { recursive: true });
const started = Date.now();
await singles([
  ['typecheck', 'tsc', ['-p', '.', '--noEmit']],
  ['lint', 'eslint', ['.']],
  ['format', 'prettier', ['--check', '.']],
]);
vitest();
real();
const built = build();
if (existsSync(join(root, 'playwright.config.ts'))) playwright(built);
single('bench:ci', 'tsx', ['tests/bench/run.ts', '--ci', ...(built ? ['--no-build'] : [])]);

console.log(`\n=== summary (${((Date.now() - started) / 1000).toFixed(1)} s) ===`);
for (const line of lines) console.log(line);
if (failures.length > 0) {
  console.log(`\nfailed (${failures.length}):`);
  for (const f of failures) console.log(`  ${f}`);
  console.log('');
}
const skipped = totals.skipped ? `, ${totals.skipped} skipped` : '';
console.log(`${totals.passed} passed, ${totals.failed} failed${skipped}`);
process.exitCode = totals.failed > 0 ? 1 : 0;
