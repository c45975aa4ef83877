// The end-of-scenario summary, in measured numbers from this run.
import type { Trace } from '../engine';

const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export function summarizeRun(trace: Trace): string {
  const sum = trace.summary;
  const parts: string[] = [];
  // A failover is a lost leader replaced; a second leader elected beside a live one (a split
  // without a quorum) is reported below as what it is.
  const real = sum.failovers.filter((x) => x.from !== null);
  const f = real.find((x) => x.readyAtMs >= 0) ?? real[0];
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
  // Servers that hold the data (Redis): acknowledged writes an old primary dropped on rejoining.
  if (sum.writesLost !== undefined)
    parts.push(`${sum.writesLost} acknowledged write${sum.writesLost === 1 ? '' : 's'} lost on heal`);
  if (sum.divergentWrites) parts.push(`${sum.divergentWrites} divergent client writes`);
  if (sum.clientRedirects) parts.push(`${sum.clientRedirects} client writes redirected`);
  const twice = sum.violations.find((v) => v.invariant === 'oneLeaderPerTerm');
  if (twice) parts.push(`${twice.detail}${twice.allowedBy ? ` (allowed: ${ALLOWED[twice.allowedBy]})` : ''}`);
  const shared = sharedTokenWrites(trace);
  if (shared) parts.push(`${shared} writes accepted from a second leader holding the same token`);
  // A coordination store's watches: what a change of leader cost the store (the herd effect).
  if (sum.watchNotifications || sum.watchReads)
    parts.push(
      `${sum.watchNotifications} watch notification${sum.watchNotifications === 1 ? '' : 's'} and ` +
        `${sum.watchReads} read${sum.watchReads === 1 ? '' : 's'} they triggered`,
    );
  parts.push(
    `believed leader_count peaked at ${sum.maxLeaderCount}; ${s(sum.msWithoutLeader)} without a leader`,
  );
  return parts.join('; ');
}

const ALLOWED = {
  quorum: 'quorum is off',
  fencing: 'fencing is off',
  algorithm: 'the algorithm has no quorum',
};

/**
 * Writes storage accepted with a token that another node's accepted write already carried: two
 * leaders sharing one token, which a `>=` check cannot tell apart.
 */
function sharedTokenWrites(trace: Trace): number {
  const firstWriter = new Map<number, string>();
  let count = 0;
  for (const ev of trace.events) {
    if (ev.type !== 'write' || ev.result !== 'accepted') continue;
    const first = firstWriter.get(ev.token);
    if (first === undefined) firstWriter.set(ev.token, ev.node);
    else if (first !== ev.node) count++;
  }
  return count;
}
