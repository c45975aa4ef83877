// Short epoch words under a node's id ("t3", "e3"): the whole would not fit on a phone; the key spells it.
import type { AlgorithmWords } from '../../src/engine';

const EPOCH_SHORT: Record<string, string> = {
  term: 't',
  epoch: 'e',
  revision: 'r',
  // Not "z": the ZooKeeper servers beside the ring are z1, z2, z3.
  czxid: 'zx',
  leaderTransitions: 'lt',
};

export function epochShort(words: AlgorithmWords): string {
  return EPOCH_SHORT[words.epoch] ?? words.epoch.slice(0, 1);
}
