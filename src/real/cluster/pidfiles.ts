// Pidfiles for every process the lab starts. A stopped (SIGSTOP) child outlives a parent that crashed or was
// killed, and etcd members never notice their parent is gone; so each run writes one file per child, and the
// next start ends the leftovers of runs whose owner is dead. Only a process a pidfile names is touched, and
// only if its command line still contains the run's marker (its run folder): a recycled PID is left alone.
import { mkdirSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface PidRecord {
  pid: number;
  /** The lab process that started it. */
  ownerPid: number;
  name: string;
  /** A string its command line contains (the run folder): proof that the PID is still ours. */
  marker: string;
  /** The run folder to remove with the leftovers. */
  runDir: string;
}

export function defaultPidDir(): string {
  const uid = typeof process.getuid === 'function' ? process.getuid() : 0;
  return join(tmpdir(), `leader-election-lab-real-${uid}`);
}

function fileOf(dir: string, r: Pick<PidRecord, 'ownerPid' | 'name'>): string {
  return join(dir, `${r.ownerPid}-${r.name}.json`);
}

export function writePidfile(dir: string, record: PidRecord): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(fileOf(dir, record), JSON.stringify(record));
}

export function removePidfile(dir: string, record: Pick<PidRecord, 'ownerPid' | 'name'>): void {
  rmSync(fileOf(dir, record), { force: true });
}

export function readPidfiles(dir: string): PidRecord[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
  const records: PidRecord[] = [];
  for (const name of names) {
    try {
      records.push(JSON.parse(readFileSync(join(dir, name), 'utf8')) as PidRecord);
    } catch {
      unlinkSync(join(dir, name)); // half-written by a crash: names nothing we could check
    }
  }
  return records;
}

/** Send a signal by PID; false when the process is gone (or was never ours to signal). */
export function trySignal(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false;
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Is this PID still the process the record names (alive, and its command line has the marker)? */
export function stillOurs(r: PidRecord): boolean {
  try {
    // A zombie's command line is empty (no marker in it); a process that is gone has none.
    return readFileSync(`/proc/${r.pid}/cmdline`, 'utf8').split('\0').join(' ').includes(r.marker);
  } catch {
    return false;
  }
}

/**
 * End the children of dead owners: SIGKILL (which also ends a stopped process) each one whose command line
 * still carries its marker, then remove its pidfile and run folder. A live owner's are left.
 */
export function cleanLeftovers(dir: string, selfPid = process.pid) {
  const cleaned = { killed: [] as PidRecord[], removedDirs: [] as string[] };
  const dirs = new Set<string>();
  const liveDirs = new Set<string>();
  for (const r of readPidfiles(dir)) {
    if (r.ownerPid !== selfPid && isAlive(r.ownerPid)) {
      liveDirs.add(r.runDir);
      continue;
    }
    if (stillOurs(r) && trySignal(r.pid, 'SIGKILL')) cleaned.killed.push(r);
    removePidfile(dir, r);
    if (r.runDir) dirs.add(r.runDir);
  }
  for (const d of dirs) {
    // Only folders the lab names (runDir.ts), none in use: a corrupt or recycled record deletes nothing else.
    if (!/[/\\]lel-real-[^/\\]+$/.test(d) || liveDirs.has(d)) continue;
    rmSync(d, { recursive: true, force: true });
    cleaned.removedDirs.push(d);
  }
  return cleaned;
}
