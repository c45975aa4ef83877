// One scene, filling its frame, without page chrome: for docs. Each embed has its own store and
// clock, so several on one page run independently. It reads the same parameters as the lab
// (src/shared/params.ts) and shares nothing else with the lab's page code.
import { Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { applyTheme } from '../shared/theme';
import { readEmbedParams } from '../shared/link';
import { queryFor } from '../shared/params';
import { embedHeightOf, sceneById } from '../shared/scenes';
import { sceneView } from '../shared/SceneView';
import { FrameClock } from '../store/clock';
import { LabProvider, useLab, useLabShallow } from '../store/context';
import { createLabStore, type LabStore } from '../store/labStore';
import { SceneBoundary } from '../ui/SceneBoundary';
import { SceneHostContext } from '../ui/sceneHost';

const HOST = { controls: false, density: 'full' } as const;

/**
 * Play a scenario up to the start of a step, as the lab's guided mode would, then let go. Guided
 * mode's code loads only for an embed that names a step: most embeds do not, and every KB an
 * embed fetches is a docs page's.
 */
async function openAtStep(store: LabStore, params: ReturnType<typeof readEmbedParams>): Promise<void> {
  if (!params.scenario || params.step <= 0) return;
  const { createGuidedStore } = await import('../store/guidedStore');
  createGuidedStore(store, params.scenario).getState().goTo(params.step);
}

/** Whether the store shows the moment the link asks for (a step is played up to first). */
function useOpened(store: LabStore, params: ReturnType<typeof readEmbedParams>): boolean {
  const [opened, setOpened] = useState(!(params.scenario && params.step > 0));
  useEffect(() => {
    if (opened) return;
    let live = true;
    const done = () => {
      if (!live) return;
      if (params.atMs > 0) store.getState().seek(params.atMs);
      if (params.playing) store.getState().play();
      else store.getState().pause();
      setOpened(true);
    };
    openAtStep(store, params).then(done, done);
    return () => {
      live = false;
    };
  }, [store, params, opened]);
  return opened;
}

export function EmbedApp() {
  const params = useMemo(() => readEmbedParams(window.location.search), []);
  const scene = sceneById(params.scene);
  const store = useMemo(() => {
    const s = createLabStore({
      experiment: params.experiment,
      commands: params.commands,
      speed: params.speed,
      playing: false,
    });
    // Without a step the moment is known at once; with one, useOpened plays up to it first.
    if (!(params.scenario && params.step > 0)) {
      if (params.atMs > 0) s.getState().seek(params.atMs);
      if (params.playing) s.getState().play();
    }
    return s;
  }, [params]);
  useHostTheme(params);
  useEffect(() => {
    const clock = new FrameClock(store);
    clock.start();
    // A scenario's run has an end; an embed stops there instead of running on forever.
    const until = params.scenario ? store.getState().experiment.untilMs : Infinity;
    const stop = store.onFrame((frame) => {
      const s = store.getState();
      if (s.playing && frame.nowMs >= until) s.pause();
    });
    return () => {
      clock.stop();
      stop();
    };
  }, [store, params]);
  const opened = useOpened(store, params);
  const title = `Leader Election Lab: ${scene.title}${params.scenario ? `, ${params.scenario.title}` : ''}`;
  const main = useReportHeight(params.id, title);
  const View = sceneView(scene);
  const step = params.scenario && params.step > 0 ? params.scenario.steps[params.step] : null;
  return (
    <LabProvider store={store}>
      <SceneHostContext.Provider value={HOST}>
        <main
          ref={main}
          className={`embed embed-${scene.id}`}
          // Reserved from the first frame: the frame holding it (an iframe's fixed height, or the
          // element's, which fits what it is told) stays one height while the scene loads and runs.
          style={{ minHeight: embedHeightOf(scene, store.getState().experiment, step !== null) }}
          aria-label={`${scene.title}${params.scenario ? `: ${params.scenario.title}` : ''}`}
        >
          {params.problems.length > 0 && (
            <div className="banner banner-warn" role="alert">
              <p>Some parameters were not used as given:</p>
              <ul>
                {params.problems.map((p) => (
                  <li key={p}>{p}</li>
                ))}
              </ul>
            </div>
          )}
          {params.controls === 'minimal' && <MiniControls title={params.scenario?.title ?? null} />}
          {step && (
            <p className="embed-caption" data-testid="embed-caption">
              <span className="hint">
                Step {params.step + 1} of {params.scenario!.steps.length}:
              </span>{' '}
              {step.caption}
            </p>
          )}
          <SceneBoundary name={scene.name}>
            <Suspense fallback={<p className="embed-loading">Loading the {scene.name}…</p>}>
              {opened ? <View /> : <p className="embed-loading">Playing up to the step…</p>}
            </Suspense>
          </SceneBoundary>
        </main>
      </SceneHostContext.Provider>
    </LabProvider>
  );
}

function MiniControls({ title }: { title: string | null }) {
  const { playing, togglePlay, seek, canSeek } = useLabShallow((s) => ({
    playing: s.playing,
    togglePlay: s.togglePlay,
    seek: s.seek,
    canSeek: s.can.seek,
  }));
  const now = useLab((s) => Math.floor(s.snapshot.nowMs / 1000));
  return (
    <div className="embed-controls" role="group" aria-label="Playback">
      <button type="button" className="btn" onClick={togglePlay} aria-label={playing ? 'Pause' : 'Play'}>
        {playing ? '❚❚' : '▶'}
      </button>
      {canSeek && (
        <button type="button" className="btn" onClick={() => seek(0)} aria-label="Restart from the beginning">
          ↺
        </button>
      )}
      <span className="mono">{now} s</span>
      {title && <span className="embed-title">{title}</span>}
      <a
        className="embed-open"
        href={`./${queryFor(window.location.search, 'lab')}`}
        target="_blank"
        rel="noopener"
      >
        Open in the lab
      </a>
    </div>
  );
}

/**
 * Tell the host page how tall the content is, so a custom element can size its frame to fit,
 * larger or smaller. The content's own box is measured: the document's scrollHeight is never
 * less than the frame itself, so a frame sized by it could grow but never shrink.
 */
function useReportHeight(id: string | null, title: string): React.RefObject<HTMLElement | null> {
  const main = useRef<HTMLElement>(null);
  const last = useRef(0);
  useEffect(() => {
    const el = main.current;
    if (!id || !el || window.parent === window) return;
    const send = () => {
      const h = Math.ceil(el.getBoundingClientRect().bottom + window.scrollY);
      if (h === last.current || h <= 0) return;
      last.current = h;
      window.parent.postMessage({ type: 'leader-election-scene:height', id, height: h, title }, '*');
    };
    const ro = new ResizeObserver(send);
    ro.observe(el);
    send();
    return () => ro.disconnect();
  }, [id, title]);
  return main;
}

/**
 * The link's theme, then whatever the host element says (its `theme` attribute changed, or, with
 * `theme="inherit"`, the host page's own): applied in place, so the run goes on.
 */
function useHostTheme(params: ReturnType<typeof readEmbedParams>): void {
  useEffect(() => {
    applyTheme(params.theme);
    if (!params.id || window.parent === window) return;
    const onMessage = (e: MessageEvent) => {
      const data = e.data as { type?: string; id?: string; theme?: string } | null;
      if (e.source !== window.parent || data?.type !== 'leader-election-scene:theme' || data.id !== params.id)
        return;
      if (data.theme === 'light' || data.theme === 'dark' || data.theme === 'system') applyTheme(data.theme);
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [params]);
}
