// What the page says of each algorithm, declared once per kind beside its info (info.ts): the
// chain's first two steps in its words, what the others wait out before replacing a silent
// leader, and the line the renewal-latency chart draws where the leader stops by itself. Keyed by
// AlgorithmKind, so a kind described in info.ts and missing here does not compile, and nothing on
// the page falls back to another algorithm's words. Plain functions of the experiment: the page
// loads this with its first screen, before any algorithm's rules.
import type { AlgorithmKind } from './index';
import type { Experiment } from '../experiment';
import { settingsFor as section } from './kit';

/** The chain's first step: how one leader is chosen, in the algorithm's words. */
export interface ElectStep {
  title: string;
  short: string;
  /** What elects, in one line (Raft's is drawn from its votes instead: empty). */
  how: string;
}

/** The chain's second step: what the leader holds and how it keeps it. */
export interface HoldStep {
  title: string;
  short: string;
  text: string;
  /** Whether the lease ring (a Kubernetes lease's dial) belongs under it. */
  ring: boolean;
  /** How a renewal round goes, where the dial's deadline needs it (client-go's). */
  round?: string;
}

/** A safety switch of the lab (Experiment['safety']). */
export type SafetySwitch = keyof Experiment['safety'];

/** What runs out when the leader goes quiet: the others replace it after that. */
export interface Expiry {
  /** What runs out, with its span: "15 s lease", "5 s election timeout". */
  what: string;
  /** How the leader keeps it: "renews its lease every 2 s". */
  keep: string;
  /** Its span (ms). */
  ms: number;
  /** Its name alone, in its system's words: "Lease", "election timeout", "session TTL". */
  name: string;
  /** The longest the others may wait (ms): Raft's randomized timeout reaches twice its setting; else ms. */
  maxMs: number;
}

/**
 * The line the renewal latency chart draws: the renewal latency, as the engine measures it (a
 * round's time, or how overdue the next renewal is), at which the leader stops acting by itself.
 */
export interface RenewLimit {
  ms: number;
  /** What the line is, in its system's words, with the setting's own value. */
  label: string;
}

export interface AlgorithmPage {
  elect: ElectStep;
  hold(e: Experiment): HoldStep;
  expiry(e: Experiment): Expiry;
  /** Null where the leader never stops by itself for want of renewals. */
  renewLimit(e: Experiment): RenewLimit | null;
  /**
   * What a partition does to it, for the picker: safe when, with the system's own mechanisms
   * (Redis has no token to check), storage never takes writes from an old leader once a new one's
   * have landed (tests/unit/partition-claims.test.ts splits every algorithm and checks this).
   */
  partition: { safe: boolean; why: string };
  /**
   * What a leader does when storage refuses its write, after "storage refuses n1's write, naming
   * token 1;" (the engine's onFenced): most elections never hear of it, and the leader acts on.
   */
  fenced: string;
  /**
   * Why each safety switch it does not offer is missing: the system has no such mechanism (Redis
   * Sentinel has no token, so no Fencing). A switch absent here is offered under it.
   */
  missing: Partial<Record<SafetySwitch, string>>;
  /** What a network split does while one leader leads: the hint under the stage says it. */
  split: string;
}

