// Step 5: the two ways a write ends, with their counters, and the alerts that must not be
// missed: a zombie write fenced at storage, or (fencing off) a stale write that got through.
import { LazyMotion, domAnimation, m, useReducedMotion } from 'motion/react';
import type { Alert, OutcomeView } from './writesModel';
import { CommitGlyph, RejectGlyph, StaleGlyph } from './Glyphs';

function AlertBanner({ alert, kind }: { alert: Alert; kind: 'zombie' | 'stale' }) {
  const reduce = useReducedMotion();
  // Keyed by the write, so each new one remounts and arrives with a jolt (the write "bounces"); reduced motion gets it still.
  const enter = reduce ? false : { opacity: 0, scale: 0.8 };
  const settle = reduce ? { opacity: 1, scale: 1 } : { opacity: 1, scale: 1, x: [0, -8, 7, -5, 3, 0] };
  return (
    <m.p
      className={`chain-alert chain-alert-${kind}`}
      data-testid={`${kind}-alert`}
      initial={enter}
      animate={settle}
      transition={{ duration: 0.45, ease: 'easeOut' }}
    >
      {kind === 'zombie' ? <RejectGlyph /> : <StaleGlyph />}
      <span>
        <strong className="chain-alert-headline">{alert.headline}</strong>
        <span className="chain-alert-detail">{alert.detail}</span>
      </span>
    </m.p>
  );
}

export function OutcomeBranches({ outcome, fencing }: { outcome: OutcomeView; fencing: boolean }) {
  return (
    <LazyMotion features={domAnimation}>
      <div className="chain-branches">
        <div
          className="chain-branch chain-branch-yes"
          data-latest={outcome.latest === 'accepted' || undefined}
        >
          <p className="chain-branch-label">{fencing ? 'yes (current leader)' : 'accepted (no check)'}</p>
          <h4 className="chain-branch-title">
            <CommitGlyph /> Committed once
          </h4>
          <p className="chain-count">
            <span className="chain-count-value mono" data-testid="accepted-count">
              {outcome.accepted}
            </span>{' '}
            accepted
          </p>
          {outcome.staleAccepted > 0 && (
            <p className="chain-stale-count">
              <StaleGlyph /> {outcome.staleAccepted} stale {outcome.staleAccepted === 1 ? 'write' : 'writes'}{' '}
              among them
            </p>
          )}
          <div aria-live="polite" aria-atomic="true">
            {outcome.stale && <AlertBanner key={outcome.stale.key} alert={outcome.stale} kind="stale" />}
          </div>
        </div>
        <div
          className="chain-branch chain-branch-no"
          data-latest={outcome.latest === 'rejected' || undefined}
        >
          <p className="chain-branch-label">no (zombie / stale leader)</p>
          <h4 className="chain-branch-title">
            <RejectGlyph /> Rejected at storage: retryable error
          </h4>
          <p className="chain-count">
            <span className="chain-count-value mono" data-testid="rejected-count">
              {outcome.rejected}
            </span>{' '}
            fencing {outcome.rejected === 1 ? 'rejection' : 'rejections'}
          </p>
          <div aria-live="polite" aria-atomic="true">
            {outcome.zombie && <AlertBanner key={outcome.zombie.key} alert={outcome.zombie} kind="zombie" />}
          </div>
        </div>
      </div>
    </LazyMotion>
  );
}
