// Where the browser tests and the in-browser benchmarks find Chromium, in the order
// scripts/ensure-browser.mjs looks (and installs) in: $CHROMIUM_PATH, Playwright's own Chromium,
// then the distribution's.
import { accessSync, constants } from 'node:fs';
import { chromium } from '@playwright/test';

export function chromiumPath(): string | undefined {
  const candidates = [
    process.env.CHROMIUM_PATH,
    chromium.executablePath(),
    '/usr/bin/chromium',
    '/usr/lib/chromium/chromium',
  ];
  for (const path of candidates) {
    if (!path) continue;
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // not here; try the next one
    }
  }
  return undefined;
}

/**
 * Containers and CI machines: no sandbox, no GPU, a small /dev/shm, and nothing that phones home
 * or updates itself in the middle of a run. The browser tests and the benchmarks both launch with these.
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
