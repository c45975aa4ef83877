// The live safety banner. It reads the engine's own invariant violations (the same checkers the
// tests and fuzzers use), so what it says in red is exactly what the engine detected.
import { INVARIANT_TITLES } from '../../engine';
import { useLabShallow } from '../../store/context';

export function SafetyBanner() {
  const { violations, leaderCount, safety, leaders } = useLabShallow((s) => ({
    violations: s.snapshot.violations,
    leaderCount: s.snapshot.leaderCount,
    safety: s.snapshot.safety,
    leaders: s.snapshot.nodes
      .filter((n) => n.alive && n.role === 'leader')
      .map((n) => `${n.id} (term ${n.term}${n.paused ? ', paused' : ''})`)
      .join(' and '),
  }));
  const last = violations[violations.length - 1];
  if (last) {
    const why = last.allowedBy ? `${last.allowedBy} is off: ` : 'bug: ';
    return (
      <div className="banner banner-bad" role="status" data-testid="safety-banner" data-state="violated">
        <strong>✕ {INVARIANT_TITLES[last.invariant]}: broken.</strong>{' '}
        <span>{last.detail.startsWith(`${last.allowedBy} is off`) ? last.detail : why + last.detail}</span>{' '}
        {violations.length > 1 && <span>({violations.length} violations in this run)</span>}
      </div>
    );
  }
  const off = Object.entries(safety)
    .filter(([, v]) => !v)
    .map(([k]) => k);
  return (
    <div
      className={`banner ${leaderCount === 1 ? 'banner-good' : 'banner-warn'}`}
      role="status"
      data-testid="safety-banner"
      data-state="safe"
    >
      <strong>✓ No split brain · no stale write accepted.</strong>{' '}
      {leaderCount === 0 && <span>leader_count 0: no leader, writes are paused.</span>}
      {leaderCount >= 2 && (
        <span>
          leader_count {leaderCount}: {leaders} believe they lead; fencing decides whose writes land.
        </span>
      )}
      {off.length > 0 && <span> Safety off: {off.join(', ')}.</span>}
    </div>
  );
}
