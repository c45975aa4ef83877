// The live safety banner. It reads the engine's own invariant violations (the same checkers the
// tests and fuzzers use), so what it says in red is exactly what the engine detected; otherwise
// it says what leader_count says, in the chart's terms, and what the storage does about a second
// leader with fencing on or off. Two counts, as on the chart: believed (alive nodes that think
// they lead, paused ones included) and observed (what a scrape sees: a paused node fails it); the
// chart pages on observed 0 and on 2 or more. It never calls a moment safe that the chart pages on.
import { algorithmFor, INVARIANT_TITLES } from '../../engine';
import { useLabEqual, useLabShallow } from '../../store/context';
import { sameBelievers, selectBelievers } from '../../store/select';

export function SafetyBanner() {
  const { violations, leaderCount, observed, safety, stale, algorithm, startingUp } = useLabShallow((s) => ({
    algorithm: s.experiment.algorithm,
    violations: s.snapshot.violations,
    leaderCount: s.snapshot.leaderCount,
    observed: s.snapshot.leaderCountObserved,
    safety: s.snapshot.safety,
    stale: s.snapshot.counters.staleWritesAccepted,
    startingUp: s.snapshot.startedAtMs < 0,
  }));
  const believing = useLabEqual(selectBelievers, sameBelievers);
  const epochWord = algorithmFor(algorithm).words.epoch;
  const leaders = believing
    .map((n) => `${n.id} (${epochWord} ${n.term}${n.paused ? ', paused' : ''})`)
    .join(' and ');
  const off = Object.entries(safety)
    .filter(([, v]) => !v)
    .map(([k]) => k);
  const offNote = off.length > 0 && <span> Safety off: {off.join(', ')}.</span>;
  const last = violations[violations.length - 1];
  if (last) {
    const alg = algorithmFor(algorithm);
    const why =
      last.allowedBy === 'algorithm'
        ? `${alg.title} has no quorum: each side of a split elects its own ${alg.words.leader}, and storage's >= takes every write not below the highest ${alg.words.epoch} it has seen, so fencing alone cannot save it. `
        : last.allowedBy
          ? `${last.allowedBy} is off: `
          : 'bug: ';
    return (
      <div className="banner banner-bad" role="status" data-testid="safety-banner" data-state="violated">
        <strong>✕ {INVARIANT_TITLES[last.invariant]}: broken.</strong>{' '}
        <span>{last.detail.startsWith(`${last.allowedBy} is off`) ? last.detail : why + last.detail}</span>{' '}
        {violations.length > 1 && <span>({violations.length} violations in this run)</span>}
        {(leaderCount !== 1 || observed !== 1) && (
          <span>
            {' '}
            Now believed leader_count {leaderCount}, observed {observed}.
          </span>
        )}
        {offNote}
      </div>
    );
  }
  const writes = stale > 0 ? `${stale} stale writes accepted` : 'no stale write accepted';
  let headline: string;
  let detail: string | null = null;
  // A paused leader is missing from the observed count: the dashboard cannot see it.
  const hidden =
    observed < leaderCount
      ? ` A paused leader fails its scrape, so the dashboard sees ${observed}${observed === 1 ? ' and does not page' : ''}.`
      : '';
  if (leaderCount >= 2) {
    headline = `⚠ believed leader_count ${leaderCount}, observed ${observed}: ${leaders} believe they lead · ${writes}.`;
    detail =
      (safety.fencing
        ? 'Fencing decides whose writes land: storage rejects a token below the highest it has seen.'
        : 'Fencing is off: storage accepts writes from every one of them.') + hidden;
  } else if (leaderCount === 0 && startingUp) {
    headline = `Starting: the cluster is electing its first ${algorithmFor(algorithm).words.leader} · ${writes}.`;
    detail = 'Start-up is not an outage: nothing pages until a leader has been elected once.';
  } else if (leaderCount === 0) {
    headline = `⚠ leader_count 0, believed and observed: no leader, writes are paused · ${writes}.`;
  } else if (observed === 0) {
    headline = `⚠ observed leader_count 0, believed 1: ${leaders} believes it leads · ${writes}.`;
    detail = 'It is paused and fails its scrape, so the dashboard pages "no leader".';
  } else {
    headline = `✓ One leader · ${writes}.`;
  }
  return (
    <div
      className={`banner ${leaderCount === 1 && observed === 1 ? 'banner-good' : startingUp ? 'banner-info' : 'banner-warn'}`}
      role="status"
      data-testid="safety-banner"
      data-state="safe"
    >
      <strong>{headline}</strong> {detail && <span>{detail}</span>}
      {offNote}
    </div>
  );
}
