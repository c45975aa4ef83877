// What the page says of ZooKeeper's recipe (describe.ts): the lowest znode leads while pinged.
import { expiryOf, formatSpan, held, raftOnly, type AlgorithmPage } from '../describe';
import { settingsFor as section } from '../kit';

export const zookeeperPage: AlgorithmPage = {
  elect: { short: 'Lowest znode', how: 'ephemeral sequential znodes, the lowest sequence leads' },
  hold: (e) => {
    const { sessionTimeoutMs: t } = section(e, 'zookeeper');
    const text = `timeout ${formatSpan(t)}, pinged every ${formatSpan(Math.floor(t / 3))}`;
    return held('Leader holds a session', 'Session', text);
  },
  expiry: (e) => {
    const { sessionTimeoutMs: t } = section(e, 'zookeeper');
    return expiryOf(t, 'session timeout', `pings the ensemble every ${formatSpan(Math.floor(t / 3))}`);
  },
  // A disconnected leader keeps believing it leads until it hears its session expired.
  renewLimit: () => null,
  fenced: 'the recipe never hears of it, so it leads until it learns its session expired',
  missing: {
    quorum: 'candidates do not vote: the ensemble commits every znode by a majority of its servers, always',
    ...raftOnly('ZooKeeper'),
  },
  split:
    'candidates do not vote: only one that reaches a majority of the ensemble keeps its session or can lead; a cut-off leader learns its session expired only when it hears from the ensemble again',
};
