// The run's folder: etcd data, member logs and sockets. On tmpfs (/dev/shm) when there is one:
// etcd fsyncs its WAL on every commit, which on a disk makes start-up and writes slower and more variable.
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
