// What each fault of `npm run fidelity` sets up, shared so both sides' parameters match: the real run's
// settings (the simulator's experiment is built from them) and the fault's own durations.
import type { FaultId } from './fidelityReport';
import { DEFAULT_SETTINGS, TIMINGS, type RunSettings } from '../model/settings';

export interface FaultSetup {
  settings: RunSettings;
  /** pause faults: how long the leader is stopped. */
  pauseMs?: number;
  /** heal faults: how long the follower is cut off before the heal. */
  isolateMs?: number;
  /** How long after the fault (or the heal) the outcome is read. */
  watchMs: number;
}

// A short warm-up and write period, so a trial's new leader writes (and the zombie's write meets a newer
// token) soon after its election; the same on both sides. etcd's default timing, a TTL of 5 s unless said.
function settings(s: Partial<RunSettings> = {}): RunSettings {
  return { ...DEFAULT_SETTINGS, ...TIMINGS.default, ttlMs: 5000, warmUpMs: 200, writeEveryMs: 300, ...s };
}

export const SETUPS: Record<FaultId, FaultSetup> = {
  'raft-kill-fast': { settings: settings({ ...TIMINGS.fast, ttlMs: 2000 }), watchMs: 5000 },
  'raft-kill': { settings: settings(), watchMs: 10_000 },
  'pause-ttl5': { settings: settings(), pauseMs: 8000, watchMs: 3000 },
  'pause-ttl15': { settings: settings({ ttlMs: 15_000 }), pauseMs: 18_000, watchMs: 3000 },
  'pause-short': { settings: settings({ renewDeadlineMs: 3000 }), pauseMs: 1000, watchMs: 3000 },
  isolate: { settings: settings(), watchMs: 10_000 },
  'heal-prevote-off': { settings: settings({ preVote: false }), isolateMs: 5000, watchMs: 3000 },
  'heal-prevote-on': { settings: settings({ preVote: true }), isolateMs: 5000, watchMs: 3000 },
  'raft-kill-under-lease': {
    settings: settings({ renewDeadlineMs: 3000 }),
    // The renew deadline falls at most 3 s after the kill.
    watchMs: 5000,
  },
};

export const OUTCOME = {
  newRaftLeader: 'another member became raft leader',
  noNewRaftLeader: 'no other raft leader',
  isolatedSteppedDown: 'another member leads; the isolated one stepped down',
  isolatedKept: 'another member leads; the isolated one still believes it leads',
  failoverRejected: 'another candidate elected; the stale write rejected',
  failoverAccepted: 'another candidate elected; the stale write accepted',
  failoverNoWrite: 'another candidate elected; no write from the paused one',
  kept: 'leadership kept',
  lost: 'leadership lost',
  termsRose: 'the heal raised the term (the leader was disrupted)',
  termsSame: 'the heal changed no term',
} as const;

/** A failover after a pause, by what came of the paused leader's first write after it (if any). */
export function zombieOutcome(result: 'accepted' | 'rejected' | undefined): string {
  if (!result) return OUTCOME.failoverNoWrite;
  return result === 'rejected' ? OUTCOME.failoverRejected : OUTCOME.failoverAccepted;
}

/**
 * Longest gap between answered keep-alives (0 with under two). With `lostAtMs` (the session's end) the last
 * gap runs to it; a new session's keep-alives (one client sends at once, another a period later) don't count.
 */
export function longestGapMs(times: number[], lostAtMs: number | null = null): number {
  const s = (lostAtMs === null ? [...times] : [...times.filter((t) => t <= lostAtMs), lostAtMs]).sort(
    (a, b) => a - b,
  );
  let gap = 0;
  for (let i = 1; i < s.length; i++) gap = Math.max(gap, s[i] - s[i - 1]);
  return gap;
}
