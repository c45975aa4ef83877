import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useShortcuts } from './present/useShortcuts';
import { createGuidedStore } from '../store/guidedStore';
import { createLabStore } from '../store/labStore';
import { ScenarioPicker } from './guided/ScenarioPicker';
import { Lab } from './Lab';
import { Later } from './Later';
import { autosave, lastSession } from './session';
import { ThemeToggle } from './ThemeToggle';
import { readPageParams } from './urlParams';

// Below the lab, or shown only on request: their code loads apart, after the lab is up.
const loadLearn = () => import('./learn/Learn');
const Learn = lazy(() => loadLearn().then((m) => ({ default: m.Learn })));
const loadHelp = () => import('./present/HelpOverlay');
const HelpOverlay = lazy(() => loadHelp().then((m) => ({ default: m.HelpOverlay })));

export function App() {
  const params = useMemo(() => readPageParams(window.location.search), []);
  // Read before autosave can overwrite it with this (fallback) run.
  const [saved] = useState(() => (params.badRun ? lastSession() : null));
  const store = useMemo(() => {
    const s = createLabStore({
      experiment: params.experiment,
      commands: params.commands,
      speed: params.speed,
      playing: params.playing,
    });
    if (params.atMs > 0) s.getState().seek(params.atMs);
    return s;
  }, [params]);
  const guided = useMemo(
    () => (params.scenario ? createGuidedStore(store, params.scenario) : null),
    [store, params],
  );
  useEffect(() => {
    if (!guided) return;
    const detach = guided.attach();
    if (params.step > 0 && guided.getState().step !== params.step) guided.getState().goTo(params.step);
    return detach;
  }, [guided, params]);
  useEffect(() => (params.badRun ? undefined : autosave(store)), [store, params]);
  const [helpOpen, setHelpOpen] = useState(false);
  const [controlsHidden, setControlsHidden] = useState(false);
  const view = useMemo(
    () => ({
      toggleHelp: () => setHelpOpen((o) => !o),
      closeHelp: () => {
        let was = false;
        setHelpOpen((o) => ((was = o), false));
        return was;
      },
      toggleControls: () => setControlsHidden((h) => !h),
      toggleFullscreen: () => {
        if (document.fullscreenElement) void document.exitFullscreen();
        else void document.documentElement.requestFullscreen?.().catch(() => undefined);
      },
    }),
    [],
  );
  useShortcuts(store, guided, view);
  useEffect(() => {
    const root = document.documentElement.classList;
    root.toggle('present', params.present);
    root.toggle('controls-hidden', controlsHidden);
  }, [params, controlsHidden]);
  return (
    <>
      <header className="app-header">
        <div>
          <h1>Leader Election Lab</h1>
          <p className="tagline">
            Break a cluster and watch the pattern hold: a quorum elects one leader, a lease bounds how long it
            may act, and a fencing token checked at the storage stops a zombie's writes.
          </p>
        </div>
        <div className="header-tools">
          {params.present ? (
            <>
              <button type="button" className="btn" onClick={view.toggleFullscreen}>
                Full screen
              </button>
              <button
                type="button"
                className="btn"
                onClick={() => setControlsHidden((h) => !h)}
                aria-pressed={controlsHidden}
              >
                Hide controls
              </button>
              <a className="btn" href={presentHref(false)}>
                Exit presentation
              </a>
            </>
          ) : (
            <a className="btn" href={presentHref(true)}>
              Present
            </a>
          )}
          <button type="button" className="btn" onClick={view.toggleHelp} aria-label="Keyboard shortcuts">
            Keys ?
          </button>
          <ThemeToggle />
        </div>
      </header>
      <Later order={7} load={loadHelp}>
        <Suspense fallback={null}>
          <HelpOverlay open={helpOpen} onClose={() => setHelpOpen(false)} />
        </Suspense>
      </Later>
      {params.problems.length > 0 && (
        <div className="banner banner-warn" role="alert" data-testid="link-problems">
          <p>
            Some of this link could not be read, so the lab opened with defaults instead:{' '}
            {params.problems.join('; ')}.
          </p>
          {saved && (
            <a className="btn" href={`?run=${saved}`}>
              Restore your last session
            </a>
          )}
        </div>
      )}
      <main>
        <ScenarioPicker current={params.scenario?.id ?? null} />
        <Lab store={store} guided={guided} />
        <Later order={6} load={loadLearn}>
          <Suspense fallback={null}>
            <Learn />
          </Suspense>
        </Later>
      </main>
    </>
  );
}

function presentHref(on: boolean): string {
  const q = new URLSearchParams(window.location.search);
  if (on) q.set('present', '');
  else q.delete('present');
  const s = q.toString().replace(/present=(&|$)/, 'present$1');
  return `${window.location.pathname}${s ? `?${s}` : ''}`;
}
