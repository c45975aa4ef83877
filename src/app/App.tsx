import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { usePageKeys } from './present/usePageKeys';
import { KeyNote } from './present/KeyNote';
import { OpenRecording, type OpenedRecording } from './recording/openRecording';
import { createGuidedStore } from '../store/guidedStore';
import { createLabStore } from '../store/labStore';
import { readPageParams } from '../shared/link';
import { readRealLink } from '../store/backends/liveParams';
import { AppHeader } from './AppHeader';
import { Lab } from './Lab';
import { Later } from './Later';
import { autosave, lastSession } from './session';

// In a tab, or shown only on request: their code loads apart, after the lab is up.
const loadLearn = () => import('./learn/Learn');
const Learn = lazy(() => loadLearn().then((m) => ({ default: m.Learn })));
const loadHelp = () => import('./present/HelpOverlay');
const HelpOverlay = lazy(() => loadHelp().then((m) => ({ default: m.HelpOverlay })));

// Real mode (`?real=<bridge>&token=...`, as npm run lab:real opens it) and a recording have their own code.
const RealApp = lazy(() => import('./real/RealApp').then((m) => ({ default: m.RealApp })));
const RecordingApp = lazy(() =>
  import('./recording/RecordingApp').then((m) => ({ default: m.RecordingApp })),
);

export function App() {
  const real = useMemo(() => readRealLink(window.location.search), []);
  // A real run's recording replaces the page that imported it: its events are far more than a URL carries.
  const [recording, setRecording] = useState<OpenedRecording | null>(null);
  let page;
  if (recording)
    page = (
      <Suspense fallback={<p className="hint">Loading the recording…</p>}>
        <RecordingApp key={recording.id} recording={recording} />
      </Suspense>
    );
  else if (real)
    page = (
      <Suspense fallback={<p className="hint">Loading the real lab…</p>}>
        <RealApp link={real} />
      </Suspense>
    );
  else page = <SimApp />;
  return <OpenRecording.Provider value={setRecording}>{page}</OpenRecording.Provider>;
}

function SimApp() {
  const params = useMemo(() => readPageParams(window.location.search), []);
  // Read before autosave can overwrite it with this (fallback) run.
  const [saved] = useState(() => (params.badRun ? lastSession() : null));
  const store = useMemo(() => {
    const s = createLabStore(params);
    // A link into a game day replays it to its step first (below); then to its moment.
    if (params.atMs > 0 && !params.scenario) s.getState().seek(params.atMs);
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
    if (params.atMs > 0) {
      // A shared moment of a game day: the narration of its step, the run at its moment, paused.
      store.getState().seek(params.atMs);
      store.getState().pause();
    }
    return detach;
  }, [guided, params, store]);
  useEffect(() => (params.badRun ? undefined : autosave(store)), [store, params]);
  const keys = usePageKeys(store, guided, params.present);
  const notices = (
    <>
      {params.problems.length > 0 && (
        <div className="banner banner-warn link-problems" role="alert" data-testid="link-problems">
          <p>Some of this link could not be read or used as given:</p>
          <ul>
            {params.problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
          {saved && (
            <a className="btn" href={`?run=${saved}`}>
              Restore your last session
            </a>
          )}
        </div>
      )}
      <KeyNote note={keys.keyNote} />
    </>
  );
  return (
    <>
      <Later order={7} load={loadHelp}>
        <Suspense fallback={null}>
          <HelpOverlay
            open={keys.helpOpen}
            onClose={keys.closeHelp}
            shortcuts={keys.shortcuts}
            present={keys.present}
          />
        </Suspense>
      </Later>
      <main>
        <Lab
          store={store}
          guided={guided}
          header={<AppHeader keys={keys} theme={params.theme} scenario={params.scenario?.id ?? null} />}
          notices={notices}
          present={keys.present}
          learn={
            <Later order={6} load={loadLearn}>
              <Suspense fallback={null}>
                <Learn />
              </Suspense>
            </Later>
          }
        />
      </main>
    </>
  );
}
