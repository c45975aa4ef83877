// What the in-browser benchmarks share: a production build in its own directory, `vite preview`
// on a free port (always stopped, also on failure or Ctrl-C), headless Chromium launched as the
// browser specs launch it, and a CDP session for CPU throttling, heap and tracing.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumPath } from '../chromium';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Benchmarks build here, never into dist/, so a preview or a spec run using dist/ is untouched. */
export const benchDist = join(root, '.reports', 'bench-dist');
const bin = (name: string) => join(root, 'node_modules', '.bin', name);

export const arg = (name: string): string | undefined =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
export const flag = (name: string): boolean => process.argv.includes(`--${name}`);

/** Build once per process unless --no-build (then the last build in .reports/bench-dist is used). */
let built = false;
export function buildOnce(): void {
  if (built) return;
  if (flag('no-build')) {
    if (!existsSync(join(benchDist, 'index.html')))
      throw new Error('--no-build: no build in .reports/bench-dist yet');
  } else {
    const r = spawnSync(
      bin('vite'),
      ['build', '--manifest', '--outDir', benchDist, '--emptyOutDir', '--logLevel', 'warn'],
      {
        cwd: root,
        stdio: ['ignore', 'inherit', 'inherit'],
      },
    );
    if (r.status !== 0) throw new Error('vite build failed');
  }
  built = true;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

async function waitForHttp(url: string, server: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`vite preview exited with status ${server.exitCode}`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`vite preview did not answer at ${url} within ${timeoutMs / 1000} s`);
}

/** Stop the server and anything it started: it runs in its own process group. */
function stopServer(server: ChildProcess | null): void {
  if (!server || server.exitCode !== null || server.pid === undefined) return;
  try {
    process.kill(-server.pid, 'SIGTERM');
  } catch {
    // already gone
  }
}

export interface Session {
  browser: Browser;
  baseUrl: string;
}

/** Build, serve and launch; run `body`; always stop the browser and the server. */
export async function withBrowser<T>(body: (s: Session) => Promise<T>): Promise<T> {
  buildOnce();
  const executablePath = chromiumPath();
  if (!executablePath) throw new Error('no Chromium found: run `node scripts/ensure-browser.mjs`');
  const port = await freePort();
  const baseUrl = `http://localhost:${port}`;
  let server: ChildProcess | null = null;
  let browser: Browser | null = null;
  const stop = () => {
    stopServer(server);
    process.exit(130);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    // detached: its own process group, so stopping it also stops anything it spawned.
    server = spawn(bin('vite'), ['preview', '--outDir', benchDist, '--port', String(port), '--strictPort'], {
      cwd: root,
      detached: true,
      stdio: 'ignore',
    });
    await waitForHttp(baseUrl, server, 30_000);
    browser = await chromium.launch({
      executablePath,
      args: CHROMIUM_ARGS,
    });
    return await body({ browser, baseUrl });
  } finally {
    await browser?.close();
    stopServer(server);
    process.removeListener('SIGINT', stop);
    process.removeListener('SIGTERM', stop);
  }
}

export const quantile = (sorted: number[], q: number): number =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] : NaN;

export const fmt = (n: number, digits = 1): string => (Number.isFinite(n) ? n.toFixed(digits) : '-');

/** A plain aligned table: the first `left` columns (names) aligned left, the rest (figures) right. */
export function table(header: string[], rows: string[][], left = 1): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i < left ? cell.padEnd(widths[i]) : cell.padStart(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}
