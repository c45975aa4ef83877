// Step 5: how a write ends, its counters, and the alerts (a zombie fenced; fencing off, a stale write in).
import { memo, useEffect, useRef, type ReactNode } from 'react';
import type { Alert, OutcomeView } from './writesModel';
import { CommitGlyph, RejectGlyph, StaleGlyph } from './Glyphs';
import { jolt } from '../../src/ui/pointAt';

/** An alert, keyed by its write (by the caller): each new one mounts afresh and arrives with a jolt. */
function AlertBanner({ alert, kind }: { alert: Alert; kind: 'zombie' | 'stale' }) {
  const el = useRef<HTMLParagraphElement>(null);
  useEffect(() => jolt(el.current), []);
  return (
    <p ref={el} className={`chain-alert chain-alert-${kind}`} data-testid={`${kind}-alert`}>
      {kind === 'zombie' ? <RejectGlyph /> : <StaleGlyph />}
      <span>
        <strong className="chain-alert-headline">{alert.headline}</strong>
        <span className="chain-alert-detail">{alert.detail}</span>
      </span>
    </p>
  );
}

/** A counter as wide as its digits (tabular, 1ch each): a new count lays out its box, not the page (CSS). */
function Count({ n, testId, children }: { n: number; testId: string; children: ReactNode }) {
  return (
    <p className="chain-count">
      <span
        className="chain-count-value mono"
        data-testid={testId}
        style={{ width: `${String(n).length}ch` }}
      >
        {n}
      </span>{' '}
      {children}
    </p>
  );
}

export const OutcomeBranches = memo(function OutcomeBranches({
  outcome,
  fencing,
}: {
  outcome: OutcomeView;
  fencing: boolean | undefined;
}) {
  return (
    <div className="chain-branches">
      <div className="chain-branch chain-branch-yes" data-latest={outcome.latest === 'accepted' || undefined}>
        <p className="chain-branch-label">{fencing ? 'yes (current leader)' : 'accepted (no check)'}</p>
        <h4 className="chain-branch-title">
          <CommitGlyph /> Committed once
        </h4>
        <Count n={outcome.accepted} testId="accepted-count">
          accepted
        </Count>
        {outcome.staleAccepted > 0 && (
          <p className="chain-stale-count">
            <StaleGlyph /> {outcome.staleAccepted} stale {outcome.staleAccepted === 1 ? 'write' : 'writes'}{' '}
            among them
          </p>
        )}
        {outcome.writesLost !== null && (
          <p className="chain-stale-count" data-testid="writes-lost">
            <StaleGlyph /> {outcome.writesLost} acknowledged {outcome.writesLost === 1 ? 'write' : 'writes'}{' '}
            lost on resync
          </p>
        )}
        <div aria-live="polite" aria-atomic="true">
          {outcome.stale && <AlertBanner key={outcome.stale.key} alert={outcome.stale} kind="stale" />}
        </div>
      </div>
      <div className="chain-branch chain-branch-no" data-latest={outcome.latest === 'rejected' || undefined}>
        <p className="chain-branch-label">no (zombie / stale leader)</p>
        <h4 className="chain-branch-title">
          <RejectGlyph /> Rejected at storage: retryable error
        </h4>
        <Count n={outcome.rejected} testId="rejected-count">
          fencing {outcome.rejected === 1 ? 'rejection' : 'rejections'}
        </Count>
        <div aria-live="polite" aria-atomic="true">
          {outcome.zombie && <AlertBanner key={outcome.zombie.key} alert={outcome.zombie} kind="zombie" />}
        </div>
      </div>
    </div>
  );
});
