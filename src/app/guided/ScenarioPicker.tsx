// The scenario picker: every scenario file with its one-line description. Choosing one opens
// it by deep link, so the address bar always says what is on screen.
import { catalog } from '../../scenario/catalog';

/** Parameters that describe the run on screen; a scenario brings its own (readPageParams lets a run link win over a scenario). */
const RUN_PARAMS = ['run', 'scenario', 'step', 'seed', 'nodes', 'clients', 'witness'];

export function scenarioHref(id: string | null, step?: number): string {
  const q = new URLSearchParams(window.location.search);
  for (const k of RUN_PARAMS) q.delete(k);
  if (id) q.set('scenario', id);
  if (id && step !== undefined && step > 0) q.set('step', String(step + 1));
  const s = q.toString();
  return `${window.location.pathname}${s ? `?${s}` : ''}`;
}

export function ScenarioPicker({ current }: { current: string | null }) {
  return (
    <nav className="panel picker" aria-label="Game days">
      <details open={current !== null ? false : undefined}>
        <summary>
          <strong>Game days</strong>: {catalog.scenarios.length} guided scenarios
          {current ? '' : ' (or break the cluster yourself below)'}
        </summary>
        <ol className="picker-list">
          <li>
            <a href={scenarioHref(null)} aria-current={current === null ? 'page' : undefined}>
              <strong>Free play</strong> <span className="hint">break the cluster yourself</span>
            </a>
          </li>
          {catalog.scenarios.map((s) => (
            <li key={s.id}>
              <a
                href={scenarioHref(s.id)}
                aria-current={current === s.id ? 'page' : undefined}
                data-testid={`scenario-${s.id}`}
              >
                <strong>{s.title}</strong> <span className="hint">{s.description}</span>
              </a>
            </li>
          ))}
        </ol>
      </details>
      {catalog.problems.length > 0 && (
        <div role="alert" className="field-errors">
          {catalog.problems.map((p) => (
            <p key={p.file}>
              {p.file} could not be loaded: {p.errors.join('; ')}
            </p>
          ))}
        </div>
      )}
    </nav>
  );
}
