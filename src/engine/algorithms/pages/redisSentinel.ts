// What the page says of Redis Sentinel and of Pacemaker with STONITH, whose model shares Redis's.
import { expiryOf, formatSpan, held, raftOnly, type AlgorithmPage } from '../describe';
import { settingsFor as section } from '../kit';

export const redisSentinelPage: AlgorithmPage = {
  elect: {
    short: 'Sentinels promote',
    how: 'a quorum of sentinels agrees the primary is down, a majority of them picks who promotes; nothing fences the old one',
  },
  hold: (e) => {
    const text = `pinged every 1 s, down after ${formatSpan(section(e, 'sentinel').downAfterMs)} without a reply; no lease: a cut-off primary acts until it is told`;
    return held('Sentinels watch the primary', 'Sentinels watch', text);
  },
  expiry: (e) => {
    const keep = 'answers the sentinels every 1 s';
    return expiryOf(section(e, 'sentinel').downAfterMs, 'down-after', keep, 'down-after period');
  },
  // Only min-replicas-to-write makes a primary stop by itself.
  renewLimit: (e) => {
    const s = section(e, 'sentinel');
    return s.minReplicasToWrite > 0
      ? { ms: s.minReplicasMaxLagMs, label: `min-replicas-max-lag ${formatSpan(s.minReplicasMaxLagMs)}` }
      : null;
  },
  fenced: 'Sentinel never hears of it, so it serves on until the sentinels demote it',
  missing: {
    quorum:
      'the servers do not vote: sentinels agree by quorum and majority, and a primary acts without anyone',
    fencing:
      "Redis Sentinel has no fencing token: nothing checks the epoch, so an old primary's writes are accepted, then lost when it resyncs as a replica",
    ...raftOnly('Redis Sentinel'),
  },
  split:
    'a replica is promoted only where a majority of the sentinels agree, and a cut-off primary goes on taking writes it will lose when it rejoins',
};

export const pacemakerPage: AlgorithmPage = {
  elect: {
    short: 'STONITH',
    how: 'a replica is promoted only once the fence device confirms the old primary is off',
  },
  hold: (e) => {
    const text = `lost after ${formatSpan(section(e, 'stonith').tokenMs)} unheard; powered off before anyone is promoted`;
    return held('Membership watches the primary', 'Membership', text);
  },
  expiry: (e) => {
    const keep = 'answers the cluster every 1 s';
    return expiryOf(section(e, 'stonith').tokenMs, 'membership token', keep, 'token timeout');
  },
  // Only fencing stops the old primary.
  renewLimit: () => null,
  fenced: 'Pacemaker never hears of it: only the fence device stops it',
  missing: {
    quorum: 'the servers do not vote: membership agrees a node is lost, and STONITH keeps one primary',
    ...raftOnly('Pacemaker'),
  },
  split:
    'a replica is promoted only once the fence device confirms the old primary is off, so one primary at most remains',
};
