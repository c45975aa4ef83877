// What the page says of Raft (describe.ts): the nodes vote; followers wait out a randomized timeout.
import { expiryOf, formatSpan, held, SPLIT_WITH_QUORUM, type AlgorithmPage } from '../describe';
import { settingsFor as section } from '../kit';

export const raftPage: AlgorithmPage = {
  elect: { short: 'Quorum elects', how: '' },
  hold: (e) => {
    const { heartbeatMs, electionTimeoutMs: et } = section(e, 'raft');
    const text = `every ${formatSpan(heartbeatMs)}; followers wait ${formatSpan(et)}-${formatSpan(2 * et)}`;
    return held('Leader heartbeats', 'Heartbeats', text);
  },
  expiry: (e) => {
    const { heartbeatMs, electionTimeoutMs: et } = section(e, 'raft');
    // Each wait is drawn from [timeout, 2 x timeout).
    const keep = `sends heartbeats every ${formatSpan(heartbeatMs)}`;
    return expiryOf(et, 'election timeout', keep, 'election timeout', 2 * et);
  },
  // Heartbeat rounds slower than this and the followers campaign (with CheckQuorum, the leader steps down).
  renewLimit: (e) => {
    const { electionTimeoutMs } = section(e, 'raft');
    return { ms: electionTimeoutMs, label: `election timeout ${formatSpan(electionTimeoutMs)}` };
  },
  fenced: 'Raft never hears of it, so it leads on until it learns of a higher term or loses its quorum',
  missing: {},
  split: SPLIT_WITH_QUORUM,
};
