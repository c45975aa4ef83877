// One scene, filling its frame, without page chrome: for docs. Each embed has its own store and
// clock, so several on one page run independently.
import { lazy, Suspense, useEffect, useMemo, useRef } from 'react';
import { applyTheme } from '../app/ThemeToggle';
import { readPageParams } from '../app/urlParams';
import { FrameClock } from '../store/clock';
import { LabProvider, useLab, useLabShallow } from '../store/context';
import { createLabStore } from '../store/labStore';
import { SceneBoundary } from '../ui/SceneBoundary';
import { readEmbedOptions, SCENES, type SceneName } from './sceneParam';

// Each scene is its own chunk: an embed loads the one it shows, not all four.
const VIEWS: Record<SceneName, React.LazyExoticComponent<() => React.ReactElement>> = {
  cluster: lazy(() =>
    import('../../scenes/ClusterScene/ClusterScene').then((m) => ({ default: m.ClusterScene })),
  ),
  chain: lazy(() => import('../../scenes/ChainScene/ChainScene').then((m) => ({ default: m.ChainScene }))),
  'metric-line': lazy(() =>
    import('../../scenes/MetricLineScene/MetricLineScene').then((m) => ({ default: m.MetricLineScene })),
  ),
  failover: lazy(() =>
    import('../../scenes/FailoverTimelineScene/FailoverTimelineScene').then((m) => ({
      default: m.FailoverTimelineScene,
    })),
  ),
};

export function EmbedApp() {
  const page = useMemo(() => readPageParams(window.location.search), []);
  const opts = useMemo(() => readEmbedOptions(window.location.search), []);
  const store = useMemo(() => {
    const s = createLabStore({
      experiment: page.experiment,
      commands: page.commands,
      speed: page.speed,
      playing: opts.autoplay && page.atMs === 0,
    });
    if (page.atMs > 0) s.getState().seek(page.atMs);
    return s;
  }, [page, opts]);
  useEffect(() => applyTheme(opts.theme), [opts]);
  useEffect(() => {
    const clock = new FrameClock(store);
    clock.start();
    // A scenario's run has an end; an embed stops there instead of running on forever.
    const until = page.scenario ? store.getState().experiment.untilMs : Infinity;
    const stop = store.onFrame((frame) => {
      const s = store.getState();
      if (s.playing && frame.nowMs >= until) s.pause();
    });
    return () => {
      clock.stop();
      stop();
    };
  }, [store, page]);
  useReportHeight(opts.id);
  const View = VIEWS[opts.scene];
  const problems = [...page.problems, ...opts.problems];
  return (
    <LabProvider store={store}>
      <main
        className={`embed embed-${opts.scene}`}
        aria-label={`${SCENES[opts.scene]}${page.scenario ? `: ${page.scenario.title}` : ''}`}
      >
        {problems.length > 0 && (
          <p className="banner banner-warn" role="alert">
            Shown with defaults: {problems.join('; ')}.
          </p>
        )}
        {opts.controls === 'minimal' && <MiniControls title={page.scenario?.title ?? null} />}
        <SceneBoundary name={SCENES[opts.scene].toLowerCase()}>
          <Suspense
            fallback={<p className="embed-loading">Loading the {SCENES[opts.scene].toLowerCase()}…</p>}
          >
            <View />
          </Suspense>
        </SceneBoundary>
      </main>
    </LabProvider>
  );
}

function MiniControls({ title }: { title: string | null }) {
  const { playing, togglePlay, seek } = useLabShallow((s) => ({
    playing: s.playing,
    togglePlay: s.togglePlay,
    seek: s.seek,
  }));
  const now = useLab((s) => Math.floor(s.snapshot.nowMs / 1000));
  return (
    <div className="embed-controls" role="group" aria-label="Playback">
      <button type="button" className="btn" onClick={togglePlay} aria-label={playing ? 'Pause' : 'Play'}>
        {playing ? '❚❚' : '▶'}
      </button>
      <button
        type="button"
        className="btn"
        onClick={() => {
          seek(0);
        }}
        aria-label="Restart from the beginning"
      >
        ↺
      </button>
      <span className="mono">{now} s</span>
      {title && <span className="embed-title">{title}</span>}
      <a className="embed-open" href={`./${window.location.search}`} target="_blank" rel="noopener">
        Open in the lab
      </a>
    </div>
  );
}

/** Tell the host page our content height, so a custom element can size its frame to fit. */
function useReportHeight(id: string | null): void {
  const last = useRef(0);
  useEffect(() => {
    if (!id || window.parent === window) return;
    const send = () => {
      const h = Math.ceil(document.documentElement.scrollHeight);
      if (h === last.current) return;
      last.current = h;
      window.parent.postMessage({ type: 'leader-election-scene:height', id, height: h }, '*');
    };
    const ro = new ResizeObserver(send);
    ro.observe(document.body);
    send();
    return () => ro.disconnect();
  }, [id]);
}
