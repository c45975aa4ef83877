// The end-of-scenario summary, in measured numbers from this run.
import type { Trace } from '../engine';

const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export function summarizeRun(trace: Trace): string {
  const sum = trace.summary;
  const parts: string[] = [];
  const f = sum.failovers.find((x) => x.readyAtMs >= 0) ?? sum.failovers[0];
  if (f) {
    const detection = f.detectedAtMs - f.lostAtMs;
    const election = f.electedAtMs - f.detectedAtMs;
    const warm = f.readyAtMs >= 0 ? f.readyAtMs - f.electedAtMs : -1;
    const total = (f.readyAtMs >= 0 ? f.readyAtMs : f.electedAtMs) - f.lostAtMs;
    parts.push(
      `failover took ${s(total)}: ${s(detection)} detection, ${s(election)} election` +
        (warm >= 0 ? `, ${s(warm)} warm-up` : ''),
    );
  } else {
    parts.push(`no failover (${sum.leaderTransitions} leadership transitions)`);
  }
  parts.push(`${sum.fencingRejections} zombie write${sum.fencingRejections === 1 ? '' : 's'} rejected`);
  parts.push(`${sum.staleWritesAccepted} stale write${sum.staleWritesAccepted === 1 ? '' : 's'} accepted`);
  if (sum.divergentWrites) parts.push(`${sum.divergentWrites} divergent client writes`);
  if (sum.clientRedirects) parts.push(`${sum.clientRedirects} client writes redirected`);
  parts.push(`leader_count peaked at ${sum.maxLeaderCount}; ${s(sum.msWithoutLeader)} without a leader`);
  return parts.join('; ');
}
