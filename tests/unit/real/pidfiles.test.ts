// Pidfiles end the leftovers of a run whose lab process died, and nothing else: only a PID a
// record names, only when its command line still carries the run's marker, only when the owner
// is gone. Real processes (sleep) stand in for the leftovers, a stopped one among them.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanLeftovers, isAlive, readPidfiles, writePidfile } from '../../../src/real/cluster/pidfiles';

const started: ChildProcess[] = [];
const dirs: string[] = [];

afterEach(() => {
  for (const p of started.splice(0)) p.kill('SIGKILL');
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
}

/** A long sleep whose command line carries marker (as a child of a run carries its run folder). */
function sleeper(marker: string): ChildProcess {
  const p = spawn('sh', ['-c', 'sleep 60', marker], { stdio: 'ignore' });
  started.push(p);
  return p;
}

const exited = (p: ChildProcess) =>
  new Promise((r) => (p.exitCode !== null || p.signalCode ? r(null) : p.once('exit', r)));

describe('pidfiles', () => {
  it("ends a dead owner's children (a stopped one too), removes its records and its run folder", async () => {
    const pidDir = tempDir('lel-pids-');
    const runDir = tempDir('lel-real-');
    mkdirSync(join(runDir, 'm1'));
    const deadOwner = 2 ** 22 + 12345; // beyond pid_max on most systems: not alive
    expect(isAlive(deadOwner)).toBe(false);
    const a = sleeper(runDir);
    const b = sleeper(runDir);
    process.kill(b.pid!, 'SIGSTOP');
    for (const [name, p] of [
      ['m1', a],
      ['c1', b],
    ] as const) {
      writePidfile(pidDir, { pid: p.pid!, ownerPid: deadOwner, name, marker: runDir, runDir });
    }
    const cleaned = cleanLeftovers(pidDir);
    expect(cleaned.killed.map((r) => r.name).sort()).toEqual(['c1', 'm1']);
    await Promise.all([exited(a), exited(b)]);
    expect(a.signalCode).toBe('SIGKILL');
    expect(b.signalCode).toBe('SIGKILL');
    expect(readPidfiles(pidDir)).toEqual([]);
    expect(existsSync(runDir)).toBe(false);
  });

  it("leaves a live owner's children alone, and a PID whose command line lacks the marker", async () => {
    const pidDir = tempDir('lel-pids-');
    const runDir = tempDir('lel-real-');
    const liveOwners = sleeper('owner');
    const child = sleeper(runDir);
    const stranger = sleeper('someone-else');
    writePidfile(pidDir, { pid: child.pid!, ownerPid: liveOwners.pid!, name: 'm1', marker: runDir, runDir });
    writePidfile(pidDir, { pid: stranger.pid!, ownerPid: 2 ** 22 + 1, name: 'm2', marker: runDir, runDir });
    const cleaned = cleanLeftovers(pidDir);
    expect(cleaned.killed).toEqual([]);
    expect(isAlive(child.pid!)).toBe(true);
    expect(isAlive(stranger.pid!)).toBe(true);
    // The stranger's record was stale (its owner is dead): gone. The live owner's stays, and so
    // does the run folder it uses.
    expect(readPidfiles(pidDir).map((r) => r.name)).toEqual(['m1']);
    expect(existsSync(runDir)).toBe(true);
  });
});
