// Guided mode's narration: the step's caption, what to watch, whether it is met, the step buttons, a summary.
import { useStore } from 'zustand';
import type { GuidedStore } from '../../store/guidedStore';
import type { Step, View } from '../../scenario/types';
import { sceneWatching } from '../../shared/scenes';
import { scenarioTitle } from '../../scenario/catalog';
import { scenarioHref } from './ScenarioPicker';
import { useLab } from '../../store/context';
import { fillCaption } from '../../scenario/claims';

/** Views a step can name that are parts of the page rather than scenes. */
const PAGE_VIEWS: Partial<Record<View, string>> = {
  storage: 'the storage',
  log: 'the event log',
  banner: 'the safety banner',
};

function viewName(view: View): string {
  return PAGE_VIEWS[view] ?? `the ${sceneWatching(view)?.name ?? view}`;
}

/** `onSpacetime`: opens the space-time diagram, for a step whose `spacetime` filter names the messages. */
export function GuidedPanel({ guided, onSpacetime }: { guided: GuidedStore; onSpacetime?: () => void }) {
  const g = useStore(guided);
  const step = g.scenario.steps[g.step];
  const total = g.scenario.steps.length;
  // A caption's numbers are the run's at the pause it describes: "…" until the lab stops there.
  const paused = useLab((s) => (g.status === 'waiting' ? null : s.snapshot));
  const caption = fillCaption(step.caption, paused);
  return (
    <section className="panel guided" aria-labelledby="guided-title" data-testid="guided">
      <h2 id="guided-title">
        {g.scenario.title}{' '}
        <span className="hint">
          step {g.step + 1} of {total}
        </span>
      </h2>
      <p className="caption" data-testid="guided-caption" aria-live="polite">
        {caption}
      </p>
      {step.watch && (
        <p className="hint">
          Watch {viewName(step.watch.view)}
          {step.watch.element ? ` (${step.watch.element})` : ''}.
        </p>
      )}
      {step.spacetime && onSpacetime && (
        <p className="hint">
          <button
            type="button"
            className="btn btn-small"
            onClick={onSpacetime}
            data-testid="guided-spacetime"
          >
            See these messages in the space-time diagram
          </button>{' '}
          {spacetimeFilterWords(step.spacetime)}
        </p>
      )}
      <p className="hint" data-testid="guided-status">
        {g.status === 'waiting' && 'Waiting for this to happen…'}
        {g.status === 'met' && 'Done. Press Next when ready.'}
        {g.status === 'timeout' && 'This did not happen within the step’s time limit in this run.'}
        {g.status === 'done' && 'Scenario complete.'}
      </p>
      {g.status === 'done' && (
        <p className="summary" data-testid="guided-summary">
          <strong>What happened:</strong> {g.summary}.
        </p>
      )}
      {g.scenario.compare && <CompareLink compare={g.scenario.compare} />}
      <div className="btn-row">
        <button type="button" className="btn" onClick={g.previous} disabled={g.step === 0}>
          ◀ Previous
        </button>
        <button type="button" className="btn" onClick={g.replay}>
          ↺ Replay step
        </button>
        <button type="button" className="btn" onClick={g.skip} disabled={g.status !== 'waiting'}>
          Skip ⇥
        </button>
        <button
          type="button"
          className="btn"
          onClick={g.next}
          disabled={g.status === 'waiting' || g.status === 'done'}
          data-testid="guided-next"
        >
          Next ▶
        </button>
      </div>
    </section>
  );
}

/** A link to the game day that tells the same story another way, by its title. */
function CompareLink({ compare }: { compare: { scenario: string; why: string } }) {
  const title = scenarioTitle(compare.scenario);
  if (!title) return null;
  return (
    <p className="hint" data-testid="guided-compare">
      Compare: <a href={scenarioHref(compare.scenario)}>{title}</a>. {compare.why}
    </p>
  );
}

/** What a step's filter keeps, in words: "n1, n2 and storage; writes and rejections only". */
function spacetimeFilterWords(f: NonNullable<Step['spacetime']>): string {
  const parts: string[] = [];
  if (f.lanes) parts.push(`lanes ${f.lanes.join(', ')}`);
  if (f.families) parts.push(`${f.families.join(', ')} messages`);
  return parts.length ? `(${parts.join('; ')} only)` : '';
}
