#!/usr/bin/env node
// Makes sure a Chromium that Playwright can drive exists, so `npm test` works on a laptop with
// Playwright's own browser, on a Debian machine with the distribution's Chromium, and on a fresh
// CI machine where nothing is installed yet. Tries, in order:
//   1. $CHROMIUM_PATH
//   2. Playwright's own Chromium (from an earlier `npx playwright install chromium`)
//   3. a system Chromium: /usr/bin/chromium, /usr/lib/chromium/chromium
//   4. `npx playwright install chromium` (needs the browser download host to be reachable)
//   5. `apt-get update && apt-get install -y chromium` when running as root
// It writes nothing into the repository. Exit status 0 when a browser is ready, 1 otherwise.
// playwright.config.ts looks in the same places in the same order.
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { createRequire } from 'node:module';

const SYSTEM_CHROMIUM = ['/usr/bin/chromium', '/usr/lib/chromium/chromium'];
const require = createRequire(import.meta.url);

function log(message) {
  console.log(`[ensure-browser] ${message}`);
}

function isExecutable(path) {
  if (!path) return false;
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function playwrightChromium() {
  try {
    return require('@playwright/test').chromium.executablePath();
  } catch {
    return null;
  }
}

function findChromium() {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) {
    if (isExecutable(fromEnv)) return { path: fromEnv, how: 'CHROMIUM_PATH' };
    log(`CHROMIUM_PATH=${fromEnv} is not an executable file; looking elsewhere`);
  }
  const own = playwrightChromium();
  if (isExecutable(own)) return { path: own, how: "Playwright's own Chromium" };
  for (const path of SYSTEM_CHROMIUM) if (isExecutable(path)) return { path, how: 'system Chromium' };
  return null;
}

function run(command, args, timeoutMs) {
  log(`$ ${command} ${args.join(' ')}`);
  const r = spawnSync(command, args, {
    stdio: 'inherit',
    timeout: timeoutMs,
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return r.status === 0;
}

function report(found) {
  log(`using ${found.how}: ${found.path}`);
  process.exit(0);
}

let found = findChromium();
if (found) report(found);

log('no Chromium found; trying `npx playwright install chromium`');
run('npx', ['--no-install', 'playwright', 'install', 'chromium'], 10 * 60_000);
found = findChromium();
if (found) report(found);

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
if (isRoot && isExecutable('/usr/bin/apt-get')) {
  log('trying the distribution package (apt-get install chromium)');
  if (run('apt-get', ['update'], 10 * 60_000)) {
    run('apt-get', ['install', '-y', 'chromium'], 15 * 60_000);
    // Colour emoji are optional: without them screenshots show boxes, nothing fails.
    run('apt-get', ['install', '-y', '--no-install-recommends', 'fonts-noto-color-emoji'], 5 * 60_000);
  }
  found = findChromium();
  if (found) report(found);
}

console.error(`
[ensure-browser] No Chromium is available, so the browser tests cannot run.
Fix it with one of:
  - npx playwright install chromium        (downloads Playwright's own build)
  - sudo apt-get install chromium          (Debian/Ubuntu; other distributions have a similar package)
  - CHROMIUM_PATH=/path/to/chromium npm test   (use a Chromium or Chrome you already have)
`);
process.exit(1);
