// What the page says of Bully and the Ring (describe.ts): no lease, no quorum; the others time out.
import { expiryOf, formatSpan, held, raftOnly, SPLIT_WITHOUT_QUORUM, type AlgorithmPage } from '../describe';
import { settingsFor as section } from '../kit';

const NO_QUORUM = 'no quorum: each side of a partition elects its own';

function coordinatorPage(key: 'bully' | 'ring', short: string): AlgorithmPage {
  return {
    elect: { short, how: NO_QUORUM },
    hold: () => held('No lease', 'No lease', 'The coordinator leads until it is deposed: nothing expires.'),
    expiry: (e) => {
      const { timeoutMs, heartbeatMs } = section(e, key);
      return expiryOf(timeoutMs, 'coordinator timeout', `sends heartbeats every ${formatSpan(heartbeatMs)}`);
    },
    renewLimit: () => null,
    fenced: 'it steps down and calls an election',
    missing: {
      quorum: `${key === 'bully' ? 'Bully' : 'The Ring'} has no quorum to switch off: the highest reachable id wins`,
      ...raftOnly(key === 'bully' ? 'Bully' : 'Ring'),
    },
    split: SPLIT_WITHOUT_QUORUM,
  };
}

export const bullyPage = coordinatorPage('bully', 'Highest id');
export const ringPage = coordinatorPage('ring', 'Ring elects');
