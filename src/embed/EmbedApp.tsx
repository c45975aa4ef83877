// One scene filling its frame, for docs. Each embed has its own store and clock, so several on a page run
// independently; it shares only the parameters (src/shared/params.ts) with the lab's page code.
import { Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { applyTheme } from '../shared/theme';
import { readEmbedParams } from '../shared/link';
import { queryFor } from '../shared/params';
import { fillCaption } from '../scenario/claims';
import { embedHeightOf, embedName, sceneById } from '../shared/scenes';
import { sceneView } from '../shared/SceneView';
import { FrameClock } from '../store/clock';
import { LabProvider, useLab, useLabShallow } from '../store/context';
import { createLabStore, type LabStore } from '../store/labStore';
import type { GuidedStore } from '../store/guidedStore';
import { SceneBoundary } from '../ui/SceneBoundary';

type Params = ReturnType<typeof readEmbedParams>;

/** Play a scenario up to a step. Its code loads only for an embed that names one: most do not. */
async function openAtStep(store: LabStore, params: Params): Promise<GuidedStore | null> {
  if (!params.scenario || params.step <= 0) return null;
  const { createGuidedStore } = await import('../store/guidedStore');
  const guided = createGuidedStore(store, params.scenario);
  // Following the lab before it plays up to the step, as App.tsx does, for as long as the embed shows.
  guided.attach();
  guided.getState().goTo(params.step);
  return guided;
}

/** The store at the link's moment (played up to its step first) and the step's narration: null until then. */
function useOpened(store: LabStore, params: Params): { guided: GuidedStore | null } | null {
  const [opened, setOpened] = useState<{ guided: GuidedStore | null } | null>(
    params.scenario && params.step > 0 ? null : { guided: null },
  );
  useEffect(() => {
    if (opened) return;
    let live = true;
    const done = (guided: GuidedStore | null) => {
      if (!live) return;
      if (params.atMs > 0) store.getState().seek(params.atMs);
      if (params.playing) store.getState().play();
      else store.getState().pause();
      setOpened({ guided });
    };
    openAtStep(store, params).then(done, () => done(null));
    return () => {
      live = false;
    };
  }, [store, params, opened]);
  return opened;
}

/** How long an embed that plays through a game day stays on a step that has ended, to be read. */
const READ_MS = 3000;

/**
 * With no Next button, an ended step stays a moment (paused, as guided mode does), then gives way to the
 * next; Play on it goes on at once. Guided mode pauses after the status changes: `playing` says it played.
 */
function useFollowSteps(store: LabStore, guided: GuidedStore | null, playing: boolean): void {
  useEffect(() => {
    if (!guided) return;
    let timer = 0;
    const ended = () => guided.getState().status === 'met' || guided.getState().status === 'timeout';
    const goOn = () => {
      window.clearTimeout(timer);
      timer = window.setTimeout(() => ended() && guided.getState().next(), READ_MS);
    };
    // The step opened may have ended already, while the embed started playing.
    if (ended() && playing) goOn();
    const stopGuided = guided.subscribe((g, before) => {
      if (before.status === 'waiting' && g.status !== 'waiting' && ended() && store.getState().playing)
        goOn();
    });
    const stopLab = store.subscribe((s, before) => {
      if (!s.playing || before.playing || !ended()) return;
      window.clearTimeout(timer);
      guided.getState().next();
    });
    return () => {
      window.clearTimeout(timer);
      stopGuided();
      stopLab();
    };
  }, [store, guided, playing]);
}

export function EmbedApp() {
  const params = useMemo(() => readEmbedParams(window.location.search), []);
  const scene = sceneById(params.scene);
  const store = useMemo(() => {
    // Without a step the moment is known at once; with one, useOpened plays up to it first.
    const known = !(params.scenario && params.step > 0);
    const s = createLabStore({ ...params, playing: known && params.playing });
    if (known && params.atMs > 0) s.getState().seek(params.atMs);
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
  const guided = opened?.guided ?? null;
  useFollowSteps(store, guided, params.playing);
  const name = embedName(scene, params.scenario?.title ?? null);
  const title = `Leader Election Lab: ${name}`;
  const main = useReportHeight(params.id, title);
  const View = sceneView(scene);
  const captions = params.scenario && params.step > 0 ? params.scenario.steps.map((s) => s.caption) : [];
  return (
    <LabProvider store={store}>
      <main
        ref={main}
        className={`embed embed-${scene.id}`}
        // Reserved from the first frame: the frame holding it stays one height while the scene loads.
        style={{ minHeight: embedHeightOf(scene, store.getState().experiment, captions) }}
        aria-label={name}
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
        {params.controls === 'minimal' && (
          <MiniControls title={params.scenario?.title ?? null} guided={guided} />
        )}
        {guided && <StepCaption guided={guided} />}
        <SceneBoundary name={scene.name}>
          <Suspense fallback={<p className="embed-loading">Loading the {scene.name}…</p>}>
            {opened ? <View /> : <p className="embed-loading">Playing up to the step…</p>}
          </Suspense>
        </SceneBoundary>
      </main>
    </LabProvider>
  );
}

function StepCaption({ guided }: { guided: GuidedStore }) {
  const { step, scenario, status } = useStore(
    guided,
    useShallow((g) => ({ step: g.step, scenario: g.scenario, status: g.status })),
  );
  // The caption's numbers are the run's at the pause it describes, as in the lab's guided panel.
  const paused = useLab((s) => (status === 'waiting' ? null : s.snapshot));
  return (
    <p className="embed-caption" data-testid="embed-caption">
      <span className="hint">
        Game day, step {step + 1} of {scenario.steps.length}:
      </span>{' '}
      {fillCaption(scenario.steps[step].caption, paused)}
    </p>
  );
}

function MiniControls({ title, guided }: { title: string | null; guided: GuidedStore | null }) {
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
        <button
          type="button"
          className="btn"
          // A game day starts over from its first step, its caption with it.
          onClick={() => (guided ? guided.getState().goTo(0) : seek(0))}
          aria-label="Restart from the beginning"
        >
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
 * Tell the host page how tall the content is, so the element can size its frame to fit: the content's own
 * box, as the document's scrollHeight is never less than the frame, which then could never shrink.
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

/** The link's theme, then whatever the host element says: applied in place, so the run goes on. */
function useHostTheme(params: Params): void {
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
