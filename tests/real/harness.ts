// The real suite's start and end: a run at the suite's fast timing, and the check at the end
// that no process it started is left (by PID, by pidfile, and in `pgrep -a etcd`).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { findEtcd } from '../../src/real/cluster/etcdBinary';
import { isAlive, readPidfiles } from '../../src/real/cluster/pidfiles';
import { RealRun } from '../../src/real/cluster/run';
import { TIMINGS, type RunSettings } from '../../src/real/model/settings';

export const hasEtcd = findEtcd() !== null;

/** etcd at 20/200 ms, a 2 s session TTL, short warm-up and work. */
export const FAST: Partial<RunSettings> = {
  ...TIMINGS.fast,
  ttlMs: 2000,
  warmUpMs: 200,
  writeEveryMs: 300,
};

export async function startRun(settings: Partial<RunSettings>): Promise<RealRun> {
  const run = new RealRun({ ...FAST, ...settings });
  await run.start();
  return run;
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** End the run and check that none of its processes is left. */
export async function stopAndCheck(run: RealRun): Promise<void> {
  const pids = run.runningPids();
  const folder = run.folder;
  await run.stop();
  expect(run.runningPids()).toEqual([]);
  expect(run.leftovers()).toEqual([]);
  for (const pid of pids) expect(isAlive(pid) && !isZombie(pid), `pid ${pid} is still running`).toBe(false);
  expect(readPidfiles(run.pidDir).filter((r) => r.ownerPid === process.pid)).toEqual([]);
  expect(etcdProcessesOf(folder)).toEqual([]);
}

/** An exited child not yet reaped still answers kill(pid, 0); it runs no more. */
function isZombie(pid: number): boolean {
  try {
    return /\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** `pgrep -a etcd` lines of this run's members (its folder is in their command line). */
function etcdProcessesOf(folder: string): string[] {
  try {
    const out = execFileSync('pgrep', ['-a', 'etcd'], { encoding: 'utf8' });
    return out
      .split('\n')
      .filter((l) => folder !== '' && l.includes(folder) && !isZombie(Number(l.split(' ')[0])));
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
}
