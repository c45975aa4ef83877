// The short form of an algorithm's epoch word, drawn under a node's id ("t3", "e3"): the whole
// word would not fit in the node on a phone. The stage's key spells it out.
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
