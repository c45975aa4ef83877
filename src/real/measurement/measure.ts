// `npm run real:measure -- [--runs N] [--only a,b]`: docs/real.md's figures from real runs here: start-up,
// app failover after kill -9 of the holder (TTL 2 s, 5 s), raft failover after kill -9 of its leader at
// 20/200 ms (pre-vote on, off), and stale writes rejected after a pause past the TTL. N trials (default 5).
import { RealRun } from '../cluster/run';
import { TIMINGS, type RunSettings } from '../model/settings';
import { distribution, type Distribution } from './fidelityReport';
import { appFailoverMs, appSettled, pausePastTtl, raftFailoverMs } from './waits';
import { exitWith } from '../cluster/terminal';

const SECTIONS = ['startup', 'app', 'raft', 'pause'] as const;
type Section = (typeof SECTIONS)[number];

function stats(xs: number[]): string {
  const d = distribution(xs) as Distribution;
  return `${d.min} / ${Math.round(d.median)} / ${d.max} ms (min / median / max of ${d.n}: ${xs.join(', ')})`;
}

const log = (line: string) => process.stderr.write(`# ${line}\n`);

async function withRun<T>(settings: Partial<RunSettings>, fn: (run: RealRun) => Promise<T>): Promise<T> {
  const run = new RealRun(settings);
  try {
    await run.start();
    return await fn(run);
  } finally {
    await run.stop();
  }
}

async function startup(runs: number): Promise<string[]> {
  const healthy: number[] = [];
  const firstLeader: number[] = [];
  for (let i = 0; i < runs; i++) {
    await withRun({ ...TIMINGS.default, ttlMs: 2000, warmUpMs: 0 }, async (run) => {
      healthy.push(run.healthyAtMs);
      await appSettled(run);
      firstLeader.push(run.trace().events.find((e) => e.type === 'elected')?.atMs ?? -1);
    });
    log(`start-up ${i + 1}/${runs}`);
  }
  return [
    `etcd members healthy (3, 100/1000 ms, data on tmpfs): ${stats(healthy)}`,
    `first application leader elected (candidates start after etcd is healthy): ${stats(firstLeader)}`,
  ];
}

/** `runs` failovers one after another on one run with these settings, each logged as it ends. */
function failovers(
  settings: Partial<RunSettings>,
  runs: number,
  label: string,
  failover: (run: RealRun) => Promise<number>,
): Promise<number[]> {
  return withRun(settings, async (run) => {
    const t: number[] = [];
    for (let i = 0; i < runs; i++) {
      t.push(await failover(run));
      log(`${label}: ${i + 1}/${runs}`);
    }
    return t;
  });
}

async function app(runs: number): Promise<string[]> {
  const lines: string[] = [];
  for (const ttlMs of [2000, 5000]) {
    const settings = { ...TIMINGS.default, ttlMs, warmUpMs: 200, writeEveryMs: 300 };
    const label = `application failover, TTL ${ttlMs / 1000} s`;
    const times = await failovers(settings, runs, label, appFailoverMs);
    const what = `application failover after kill -9 of the holder, TTL ${ttlMs / 1000} s (etcd 100/1000 ms)`;
    lines.push(`${what}: ${stats(times)}`);
  }
  return lines;
}

async function raft(runs: number): Promise<string[]> {
  const lines: string[] = [];
  for (const preVote of [true, false]) {
    const onOff = preVote ? 'on' : 'off';
    const settings = { ...TIMINGS.fast, preVote, ttlMs: 2000 };
    const times = await failovers(settings, runs, `raft failover, pre-vote ${onOff}`, raftFailoverMs);
    lines.push(
      `raft failover after kill -9 of the raft leader, 20/200 ms, pre-vote ${onOff}: ${stats(times)}`,
    );
  }
  return lines;
}

async function pause(runs: number): Promise<string[]> {
  const settings = { ...TIMINGS.fast, ttlMs: 2000, warmUpMs: 200, writeEveryMs: 300 };
  return withRun(settings, async (run) => {
    let rejected = 0;
    const after: number[] = [];
    for (let i = 0; i < runs; i++) {
      const r = await pausePastTtl(run);
      if (r.zombie.result === 'rejected' && r.zombie.token === r.token) rejected++;
      after.push(r.zombie.atMs - r.resumedAtMs);
      log(`pause past the TTL: ${i + 1}/${runs}`);
    }
    return [
      `holder stopped for 2 x TTL (TTL 2 s, 20/200 ms), then continued: its stale write rejected in ${rejected} of ${runs}`,
      `  that write reached the storage after SIGCONT in: ${stats(after)}`,
    ];
  });
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const runsAt = args.indexOf('--runs');
  const runs = runsAt >= 0 ? Number(args[runsAt + 1]) : 5;
  const onlyAt = args.indexOf('--only');
  const only = onlyAt >= 0 ? (args[onlyAt + 1] ?? '').split(',') : [...SECTIONS];
  if (!Number.isInteger(runs) || runs < 1 || only.some((s) => !SECTIONS.includes(s as Section))) {
    process.stderr.write(`usage: npm run real:measure -- [--runs N] [--only ${SECTIONS.join(',')}]\n`);
    return 2;
  }
  const jobs: Record<Section, (n: number) => Promise<string[]>> = { startup, app, raft, pause };
  for (const section of only as Section[]) {
    for (const line of await jobs[section](runs)) process.stdout.write(line + '\n');
  }
  return 0;
}

exitWith(main);
