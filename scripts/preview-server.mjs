// Build the site into a temporary folder and serve it with `vite preview` on a free port, for
// scripts that measure or photograph the built site. A folder of its own, so a browser test run
// serving dist/ at the same time is never rebuilt under its feet.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js');

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitForHttp(url, timeoutMs) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) throw new Error(`the preview server did not answer at ${url}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Build, serve, and return the site's URL and a stop() that ends the server and removes the build. */
export async function buildAndServe() {
  const outDir = mkdtempSync(join(tmpdir(), 'leader-election-lab-site-'));
  const built = spawnSync(
    process.execPath,
    [vite, 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  if (built.status !== 0) {
    rmSync(outDir, { recursive: true, force: true });
    throw new Error('vite build failed');
  }
  const port = await freePort();
  // Started directly (not through npx) in its own process group, so stop() ends all of it.
  const server = spawn(
    process.execPath,
    [vite, 'preview', '--outDir', outDir, '--port', String(port), '--strictPort'],
    {
      cwd: root,
      detached: true,
      stdio: 'ignore',
    },
  );
  const stop = () => {
    try {
      process.kill(-server.pid, 'SIGTERM');
    } catch {
      // already gone
    }
    rmSync(outDir, { recursive: true, force: true });
  };
  const url = `http://localhost:${port}/`;
  try {
    await waitForHttp(url, 30_000);
  } catch (error) {
    stop();
    throw error;
  }
  return { url, stop };
}
