// The fencing chain, the seed's flowchart as five live steps (elect, lease, token, compare, commit/reject).
// It reads the lab from context, so several labs can each show their own chain on one page.
import { Fragment, memo, useId, useMemo, type ReactNode } from 'react';
import { pageOf } from '../../src/engine';
import { useLab } from '../../src/store/context';
import type { QuorumView, StepId } from './chainModel';
import type { CompareView, TokenView } from './writesModel';
import { electionOf } from './electStep';
import { LeaseRing } from './LeaseRing';
import { OutcomeBranches } from './OutcomeBranches';
import { LeaderGlyph, StepBadge, VoteGlyph } from './Glyphs';
import { useChainModel } from './useChainModel';
import { useSceneHost } from '../../src/ui/sceneHost';
import './chainScene.css';

/** Where a camelCase name (client-go's leaderTransitions) may break: at a projector's type, it overran. */
function Breakable({ text }: { text: string }) {
  return text.split(/(?<=[a-z])(?=[A-Z])/).map((part, i) => (
    <Fragment key={i}>
      {i > 0 && <wbr />}
      {part}
    </Fragment>
  ));
}

function Step(props: {
  n: StepId;
  active: StepId;
  title: string;
  /** A shorter title for the compact strip (the full one is still read out). */
  short: string;
  decision?: boolean;
  tone?: string;
  children: ReactNode;
}) {
  const { n, active, title, short, decision, tone, children } = props;
  const current = n === active;
  return (
    <li className={`chain-step chain-step-${n}`} aria-current={current ? 'step' : undefined} data-tone={tone}>
      <h3 className="chain-step-title">
        <StepBadge n={n} decision={decision} />
        <span className="chain-title-full">{title}</span>
        <span className="chain-title-short" aria-hidden="true">
          {short}
        </span>
        {current && <span className="chain-now">now</span>}
      </h3>
      {children}
    </li>
  );
}

// Each step renders only when its part of the model changed (useChainModel shares the parts that did not).
const QuorumStep = memo(function QuorumStep({ q }: { q: QuorumView }) {
  return (
    <>
      <p className="chain-headline" data-testid="quorum-headline">
        {q.state === 'leader' && <LeaderGlyph />} <Breakable text={q.headline} />
      </p>
      {q.votesText && (
        <p className="chain-votes mono" data-testid="quorum-votes">
          {q.votesText}
        </p>
      )}
      {q.voters.length > 0 && (
        <ul className="chain-voters" aria-label="votes">
          {q.voters.map((v) => (
            <li key={v.id} className="chain-voter" data-voted={v.voted || undefined}>
              <VoteGlyph voted={v.voted} />
              <span className="mono">{v.id}</span>
              {v.leader && <LeaderGlyph />}
              <span className="visually-hidden">
                {v.voted ? ' voted' : ' no vote'}
                {v.leader ? ', leader' : ''}
                {v.witness ? ', witness' : ''}
              </span>
            </li>
          ))}
        </ul>
      )}
      <p className="chain-muted">{q.majorityText}</p>
      {q.notes.map((note) => (
        <p key={note} className="chain-note">
          <Breakable text={note} />
        </p>
      ))}
    </>
  );
});

const TokenStep = memo(function TokenStep({ t }: { t: TokenView }) {
  const older = t.latest && t.current !== null && t.latest.token < t.current;
  return (
    <>
      {t.current === null ? (
        <p className="chain-headline" data-testid="current-token">
          no token: no leader
        </p>
      ) : (
        <p className="chain-token" data-testid="current-token">
          current token <span className="chain-token-value mono">{t.current}</span>
        </p>
      )}
      {t.holder && (
        <p className="chain-muted">
          {t.holder}'s {t.epoch} (rises with each new leader)
        </p>
      )}
      <p data-testid="latest-write-token">
        {t.latest
          ? `latest write: ${t.latest.node}, token ${t.latest.token}${t.latest.kind === 'claim' ? ' (claim)' : ''}`
          : 'no write yet'}
        {older && <span className="chain-token-older"> (older than the current token)</span>}
      </p>
      <p className="chain-muted">highest issued: {t.highestIssued}</p>
    </>
  );
});

const CompareStep = memo(function CompareStep({ c }: { c: CompareView }) {
  return (
    <>
      {c.noToken ? (
        <p className="chain-fencing-off" data-testid="no-token">
          {/* Its first clause: the card is narrow; the Safety panel and the banner give the rest. */}
          no token check: {c.noToken.split(':')[0]}
        </p>
      ) : c.fencing ? (
        <p className="chain-muted" data-testid="max-seen">
          max seen: {c.maxTokenSeen}
        </p>
      ) : (
        <p className="chain-fencing-off" data-testid="fencing-off">
          fencing off: storage accepts every write
        </p>
      )}
      {c.latest ? (
        <p
          className="chain-headline mono"
          data-testid="latest-comparison"
          data-verdict={c.latest.verdict}
          data-stale={c.latest.stale || undefined}
        >
          {c.latest.node}: {c.latest.text}
        </p>
      ) : (
        <p className="chain-muted">no write compared yet</p>
      )}
      {c.history.length > 1 && (
        <ul className="chain-history mono" aria-label="earlier comparisons">
          {/* Keyed by place: a new comparison changes the rows' words rather than adding a row. */}
          {c.history.slice(1).map((h, slot) => (
            <li key={slot} data-verdict={h.verdict} data-stale={h.stale || undefined}>
              {h.node}: {h.text}
            </li>
          ))}
        </ul>
      )}
    </>
  );
});

export function ChainScene() {
  const headingId = useId();
  const model = useChainModel();
  const experiment = useLab((s) => s.experiment);
  // The second step, and what the others wait out, in the words of the run's algorithm (its page).
  const hold = useMemo(() => pageOf(experiment).hold(experiment), [experiment]);
  const elect = electionOf(experiment);
  const active = model.active;
  const { density } = useSceneHost();
  // Why the dial's deadline is where it is: beside the ring when there is one.
  const why = hold.round && (
    <details className="chain-lease-why">
      <summary>Why that deadline?</summary>
      <p className="chain-muted" data-testid="lease-round">
        {hold.round}
      </p>
    </details>
  );
  return (
    <section className="chain-scene" aria-labelledby={headingId} data-density={density}>
      <h2 id={headingId}>Fencing chain</h2>
      <ol className="chain-steps" role="list">
        <Step n={1} active={active} title={elect.title} short={elect.short} tone={model.quorum.tone}>
          <QuorumStep q={model.quorum} />
        </Step>
        <Step n={2} active={active} title={hold.title} short={hold.short}>
          <p className="chain-muted">{hold.text}</p>
          {hold.ring ? <LeaseRing why={why} /> : why}
        </Step>
        <Step n={3} active={active} title="Every write carries a fencing token" short="Write carries a token">
          <TokenStep t={model.token} />
        </Step>
        <Step n={4} active={active} title="incoming token >= max seen?" short="token >= max seen?" decision>
          <CompareStep c={model.compare} />
        </Step>
        <Step n={5} active={active} title="Committed once, or rejected" short="Committed or rejected">
          <OutcomeBranches outcome={model.outcome} fencing={model.compare.fencing} />
        </Step>
      </ol>
    </section>
  );
}
