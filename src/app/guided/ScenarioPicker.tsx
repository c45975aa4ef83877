// The scenario picker: every scenario file with its one-line description. Choosing one opens
// it by deep link, so the address bar always says what is on screen.
import { useEffect, useState } from 'react';
import { catalog, type CatalogProblem } from '../../scenario/catalog';
import { whenIdle } from '../Later';

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

/**
 * The files that do not validate. Found one file per idle moment, so checking the catalog never
 * holds up the page's start: the picker lists every file at once, then drops any broken one and
 * says why.
 */
function useCatalogProblems(): CatalogProblem[] {
  const [problems, setProblems] = useState<CatalogProblem[]>([]);
  useEffect(() => {
    let live = true;
    const step = () => {
      if (!live) return;
      if (catalog.checkNext()) whenIdle(step);
      else setProblems(catalog.problems);
    };
    whenIdle(step);
    return () => {
      live = false;
    };
  }, []);
  return problems;
}

export function ScenarioPicker({ current }: { current: string | null }) {
  const problems = useCatalogProblems();
  const broken = new Set(problems.map((p) => p.file));
  const entries = catalog.index.filter((e) => !broken.has(e.file));
  return (
    <nav className="panel picker" aria-label="Game days">
      <details open={current !== null ? false : undefined}>
        <summary>
          <strong>Game days</strong>: {entries.length} guided scenarios
          {current ? '' : ' (or break the cluster yourself below)'}
        </summary>
        <ol className="picker-list">
          <li>
            <a href={scenarioHref(null)} aria-current={current === null ? 'page' : undefined}>
              <strong>Free play</strong> <span className="hint">break the cluster yourself</span>
            </a>
          </li>
          {entries.map((s) => (
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
      {problems.length > 0 && (
        <div role="alert" className="field-errors">
          {problems.map((p) => (
            <p key={p.file}>
              {p.file} could not be loaded: {p.errors.join('; ')}
            </p>
          ))}
        </div>
      )}
    </nav>
  );
}
