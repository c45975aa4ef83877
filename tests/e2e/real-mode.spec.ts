// The lab page in real mode, on a real etcd cluster: `npm run lab:real` at fast timings (raft
// 20/200 ms, session TTL 2 s) serves the page and its bridge; from the page, kill the leader and
// see the next one and the failover timeline; pause the holder past its TTL and see its zombie
// write rejected by the storage; kill the next leader with the simulator's K key; export the run's
// trace and import it back, to see it open as the recording it is. Skipped in one line where
// etcd is missing. Every process the lab started is found by PID while it runs, and checked gone
// after Ctrl-C.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { findEtcd } from '../../src/real/cluster/etcdBinary';
import { chartTextCut, pileUps } from './lab';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TTL_MS = 2000;

test.describe.configure({ mode: 'serial' });
test.skip(
  !findEtcd(),
  'real mode skipped: no etcd (apt-get install etcd-server etcd-client, or set ETCD_BIN)',
);

let lab: ChildProcess | null = null;
let link = '';
let pids: number[] = [];
const output: string[] = [];

/** Every process descended from pid, by /proc (the lab's etcd members, candidates and their children). */
function descendants(pid: number): number[] {
  const parent = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // The command name is in parentheses and may hold spaces: the fields after it are fixed.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      parent.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const found: number[] = [];
  const walk = (p: number) => {
    for (const [child, ppid] of parent) {
      if (ppid !== p) continue;
      found.push(child);
      walk(child);
    }
  };
  walk(pid);
  return found;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

test.beforeAll(async () => {
  test.setTimeout(60_000);
  lab = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'src/real/bridge/labReal.ts',
      '--fast',
      '--ttl-ms',
      String(TTL_MS),
      '--warm-up-ms',
      '500',
      '--write-every-ms',
      '300',
      '--no-open',
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  lab.stderr?.on('data', (d: Buffer) => output.push(d.toString()));
  link = await new Promise<string>((resolve, reject) => {
    let text = '';
    const timer = setTimeout(
      () => reject(new Error(`no link from lab:real in 45 s:\n${text}${output.join('')}`)),
      45_000,
    );
    lab?.stdout?.on('data', (d: Buffer) => {
      text += d.toString();
      output.push(d.toString());
      const m = /^# lab (\S+)$/m.exec(text);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    lab?.on('exit', (code) => reject(new Error(`lab:real exited (${code}):\n${text}${output.join('')}`)));
  });
  pids = [lab.pid as number, ...descendants(lab.pid as number)];
});

test.afterAll(async () => {
  if (!lab) return;
  const exited = new Promise<number | null>((resolve) => lab?.once('exit', (code) => resolve(code)));
  lab.kill('SIGINT');
  const code = await exited;
  // Ctrl-C ends the run cleanly, and nothing it started is left, by PID.
  expect(code, output.join('')).toBe(130);
  expect(pids.length).toBeGreaterThanOrEqual(7);
  // (The build tool's helper processes leave when their parent's pipe closes: a moment after it.)
  await expect.poll(() => pids.filter(alive), { timeout: 5_000 }).toEqual([]);
});

/** The host whose candidate leads, from the hosts line (its role and token). */
async function leaderHost(page: Page): Promise<{ id: string; token: number }> {
  let found = { id: '', token: 0 };
  await expect
    .poll(
      async () => {
        for (const id of ['n1', 'n2', 'n3']) {
          const text = (await page.getByTestId(`real-host-${id}`).textContent()) ?? '';
          const m = /c\d (leader), token (\d+)/.exec(text);
          if (m) found = { id, token: Number(m[2]) };
        }
        return found.id;
      },
      { timeout: 20_000 },
    )
    .not.toBe('');
  return found;
}

async function select(page: Page, id: string): Promise<void> {
  const button = page
    .getByRole('group', { name: 'Select a node' })
    .getByRole('button', { name: `Select ${id}` });
  if ((await button.getAttribute('aria-pressed')) !== 'true') await button.click();
}

test('kill the leader from the page: the next one leads, and the failover timeline measures it', async ({
  page,
}) => {
  await page.goto(link);
  await expect(page.getByTestId('real-banner')).toContainText('A real etcd cluster on this machine');
  await expect(page.getByTestId('real-status')).toContainText('live', { timeout: 20_000 });
  // What a real cluster cannot do is not offered.
  await expect(page.getByRole('slider', { name: 'Speed' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Step to the next event' })).toHaveCount(0);
  const old = await leaderHost(page);
  // The banner and the hosts leave the views a window's height (the stage was 90 px high under
  // them). The chart shares its column with the failover timeline's fixed rows, and is drawn whole
  // in what it has, no label over another.
  expect((await page.locator('.area-stage').boundingBox())!.height, '.area-stage').toBeGreaterThan(250);
  expect((await page.locator('.area-chart').boundingBox())!.height, '.area-chart').toBeGreaterThan(200);
  expect([
    ...(await chartTextCut(page)),
    ...(await pileUps(page, '.area-chart .metric-svg', 'chart')),
  ]).toEqual([]);
  await select(page, old.id);
  await expect(page.getByRole('button', { name: /Force .* to campaign/ })).toHaveCount(0);
  await expect(page.getByRole('combobox', { name: `Clock rate of ${old.id}` })).toHaveCount(0);
  await page.getByRole('button', { name: `Kill ${old.id}` }).click();
  await expect(page.getByTestId(`real-host-${old.id}`)).toContainText('dead', { timeout: 5_000 });
  const next = await leaderHost(page);
  expect(next.id).not.toBe(old.id);
  expect(next.token).toBeGreaterThan(old.token);
  // The failover timeline is on the first screen, beside the chart.
  const timeline = page.getByTestId('failover-timeline');
  // A real cluster may have had a failover of its own before the kill (a lease that ran out while
  // the run started on a busy machine): the kill's is the one that names it.
  await expect(
    timeline
      .locator('.failover-label')
      .filter({ hasText: `${old.id} killed → ${next.id} (revision ${next.token})` }),
  ).toHaveCount(1, { timeout: 10_000 });
  await expect(page.getByTestId('event-log').first()).toBeAttached();

  // The simulator's replay of the same kill, beside the real failover.
  await page.getByRole('tab', { name: 'Compare with the simulator' }).click();
  const compare = page.getByTestId('sim-compare');
  await compare.getByRole('button', { name: 'Replay these commands in the simulator' }).click();
  const row = compare.getByTestId('sim-compare-table').getByRole('row', { name: /failover 1/ });
  await expect(row.getByRole('cell').nth(0)).toHaveText(/^\d+(\.\d+)? s$/, { timeout: 10_000 });
  await expect(row.getByRole('cell').nth(1)).toHaveText(/^\d+(\.\d+)? s$/);
});

test('pause the holder past its TTL: its zombie write is rejected by the storage', async ({ page }) => {
  await page.goto(link);
  await expect(page.getByTestId('real-status')).toContainText('live', { timeout: 20_000 });
  const holder = await leaderHost(page);
  await select(page, holder.id);
  await page.getByRole('spinbutton', { name: `Pause length for ${holder.id} in seconds` }).fill('5');
  await page.getByRole('button', { name: `Pause ${holder.id} for 5 s`, exact: true }).click();
  // Stopped past its TTL, it still believes it leads while the next one takes over.
  await expect(page.getByTestId(`real-host-${holder.id}`)).toContainText('stopped, leader', {
    timeout: 5_000,
  });
  await expect.poll(async () => (await leaderHost(page)).id, { timeout: 10_000 }).not.toBe(holder.id);
  await page.getByRole('tab', { name: 'Events' }).click();
  await expect(page.getByTestId('event-log').first()).toContainText(
    new RegExp(`storage rejected ${holder.id}'s write with token ${holder.token}: .*zombie write fenced`),
    { timeout: 15_000 },
  );
  // Its candidate no longer leads (the host's etcd member may well be raft's leader: that is another layer).
  await expect(page.getByTestId(`real-host-${holder.id}`).locator('span').first()).not.toContainText(
    'leader',
    {
      timeout: 5_000,
    },
  );
});

/** The host killed with the K key (the next test finds it dead in the recording). */
let killedByKey = { id: '', token: 0, next: '' };

test("the simulator's keys: K kills the real leader, and the help lists only what a real run can do", async ({
  page,
}) => {
  await page.goto(link);
  await expect(page.getByTestId('real-status')).toContainText('live', { timeout: 20_000 });
  await page.keyboard.press('?');
  const help = page.getByTestId('help-overlay');
  await expect(help).toBeVisible();
  await expect(help).toContainText('Kill the leader');
  await expect(help).toContainText('Heal the network');
  // A real cluster cannot be stepped: the key is neither listed nor handled.
  await expect(help).not.toContainText('next event');
  await page.keyboard.press('Escape');
  await expect(help).toBeHidden();
  const old = await leaderHost(page);
  await page.keyboard.press('k');
  await expect(page.getByTestId(`real-host-${old.id}`)).toContainText('dead', { timeout: 5_000 });
  const next = await leaderHost(page);
  expect(next.id).not.toBe(old.id);
  expect(next.token).toBeGreaterThan(old.token);
  killedByKey = { id: old.id, token: old.token, next: next.id };
});

test("the run's trace, exported and imported back, opens as the recording of a real run", async ({
  page,
}) => {
  // Serial: the test before killed a host with K (run alone, this says so instead of skipping).
  expect(killedByKey.id, 'runs after the K test, which kills the host this one looks for').not.toBe('');
  await page.goto(link);
  await expect(page.getByTestId('real-status')).toContainText('live', { timeout: 20_000 });
  // The recording so far has arrived (the page asks for it from the run's start).
  await expect(page.getByTestId(`real-host-${killedByKey.id}`)).toContainText('dead');
  await page.getByRole('tab', { name: 'Export' }).click();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export the trace as JSON', exact: true }).click(),
  ]);
  const bytes = await readFile((await download.path()) as string);
  const file = JSON.parse(bytes.toString('utf8'));
  expect(file.real.settings).toMatchObject({ ttlMs: TTL_MS, electionMs: 200 });
  expect(file.real.events.some((e: { type: string }) => e.type === 'member')).toBe(true);
  // The run's own trace file (the bridge's GET /trace, what --trace writes) names the same
  // simulated twin as the page's export, with the same commands: both replay as one run.
  const q = new URL(link).searchParams;
  const own = await page.request.get(`${q.get('real')}/trace`, {
    headers: { authorization: `Bearer ${q.get('token')}`, origin: new URL(link).origin },
  });
  expect(own.ok()).toBe(true);
  const ownExperiment = (await own.json()).experiment;
  expect(ownExperiment.algorithm).toBe('etcd-election');
  expect(file.experiment.algorithm).toBe('etcd-election');
  expect({ ...ownExperiment, untilMs: 0 }).toEqual({ ...file.trace.experiment, untilMs: 0 });

  await page.getByLabel('Open a trace file (JSON)').setInputFiles({
    name: 'real-run.json',
    mimeType: 'application/json',
    buffer: bytes,
  });
  const banner = page.getByTestId('recording-banner');
  await expect(banner).toContainText('A recording of a real run from');
  await expect(banner).toContainText(String(new Date(file.real.startedAtEpochMs).getFullYear()));
  await expect(page.getByTestId('real-banner')).toHaveCount(0);
  // It opens at the moment it was saved: the host killed by the key is dead there, and the
  // failover it caused is in the timeline.
  await expect(page.getByTestId(`real-host-${killedByKey.id}`)).toContainText('dead');
  // The failover timeline is on the first screen, beside the chart.
  await expect(
    page
      .getByTestId('failover-timeline')
      .locator('.failover-label')
      .filter({ hasText: `${killedByKey.id} killed → ${killedByKey.next}` }),
  ).toHaveCount(1);
  // No fault can be applied to a recording: no buttons, and the K key does nothing.
  await select(page, killedByKey.next);
  await expect(page.getByRole('button', { name: `Kill ${killedByKey.next}` })).toHaveCount(0);
  await page.keyboard.press('?');
  await expect(page.getByTestId('help-overlay')).not.toContainText('Kill the leader');
  await page.keyboard.press('Escape');
  // Scrubbing back within it: just before the K key's kill, its host led with its token.
  const kill = (file.real.events as { type: string; atMs: number; fault?: { do: string }; target?: string }[])
    .filter((e) => e.type === 'fault' && e.fault?.do === 'kill' && e.target === killedByKey.id)
    .at(-1);
  expect(kill).toBeDefined();
  const before = Math.floor((kill!.atMs - 200) / 100) * 100;
  await page.getByTestId('timeline').fill(String(before));
  await expect(page.getByTestId('sim-time')).toHaveAttribute('data-now-ms', String(before));
  await expect(page.getByTestId(`real-host-${killedByKey.id}`)).toContainText(
    `c${killedByKey.id.slice(1)} leader, token ${killedByKey.token}`,
  );
});
