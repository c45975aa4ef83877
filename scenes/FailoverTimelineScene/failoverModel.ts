// The seed's "failover timeline, honestly": detection, election and warm-up from the engine's records.
import type { Failover } from '../../src/engine';
import { WON_BESIDE_A_LEADER } from '../../src/engine/ledger';

export interface Phase {
  name: 'detection' | 'election' | 'warm-up';
  startMs: number;
  durationMs: number;
}

export interface FailoverBar {
  key: string;
  label: string;
  lostAtMs: number;
  totalMs: number;
  phases: Phase[];
  /** The longest phase, which the seed says is often the forgotten warm-up. */
  longest: Phase['name'];
  complete: boolean;
  /**
   * Detection and election: the chart's time without a leader (for a leader killed or cut off: leader_count
   * sees that at once). Warm-up adds a counted leader serving no one: the whole bar is time without service.
   */
  withoutLeaderMs: number;
  /**
   * Who leader_count still counted in detection and election: a leader cut off from a majority until it
   * steps down, or one still leading in its own eyes after the next was elected (no quorum, a flapping
   * lease), perhaps serving. Null where leader_count saw the loss at once (killed, paused, stepped down).
   */
  stillCounted: 'the cut-off leader' | 'another leader' | null;
}

/** `epoch`: the token's name in the algorithm's words (info.ts `words.epoch`: term, revision, czxid...). */
export function failoverBars(failovers: readonly Failover[], nowMs: number, epoch: string): FailoverBar[] {
  return failovers.map((f) => {
    const ready = f.readyAtMs >= 0 ? f.readyAtMs : nowMs;
    const phases: Phase[] = [
      { name: 'detection', startMs: f.lostAtMs, durationMs: Math.max(0, f.detectedAtMs - f.lostAtMs) },
      { name: 'election', startMs: f.detectedAtMs, durationMs: Math.max(0, f.electedAtMs - f.detectedAtMs) },
      { name: 'warm-up', startMs: f.electedAtMs, durationMs: Math.max(0, ready - f.electedAtMs) },
    ];
    const longest = phases.reduce((a, b) => (b.durationMs > a.durationMs ? b : a)).name;
    return {
      key: `${f.term}-${f.node}`,
      label:
        f.from === null
          ? `${f.node} ${f.cause} (${epoch} ${f.term})`
          : `${f.from} ${f.cause} → ${f.node} (${epoch} ${f.term})`,
      lostAtMs: f.lostAtMs,
      totalMs: ready - f.lostAtMs,
      phases,
      longest,
      complete: f.readyAtMs >= 0,
      withoutLeaderMs: f.electedAtMs - f.lostAtMs,
      stillCounted:
        f.from === null && f.cause === WON_BESIDE_A_LEADER
          ? 'another leader'
          : f.from !== null && f.cause === 'partitioned'
            ? 'the cut-off leader'
            : null,
    };
  });
}
