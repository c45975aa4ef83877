// Finding etcd: $ETCD_BIN, then PATH. Missing, the lab says how to install it instead of failing on a spawn.
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

export const INSTALL_HINT =
  'etcd was not found (set ETCD_BIN or put etcd on PATH); on Debian or Ubuntu: apt-get install etcd-server etcd-client';

/** Whether this process may use path that way (constants.X_OK, W_OK...). */
export function canAccess(path: string, mode: number): boolean {
  try {
    accessSync(path, mode);
    return true;
  } catch {
    return false;
  }
}

const executable = (path: string) => canAccess(path, constants.X_OK);

/** The etcd binary to run, or null when there is none. */
export function findEtcd(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.ETCD_BIN) return executable(env.ETCD_BIN) ? env.ETCD_BIN : null;
  return findOnPath('etcd', env);
}

export function findOnPath(name: string, env: NodeJS.ProcessEnv = process.env): string | null {
  for (const dir of (env.PATH ?? '').split(delimiter))
    if (dir && executable(join(dir, name))) return join(dir, name);
  return null;
}
