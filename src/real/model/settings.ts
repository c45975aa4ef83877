// A real run's settings, defaults and checks. Timing presets are etcd's defaults (heartbeat 100 ms, election
// timeout 1000 ms) and a fast one (20/200) for tests; the candidates' lease settings follow the engine's rule
// for Kubernetes' timings where a renew deadline is set (TTL > deadline > 1.2 x keep-alive period).

export interface RunSettings {
  nodes: number;
  heartbeatMs: number;
  electionMs: number;
  preVote: boolean;
  /** The candidates' session TTL; etcd counts it in whole seconds. */
  ttlMs: number;
  /** Stop acting when no keep-alive was answered for this long; null: only the TTL. */
  renewDeadlineMs: number | null;
  warmUpMs: number;
  /** The work between a write's check and its send (the engine's leaderWriteEveryMs). */
  writeEveryMs: number;
  fencing: boolean;
  sampleEveryMs: number;
  /** Deadline of one request from a candidate to etcd or the storage. */
  requestTimeoutMs: number;
  maxEvents: number;
  maxSamples: number;
}

export const TIMINGS = {
  default: { heartbeatMs: 100, electionMs: 1000 },
  fast: { heartbeatMs: 20, electionMs: 200 },
} as const;

export const DEFAULT_SETTINGS: RunSettings = {
  nodes: 3,
  ...TIMINGS.default,
  preVote: true,
  ttlMs: 5000,
  renewDeadlineMs: null,
  warmUpMs: 2000,
  writeEveryMs: 1000,
  fencing: true,
  sampleEveryMs: 100,
  requestTimeoutMs: 1000,
  maxEvents: 200_000,
  maxSamples: 100_000,
};

/** The keep-alive period: about TTL/3, as etcd's client library sends them. */
export function keepAliveEveryMs(s: Pick<RunSettings, 'ttlMs'>): number {
  return Math.floor(s.ttlMs / 3);
}

/** Every problem with the settings, as "field: message" lines; empty when they are fine. */
export function checkSettings(s: RunSettings): string[] {
  const errors: string[] = [];
  const whole = (v: number, min: number, max: number) => Number.isInteger(v) && v >= min && v <= max;
  if (!whole(s.nodes, 1, 9)) errors.push('nodes: must be 1..9');
  if (!whole(s.heartbeatMs, 1, 10_000)) errors.push('heartbeatMs: must be 1..10000');
  // etcd refuses an election timeout below 5 heartbeats.
  if (!whole(s.electionMs, 5 * s.heartbeatMs, 50_000))
    errors.push('electionMs: must be 5 x heartbeatMs..50000');
  if (!whole(s.ttlMs, 1000, 3_600_000) || s.ttlMs % 1000 !== 0)
    errors.push('ttlMs: must be whole seconds (etcd grants leases in seconds), 1000..3600000');
  if (s.renewDeadlineMs !== null) {
    if (!(s.renewDeadlineMs < s.ttlMs)) errors.push('renewDeadlineMs: must be less than ttlMs');
    if (!(s.renewDeadlineMs > 1.2 * keepAliveEveryMs(s)))
      errors.push('renewDeadlineMs: must be more than 1.2 x the keep-alive period (ttlMs / 3)');
  }
  if (!whole(s.warmUpMs, 0, 600_000)) errors.push('warmUpMs: must be 0..600000');
  if (!whole(s.writeEveryMs, 10, 3_600_000)) errors.push('writeEveryMs: must be 10..3600000');
  if (!whole(s.sampleEveryMs, 10, 3_600_000)) errors.push('sampleEveryMs: must be 10..3600000');
  if (!whole(s.requestTimeoutMs, 50, 60_000)) errors.push('requestTimeoutMs: must be 50..60000');
  return errors;
}
