// The run's folder: etcd data, member logs and sockets. On tmpfs (/dev/shm) when there is one:
// etcd fsyncs its WAL on every commit, and on a disk that makes start-up and every write slower
// and more variable (the cluster is healthy in 0.4-1.2 s on tmpfs against 0.3-2.5 s on ext4).
import { constants, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canAccess } from './etcdBinary';

export function makeRunDir(): string {
  const base = canAccess('/dev/shm', constants.W_OK) ? '/dev/shm' : tmpdir();
  return mkdtempSync(join(base, 'lel-real-'));
}

export function removeRunDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
