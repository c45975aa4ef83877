// The run's folder: etcd data, member logs and sockets. On tmpfs (/dev/shm) when there is one:
// etcd fsyncs its WAL on every commit, and on a disk that makes start-up and every write slower
// and more variable (the cluster is healthy in 0.4-1.2 s on tmpfs against 0.3-2.5 s on ext4).
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function writable(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

export function makeRunDir(): string {
  const base = writable('/dev/shm') ? '/dev/shm' : tmpdir();
  return mkdtempSync(join(base, 'lel-real-'));
}

export function removeRunDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
