// The end-of-scenario summary, in measured numbers from this run.
import { algorithmFor, formatSeconds, type Trace } from '../engine';
import { failoverBars } from '../../scenes/FailoverTimelineScene/failoverModel';

/** "1 read", "2 reads". */
const count = (n: number, thing: string) => `${n} ${thing}${n === 1 ? '' : 's'}`;

export function summarizeRun(trace: Trace): string {
  const sum = trace.summary;
  const parts: string[] = [];
  // The failovers as the failover timeline draws them (its own bars, so the two agree): the first lost leader
  // replaced and ready, else the first leader change with no loss noticed (no quorum, a flapping lease).
  const epoch = algorithmFor(trace.experiment.algorithm).words.epoch;
  // Its total needs no clock: an incomplete bar is told up to the election.
  const bars = failoverBars(sum.failovers, 0, epoch);
  const lost = (i: number) => sum.failovers[i].from !== null;
  const pick = [(i: number) => lost(i) && bars[i].complete, lost, (i: number) => bars[i].complete, () => true]
    .map((wanted) => bars.findIndex((_, i) => wanted(i)))
    .find((i) => i >= 0);
  if (pick !== undefined) {
    const b = bars[pick];
    const [detection, election, warm] = b.phases;
    const phases =
      `${formatSeconds(detection.durationMs)} detection, ${formatSeconds(election.durationMs)} election` +
      (b.complete ? `, ${formatSeconds(warm.durationMs)} warm-up` : '');
    const total = b.complete ? b.totalMs : election.startMs + election.durationMs - b.lostAtMs;
    parts.push(
      lost(pick)
        ? `failover took ${formatSeconds(total)}: ${phases}`
        : `no leader lost, but ${b.label}, which took ${formatSeconds(total)}: ${phases}`,
    );
    if (bars.length > 1) parts.push(`${bars.length} failovers on the timeline`);
  } else {
    parts.push(`no failover (${sum.leaderTransitions} leadership transitions)`);
  }
  parts.push(`${count(sum.fencingRejections, 'zombie write')} rejected`);
  parts.push(`${count(sum.staleWritesAccepted, 'stale write')} accepted`);
  // Servers that hold the data (Redis): acknowledged writes an old primary dropped on rejoining.
  if (sum.writesLost !== undefined) parts.push(`${count(sum.writesLost, 'acknowledged write')} lost on heal`);
  if (sum.divergentWrites) parts.push(`${sum.divergentWrites} divergent client writes`);
  if (sum.clientRedirects) parts.push(`${sum.clientRedirects} client writes redirected`);
  const twice = sum.violations.find((v) => v.invariant === 'oneLeaderPerTerm');
  if (twice) parts.push(`${twice.detail}${twice.allowedBy ? ` (allowed: ${ALLOWED[twice.allowedBy]})` : ''}`);
  const shared = sharedTokenWrites(trace);
  if (shared) parts.push(`${shared} writes accepted from a second leader holding the same token`);
  // A coordination store's watches: what a change of leader cost the store (the herd effect).
  if (sum.watchNotifications || sum.watchReads)
    parts.push(
      `${count(sum.watchNotifications, 'watch notification')} and ${count(sum.watchReads, 'read')} they triggered`,
    );
  parts.push(
    `believed leader_count peaked at ${sum.maxLeaderCount}; ${formatSeconds(sum.msWithoutLeader)} without a leader`,
  );
  return parts.join('; ');
}

const ALLOWED = {
  quorum: 'quorum is off',
  fencing: 'fencing is off',
  algorithm: 'the algorithm has no quorum',
};

/** Accepted writes whose token another node's accepted write had: two leaders, one token, unseen by `>=`. */
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
