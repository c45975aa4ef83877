// `npm run lab:real -- [options]`: the lab page on a real etcd cluster. Starts the run (run.ts), the bridge
// and the lab page (Vite, on 127.0.0.1), then opens it in real mode (/?real=<bridge>&token=<token>; the
// bridge takes only its Origin). Ctrl-C (or SIGTERM, SIGHUP) ends every process the run started, by PID, and
// checks none is left; a start after a crash first ends its leftovers. Without etcd it says how to get it.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Bridge } from './bridge';
import { parseCliArgs, USAGE } from '../cluster/cliArgs';
import { findEtcd, findOnPath, INSTALL_HINT } from '../cluster/etcdBinary';
import { formatEvent } from '../cluster/format';
import { exitWith, printStarted, terminalRun, usageExit } from '../cluster/terminal';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

const LAB_USAGE = `usage: npm run lab:real -- [options]
  --page-port N            the lab page's port on 127.0.0.1 (default: a free one)
  --no-open                print the page's link instead of opening a browser
  --quiet                  do not print the run's events
${USAGE.split('\n')
  .slice(1)
  .filter((l) => !/--(bridge|origin|json)\b/.test(l))
  .join('\n')}`;

interface LabOptions {
  pagePort: number;
  open: boolean;
  quiet: boolean;
  rest: string[];
}

function parseLabArgs(argv: string[]): LabOptions | string {
  const o: LabOptions = { pagePort: 0, open: true, quiet: false, rest: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--no-open') o.open = false;
    else if (a === '--quiet') o.quiet = true;
    else if (a === '--page-port') {
      const v = argv[++i];
      if (v === undefined || !/^\d+$/.test(v) || Number(v) < 1 || Number(v) > 65535)
        return '--page-port needs a port number';
      o.pagePort = Number(v);
    } else if (a === '--bridge' || a === '--origin' || a === '--json')
      return `${a} is set by lab:real itself`;
    else o.rest.push(a);
  }
  return o;
}

/** Vite serves the page on 127.0.0.1, a cache per checkout (outside it): two labs at once never share one. */
async function startPage(port: number) {
  const { createServer } = await import('vite');
  const checkout = createHash('sha256').update(ROOT).digest('hex').slice(0, 12);
  const cacheDir = join(tmpdir(), `leader-election-lab-vite-${checkout}`);
  const server = await createServer({
    configFile: join(ROOT, 'vite.config.ts'),
    root: ROOT,
    cacheDir,
    logLevel: 'warn',
    clearScreen: false,
    server: {
      host: '127.0.0.1',
      port,
      strictPort: port !== 0,
      open: false,
      hmr: false,
      watch: null,
      fs: { allow: [ROOT, realpathSync(join(ROOT, 'node_modules')), cacheDir] },
    },
  });
  await server.listen();
  const address = server.httpServer?.address();
  if (!address || typeof address === 'string') throw new Error('the page server has no port');
  return { server, origin: `http://127.0.0.1:${address.port}` };
}

/** Hand the link to the desktop's browser, if this machine has an opener; it runs on its own. */
function openInBrowser(url: string): boolean {
  const opener = findOnPath(process.platform === 'darwin' ? 'open' : 'xdg-open');
  if (!opener) return false;
  const child = spawn(opener, [url], { stdio: 'ignore', detached: true });
  child.on('error', () => undefined);
  child.unref();
  return true;
}

async function main(): Promise<number> {
  const lab = parseLabArgs(process.argv.slice(2));
  if (typeof lab === 'string') return usageExit(lab, LAB_USAGE);
  const o = parseCliArgs(lab.rest);
  if (typeof o === 'string' || o.help) return usageExit(o, LAB_USAGE);
  if (!findEtcd()) {
    process.stderr.write(`${INSTALL_HINT}\n`);
    return 1;
  }
  let page: Awaited<ReturnType<typeof startPage>> | null = null;
  let bridge: Bridge | null = null;
  const t = terminalRun(o.settings, {
    beforeStop: async () => {
      await bridge?.close();
      await page?.server.close();
    },
    afterStop: (_run, print) => print('# the run has ended: every process it started is gone'),
  });
  if (typeof t === 'number') return t;
  const { run, print, end } = t;
  if (!lab.quiet) run.onEvent((e) => print(formatEvent(e)));
  try {
    page = await startPage(lab.pagePort);
    printStarted(t, (await run.start()).leftovers);
    bridge = new Bridge(run, page.origin);
    await bridge.listen();
  } catch (err) {
    process.stderr.write(`cannot start the real lab: ${(err as Error).message}\n`);
    return end(1);
  }
  const link = `${page.origin}/?real=${encodeURIComponent(bridge.url)}&token=${bridge.token}`;
  print(`# lab ${link}`);
  if (lab.open && !openInBrowser(link)) print('# open that link in a browser on this machine');
  print('# Ctrl-C ends the run');
  return new Promise<number>(() => undefined);
}

exitWith(main);
