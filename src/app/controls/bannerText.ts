// What the safety banner says of a moment, a pure function so the claims test reads the page's words at
// every pause. Its red is exactly the engine's invariant violations; otherwise it says what leader_count
// and storage say of a second leader (algorithms/pages/), never calling safe a moment the chart pages on.
import {
  algorithmFor,
  INVARIANT_TITLES,
  missingSwitch,
  sentenceOf,
  type Experiment,
  type Snapshot,
} from '../../engine';
import { believers } from '../../store/select';

export interface BannerText {
  tone: 'bad' | 'warn' | 'good' | 'info';
  /** `violated` once the engine has found a broken invariant in this run; `safe` otherwise. */
  state: 'violated' | 'safe';
  headline: string;
  /** Every sentence after the headline, in order. */
  details: string[];
}

export function bannerText(s: Snapshot, experiment: Pick<Experiment, 'algorithm'>): BannerText {
  const alg = algorithmFor(experiment.algorithm);
  const noToken = missingSwitch(experiment, 'fencing');
  const { leaderCount, leaderCountObserved: observed, safety, violations } = s;
  const startingUp = s.startedAtMs < 0;
  const leaders = believers(s)
    .map((n) => `${n.id} (${alg.words.epoch} ${n.term}${n.paused ? ', paused' : ''})`)
    .join(' and ');
  const off = Object.entries(safety)
    .filter(([, v]) => v === false)
    .map(([k]) => k);
  const offNote = off.length > 0 ? [`Safety off: ${off.join(', ')}.`] : [];
  const last = violations[violations.length - 1];
  if (last) {
    const why =
      last.allowedBy === 'algorithm'
        ? last.invariant === 'staleWriteAccepted' && noToken
          ? `${sentenceOf(noToken)} `
          : `${alg.title} has no quorum: each side of a split elects its own ${alg.words.leader}, and storage's >= takes every write not below the highest ${alg.words.epoch} it has seen, so fencing alone cannot save it. `
        : last.allowedBy
          ? `${last.allowedBy} is off: `
          : 'bug: ';
    return {
      tone: 'bad',
      state: 'violated',
      headline: `✕ ${INVARIANT_TITLES[last.invariant]}: broken.`,
      details: [
        last.detail.startsWith(`${last.allowedBy} is off`) ? last.detail : why + last.detail,
        ...(violations.length > 1 ? [`(${violations.length} violations in this run)`] : []),
        ...(leaderCount !== 1 || observed !== 1
          ? [`Now believed leader_count ${leaderCount}, observed ${observed}.`]
          : []),
        ...offNote,
      ],
    };
  }
  const stale = s.counters.staleWritesAccepted;
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
      (noToken
        ? sentenceOf(noToken)
        : safety.fencing
          ? 'Fencing decides whose writes land: storage rejects a token below the highest it has seen.'
          : 'Fencing is off: storage accepts writes from every one of them.') + hidden;
  } else if (leaderCount === 0 && startingUp) {
    headline = `Starting: the cluster is electing its first ${alg.words.leader} · ${writes}.`;
    detail = 'Start-up is not an outage: nothing pages until a leader has been elected once.';
  } else if (leaderCount === 0) {
    headline = `⚠ leader_count 0, believed and observed: no leader, writes are paused · ${writes}.`;
  } else if (observed === 0) {
    headline = `⚠ observed leader_count 0, believed 1: ${leaders} believes it leads · ${writes}.`;
    detail = 'It is paused and fails its scrape, so the dashboard pages "no leader".';
  } else {
    headline = `✓ One leader · ${writes}.`;
  }
  return {
    tone: leaderCount === 1 && observed === 1 ? 'good' : startingUp ? 'info' : 'warn',
    state: 'safe',
    headline,
    details: [...(detail ? [detail] : []), ...offNote],
  };
}

/** The banner as one string, as a reader (and the claims test) reads it. */
export function bannerLine(b: BannerText): string {
  return [b.headline, ...b.details].join(' ');
}
