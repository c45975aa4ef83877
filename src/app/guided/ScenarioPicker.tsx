// The scenario picker, its groups folded so the menu fits a screen. Choosing one opens it by deep link,
// so the address bar always says what is on screen.
import { useEffect, useRef, useState } from 'react';
import { catalog, loadAllScenarios, scenarioTitle, type CatalogProblem } from '../../scenario/catalog';
import { whenIdle } from '../Later';
import { RUN_PARAMS } from '../../shared/params';
import { GAME_DAY_GROUPS } from '../../scenario/groups';

export function scenarioHref(id: string | null, step?: number): string {
  const q = new URLSearchParams(window.location.search);
  // Parameters of the run on screen go: a scenario brings its own (and a run link would win over it).
  for (const k of RUN_PARAMS) q.delete(k);
  if (id) q.set('scenario', id);
  if (id && step !== undefined && step > 0) q.set('step', String(step + 1));
  const s = q.toString();
  return `${window.location.pathname}${s ? `?${s}` : ''}`;
}

/** A link to a game day, by its title (its id while the catalog does not know it). */
export const ScenarioLink = ({ id }: { id: string }) => (
  <a href={scenarioHref(id)}>{scenarioTitle(id) ?? id}</a>
);

/**
 * The files that do not validate, checked once the picker first opens (the page's start fetches only its
 * link's), one per idle moment so checking never holds up the page; the index lists them all meanwhile.
 */
function useCatalogProblems(opened: boolean): CatalogProblem[] {
  const [problems, setProblems] = useState<CatalogProblem[]>([]);
  // Renders again once the files are in, with their descriptions.
  const [, setLoaded] = useState(false);
  useEffect(() => {
    if (!opened) return;
    let live = true;
    const step = () => {
      if (!live) return;
      if (catalog.checkNext()) whenIdle(step);
      else setProblems(catalog.problems);
    };
    void loadAllScenarios().then(() => {
      if (live) setLoaded(true);
      whenIdle(step);
    });
    return () => {
      live = false;
    };
  }, [opened]);
  return problems;
}

export function ScenarioPicker({ current }: { current: string | null }) {
  const [opened, setOpened] = useState(false);
  const problems = useCatalogProblems(opened);
  const broken = new Set(problems.map((p) => p.file));
  const entries = catalog.index.filter((e) => !broken.has(e.file));
  const menu = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    const close = (e: Event) => {
      const d = menu.current;
      const key = e instanceof KeyboardEvent;
      if (!d?.open || (key ? e.key !== 'Escape' : d.contains(e.target as Node))) return;
      d.open = false;
      if (key) d.querySelector('summary')?.focus();
    };
    document.addEventListener('click', close);
    document.addEventListener('keydown', close);
    return () => {
      document.removeEventListener('click', close);
      document.removeEventListener('keydown', close);
    };
  }, []);
  const shown = entries.find((e) => e.id === current);
  // A file naming no known group is listed last until its check drops it and says why.
  const groups = [
    ...GAME_DAY_GROUPS.map((g) => ({ ...g, entries: entries.filter((e) => e.group === g.id) })),
    {
      id: 'unchecked',
      title: 'Not in a group',
      entries: entries.filter((e) => !GAME_DAY_GROUPS.some((g) => g.id === e.group)),
    },
  ].filter((g) => g.entries.length > 0);
  return (
    <nav className="picker" aria-label="Game days">
      <details ref={menu} onToggle={(e) => e.currentTarget.open && setOpened(true)}>
        <summary className="btn">{shown ? 'Game day ▾' : 'Game days ▾'}</summary>
        <div className="picker-pop">
          <p className="picker-lead">
            <strong>{entries.length} guided scenarios</strong>, or{' '}
            <a href={scenarioHref(null)} aria-current={current === null ? 'page' : undefined}>
              free play
            </a>{' '}
            <span className="hint">(break the cluster yourself)</span>
          </p>
          {groups.map((g) => (
            <details
              key={g.id}
              className="picker-group"
              data-group={g.id}
              open={g.id === shown?.group || undefined}
            >
              <summary>
                {g.title} <span className="hint">({g.entries.length})</span>
              </summary>
              <ol className="picker-list">
                {g.entries.map((s) => (
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
          ))}
        </div>
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