/** A span as the page writes it: "15 s", "0.3 s". */
export function formatSpan(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

/** An expiry of `ms`: "<span> <what>", kept as `keep`, waited out at most `maxMs` (Raft's is longer). */
function expiryOf(ms: number, what: string, keep: string, name = what, maxMs = ms): Expiry {
  return { ms, what: `${formatSpan(ms)} ${what}`, keep, name, maxMs };
}

/** A hold step without the lease dial. */
function held(title: string, short: string, text: string): HoldStep {
  return { title, short, text, ring: false };
}

const NO_QUORUM = 'no quorum: each side of a partition elects its own';
const EACH_SIDE = { safe: false, why: 'each side elects its own, and storage takes both' };

/** Raft's own switches, missing under every other algorithm. */
function raftOnly(title: string): Partial<Record<SafetySwitch, string>> {
  return {
    preVote: `Raft's own: ${title} has no terms for a returning node to raise`,
    checkQuorum: `Raft's own: a ${title} leader has no followers' majority to check`,
  };
}

/** What a split does with a quorum switched on, and with none (Raft's switch off, Bully, the Ring). */
export const SPLIT_WITH_QUORUM = 'only a side with a majority can elect';
export const SPLIT_WITHOUT_QUORUM = 'with no quorum, each side can elect its own';

/** Bully and the Ring: a coordinator heartbeats; nothing expires; the others time it out. */
function coordinator(key: 'bully' | 'ring', elect: ElectStep): AlgorithmPage {
  return {
    elect,
    hold: () => held('No lease', 'No lease', 'The coordinator leads until it is deposed: nothing expires.'),
    expiry: (e) => {
      const s = section(e, key);
      return expiryOf(
        s.timeoutMs,
        'coordinator timeout',
        `sends heartbeats every ${formatSpan(s.heartbeatMs)}`,
      );
    },
    renewLimit: () => null,
    partition: EACH_SIDE,
    fenced: 'it steps down and calls an election',
    missing: {
      quorum: `${key === 'bully' ? 'Bully' : 'The Ring'} has no quorum to switch off: the highest reachable id wins`,
      ...raftOnly(key === 'bully' ? 'Bully' : 'Ring'),
    },
    split: SPLIT_WITHOUT_QUORUM,
  };
}

/**
 * client-go's renewal round (leaderelection.go `renew`), in the words the lease dial needs: why its
 * deadline sits a RetryPeriod (and a try's latency) past RenewDeadline from the last renewal.
 */
function leaseRound(e: Experiment): string {
  const { renewDeadlineMs: d, retryPeriodMs: r } = section(e, 'lease');
  const tryMs = Math.max(1000, Math.floor(d / 2));
  return (
    `client-go renews in rounds: a round starts ${formatSpan(r)} (RetryPeriod) after the last success and tries every ${formatSpan(r)}; ` +
    `a try times out at ${formatSpan(tryMs)} (RenewDeadline / 2), and the round fails ${formatSpan(d)} (RenewDeadline) after it began, ` +
    `so a silent holder stops about ${formatSpan(r + d)} after its last renewal`
  );
}

export const ALGORITHM_PAGES: Record<AlgorithmKind, AlgorithmPage> = {
  raft: {
    elect: { title: 'Quorum elects one leader', short: 'Quorum elects', how: '' },
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
    partition: { safe: true, why: 'only a side with a majority of the nodes elects' },
    fenced: 'Raft never hears of it, so it leads on until it learns of a higher term or loses its quorum',
    missing: {},
    split: SPLIT_WITH_QUORUM,
  },
  'k8s-lease': {
    elect: {
      // The replicas do not vote: etcd's members do, on each write the API server makes.
      title: "etcd's quorum commits one Lease",
      short: "etcd's quorum commits",
      how: 'the API server writes one Lease object to etcd by compare-and-swap',
    },
    hold: (e) => {
      const { durationMs, retryPeriodMs } = section(e, 'lease');
      return {
        title: 'Leader holds a lease',
        short: 'Lease',
        text: `TTL ${formatSpan(durationMs)}, renew every ${formatSpan(retryPeriodMs)}`,
        ring: true,
        round: leaseRound(e),
      };
    },
    expiry: (e) => {
      const { durationMs, retryPeriodMs } = section(e, 'lease');
      return expiryOf(durationMs, 'lease', `renews its lease every ${formatSpan(retryPeriodMs)}`, 'Lease');
    },
    // client-go's RenewDeadline bounds one renewal round, which is what the latency measures.
    renewLimit: (e) => {
      const { renewDeadlineMs } = section(e, 'lease');
      return { ms: renewDeadlineMs, label: `RenewDeadline ${formatSpan(renewDeadlineMs)}` };
    },
    partition: {
      safe: true,
      why: "a replica cut off from the API server stops acting at RenewDeadline, and etcd's majority lets one take the Lease",
    },
    fenced: "client-go's elector never hears of it, so it acts as leader until its renewal round runs out",
    missing: {
      quorum: 'replicas do not vote: the API server commits the Lease in etcd by a majority, always',
      ...raftOnly('Kubernetes Lease'),
    },
    split:
      'replicas do not vote: only a replica that reaches the API server, with a majority of etcd behind it, can renew or take the Lease',
  },
  'etcd-election': {
    elect: {
      title: 'The lowest key revision leads',
      short: 'Lowest revision',
      how: 'keys under election/, the lowest create revision leads',
    },
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
      const [limit, name] =
        renewDeadlineMs > 0 ? [renewDeadlineMs, 'renew deadline'] : [ttlMs, 'session TTL'];
      return {
        ms: limit - every,
        label: `${name} ${formatSpan(limit)}: a keep-alive ${formatSpan(limit - every)} overdue`,
      };
    },
    partition: { safe: true, why: "a session cut off from etcd's majority expires before another key leads" },
    fenced: 'the election never hears of it, so it leads while its session lasts',
    missing: {
      quorum:
        'candidates do not vote: etcd commits every key and keep-alive by a majority of its members, always',
      ...raftOnly('etcd election'),
    },
    split:
      'candidates do not vote: only one that reaches a majority of the etcd members can keep its session or take the key',
  },
  zookeeper: {
    elect: {
      title: 'The lowest znode leads',
      short: 'Lowest znode',
      how: 'ephemeral sequential znodes, the lowest sequence leads',
    },
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
    partition: {
      safe: true,
      why: "a session cut off from the ensemble's majority expires before another znode leads",
    },
    fenced: 'the recipe never hears of it, so it leads until it learns its session expired',
    missing: {
      quorum: 'candidates do not vote: the ensemble commits every znode by a majority of its servers, always',
      ...raftOnly('ZooKeeper'),
    },
    split:
      'candidates do not vote: only one that reaches a majority of the ensemble keeps its session or can lead; a cut-off leader learns its session expired only when it hears from the ensemble again',
  },
  'redis-sentinel': {
    elect: {
      title: 'Sentinels promote one primary',
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
    partition: { safe: false, why: 'a cut-off primary keeps taking writes, and loses them when it rejoins' },
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
  },
  pacemaker: {
    elect: {
      title: 'Fenced first, then promoted',
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
    partition: { safe: true, why: 'a replica is promoted only once the old primary is confirmed off' },
    fenced: 'Pacemaker never hears of it: only the fence device stops it',
    missing: {
      quorum: 'the servers do not vote: membership agrees a node is lost, and STONITH keeps one primary',
      ...raftOnly('Pacemaker'),
    },
    split:
      'a replica is promoted only once the fence device confirms the old primary is off, so one primary at most remains',
  },
  bully: coordinator('bully', { title: 'The highest id takes over', short: 'Highest id', how: NO_QUORUM }),
  ring: coordinator('ring', {
    title: 'The ring elects the highest id',
    short: 'Ring elects',
    how: NO_QUORUM,
  }),
};

/** A span of a pause button: whole seconds from 3 s up, tenths below (a third of a 1 s timeout is 0.3 s). */
function pauseSpanMs(ms: number): number {
  return ms >= 3000 ? Math.round(ms / 1000) * 1000 : Math.max(100, Math.round(ms / 100) * 100);
}

/** The pause lengths the page offers, measured against what the others wait out (expiry). */
export interface PauseLengths {
  /** A third of the shortest wait: a leader paused this long is not replaced (the card's renew-at-a-third rule). */
  shortMs: number;
  /** Twice the longest wait: a leader paused this long is replaced, and wakes a zombie. */
  longMs: number;
  /** What they are measured against, by its own name: "the Lease (15 s)", "the election timeout (5-10 s)". */
  against: string;
}

export function pauseLengths(e: Experiment): PauseLengths {
  const x = pageOf(e).expiry(e);
  const span =
    x.maxMs === x.ms ? formatSpan(x.ms) : `${formatSpan(x.ms).replace(/ s$/, '')}-${formatSpan(x.maxMs)}`;
  return {
    shortMs: pauseSpanMs(x.ms / 3),
    longMs: pauseSpanMs(2 * x.maxMs),
    against: `the ${x.name} (${span})`,
  };
}

/** The picker's line for an algorithm: what elects, and whether a partition is safe. */
export function pickerLine(kind: AlgorithmKind): { what: string; partition: string; safe: boolean } {
  const page = ALGORITHM_PAGES[kind];
  const { safe, why } = page.partition;
  return {
    what: page.elect.title,
    partition: `${safe ? 'Safe' : 'Not safe'} under a partition: ${why}`,
    safe,
  };
}

/** What the page says of the experiment's algorithm. */
export function pageOf(e: Pick<Experiment, 'algorithm'>): AlgorithmPage {
  return ALGORITHM_PAGES[(e.algorithm ?? 'raft') as AlgorithmKind];
}

/** A description's clause as a sentence of its own: capitalised, with its full stop. */
export function sentenceOf(clause: string): string {
  return `${clause.charAt(0).toUpperCase()}${clause.slice(1)}.`;
}

/** Why the experiment's algorithm does not offer this switch, or null: it does. */
export function missingSwitch(e: Pick<Experiment, 'algorithm'>, key: SafetySwitch): string | null {
  return pageOf(e).missing[key] ?? null;
}

/** The experiment's renewal limit under its algorithm, or null (the chart's renewal panel). */
export function renewLimitOf(e: Experiment): RenewLimit | null {
  return pageOf(e).renewLimit(e);
}
