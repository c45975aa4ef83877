// The registry of election algorithms: what every part of the lab reads is in info.ts; an
// algorithm's rules are a module a run loads first (loadAlgorithm), so a page pays only for those it
// runs, Raft included. Node (tests, the command line) loads every one at once (all.ts).
import type { AlgorithmInfo, ElectionAlgorithm } from '../algorithm';
import { ALGORITHM_INFO } from './info';

export const ALGORITHMS = ALGORITHM_INFO;

export type AlgorithmKind = keyof typeof ALGORITHMS;

/** Every kind, in the picker's order (the first is the default). */
export const ALGORITHM_KINDS = Object.keys(ALGORITHMS) as [AlgorithmKind, ...AlgorithmKind[]];

export const DEFAULT_ALGORITHM: AlgorithmKind = 'raft';

export function algorithmFor(kind: AlgorithmKind | undefined): AlgorithmInfo {
  return ALGORITHMS[kind ?? DEFAULT_ALGORITHM];
}

const LOADERS: Record<AlgorithmKind, () => Promise<ElectionAlgorithm>> = {
  raft: () => import('./raft').then((m) => m.raft),
  'k8s-lease': () => import('./k8sLease').then((m) => m.k8sLease),
  'etcd-election': () => import('./etcdElection').then((m) => m.etcdElection),
  zookeeper: () => import('./zookeeper').then((m) => m.zookeeper),
  'redis-sentinel': () => import('./redisSentinel').then((m) => m.redisSentinel),
  pacemaker: () => import('./redisSentinel').then((m) => m.pacemaker),
  bully: () => import('./bully').then((m) => m.bully),
  ring: () => import('./ring').then((m) => m.ring),
};

const LOADED = new Map<string, ElectionAlgorithm>();

/** Make an algorithm's rules available to runs (all.ts registers every one at once). */
export function registerAlgorithm(alg: ElectionAlgorithm): void {
  LOADED.set(alg.kind, alg);
}

export function algorithmLoaded(kind: AlgorithmKind | undefined): boolean {
  return LOADED.has(kind ?? DEFAULT_ALGORITHM);
}

/** Load an algorithm's rules, once; a failed fetch rejects (and may be tried again). */
export async function loadAlgorithm(kind: AlgorithmKind | undefined): Promise<void> {
  const k = kind ?? DEFAULT_ALGORITHM;
  if (!LOADED.has(k)) registerAlgorithm(await LOADERS[k]());
}

/** The rules a simulation runs: a run before its algorithm has loaded is the page's defect, said so. */
export function rulesFor(kind: AlgorithmKind | undefined): ElectionAlgorithm {
  const k = kind ?? DEFAULT_ALGORITHM;
  const alg = LOADED.get(k);
  if (!alg) throw new Error(`the ${ALGORITHMS[k].title} algorithm is not loaded yet (loadAlgorithm first)`);
  return alg;
}
