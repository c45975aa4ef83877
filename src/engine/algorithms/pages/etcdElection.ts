// What the page says of etcd's election API (describe.ts): the lowest key leads while kept alive.
import { expiryOf, formatSpan, held, raftOnly, type AlgorithmPage } from '../describe';
import { settingsFor as section } from '../kit';

export const etcdElectionPage: AlgorithmPage = {
  elect: { short: 'Lowest revision', how: 'keys under election/, the lowest create revision leads' },
  hold: (e) => {
    const { ttlMs } = section(e, 'etcd');
    const text = `lease TTL ${formatSpan(ttlMs)}, kept alive every ${formatSpan(Math.floor(ttlMs / 3))}`;
    return held('Leader holds a session', 'Session', text);
  },
  expiry: (e) => {
    const { ttlMs } = section(e, 'etcd');
    const keep = `keeps its session alive every ${formatSpan(Math.floor(ttlMs / 3))}`;
    return expiryOf(ttlMs, 'session lease', keep, 'session TTL');
  },
  // The deadline (or the session's TTL) runs from the last answered keep-alive; the latency
  // measures how overdue the next one is, so the line sits a keep-alive interval lower.
  renewLimit: (e) => {
    const { ttlMs, renewDeadlineMs } = section(e, 'etcd');
    const every = Math.max(1, Math.floor(ttlMs / 3));
    const [limit, name] = renewDeadlineMs > 0 ? [renewDeadlineMs, 'renew deadline'] : [ttlMs, 'session TTL'];
    return {
      ms: limit - every,
      label: `${name} ${formatSpan(limit)}: a keep-alive ${formatSpan(limit - every)} overdue`,
    };
  },
  fenced: 'the election never hears of it, so it leads while its session lasts',
  missing: {
    quorum:
      'candidates do not vote: etcd commits every key and keep-alive by a majority of its members, always',
    ...raftOnly('etcd election'),
  },
  split:
    'candidates do not vote: only one that reaches a majority of the etcd members can keep its session or take the key',
};
