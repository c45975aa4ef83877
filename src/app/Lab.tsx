// The whole lab for one store: a first screen holding cause and effect together (the views beside the
// controls; a phone shows one view at a time), then a strip of tabs. Each embed mounts one scene instead.
import { lazy, Suspense, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { FrameClock } from '../store/clock';
import { LabProvider, useLab } from '../store/context';
import type { LabStore } from '../store/labStore';
import type { GuidedStore } from '../store/guidedStore';
import type { Step } from '../scenario/types';
import { SCENES, sceneTitle, sceneWatching, type SceneEntry } from '../shared/scenes';
import { useStore } from 'zustand';
import { SceneHostContext, type SceneHost } from '../ui/sceneHost';
import { SceneBoundary } from '../ui/SceneBoundary';
import { GuidedPanel } from './guided/GuidedPanel';
import { GuidedContext } from './guided/GuidedContext';
import { Announcer, EventLog } from './controls/EventLog';
import { KeyPanel } from './controls/KeyPanel';
import { NodePanel } from './controls/NodePanel';
import { PartitionPanel } from './controls/PartitionPanel';
import { SafetyBanner } from './controls/SafetyBanner';
import { SafetyPanel } from './controls/SafetyPanel';
import { TimeControls } from './controls/TimeControls';
import { Later, StagedMount, whenSettled } from './Later';
import { MoreTabs, type MoreTab } from './layout/MoreTabs';
import { NextHint } from './layout/NextHint';
import { ScenePanel } from './layout/ScenePanel';
import { ViewSwitch, type PrimaryView } from './layout/ViewSwitch';
import { useStageRoom } from './layout/useStageRoom';
import { useChartRoom } from './present/useChartRoom';
import { useWide } from './layout/useWide';
import { revealView, viewElement } from './layout/reveal';

const ExportPanel = lazy(() => import('./export/ExportPanel').then((m) => ({ default: m.ExportPanel })));
const ExplorePanel = lazy(() => import('./explore/ExplorePanel').then((m) => ({ default: m.ExplorePanel })));
const SetupPanel = lazy(() => import('./controls/SetupPanel').then((m) => ({ default: m.SetupPanel })));
/** Tabs whose panels load on first open (a page only watched never fetches them); some the simulator's. */
const LOADED_TABS = [
  { id: 'setup', title: 'Setup', what: 'the setup', Panel: SetupPanel, simulatorOnly: true },
  { id: 'export', title: 'Export', what: 'the export', Panel: ExportPanel, simulatorOnly: false },
  { id: 'explore', title: 'Explore', what: 'the explorer', Panel: ExplorePanel, simulatorOnly: true },
];

/** The node panel's actions, as the menu a click on a node opens on the stage lists them. */
const NodeMenuActions = () => <NodePanel place="menu" />;

function placed(place: SceneEntry['labPlace']): SceneEntry {
  return SCENES.find((s) => s.labPlace === place) as SceneEntry;
}

export interface LabProps {
  store: LabStore;
  guided?: GuidedStore | null;
  /** The page's header, on the first screen with the lab. */
  header?: ReactNode;
  /** Notes about the link that opened the page, under the header. */
  notices?: ReactNode;
  /** Present mode: a step naming a view kept in a tab shows it in the chain's place, for a projector. */
  present?: boolean;
  /** A last tab of reading (the hosted page's "Learn"). */
  learn?: ReactNode;
  /** Tabs of the page's own, after the lab's (the real mode's comparison with the simulator). */
  extraTabs?: readonly { id: string; title: string; content: ReactNode }[];
}

export function Lab({
  store,
  guided = null,
  header,
  notices,
  present = false,
  learn,
  extraTabs = [],
}: LabProps) {
  const clock = useMemo(() => new FrameClock(store), [store]);
  const step = useStep(guided);
  const watch = step?.watch?.view;
  const spacetime = step?.spacetime;
  const watchedScene = watch ? sceneWatching(watch as never) : undefined;
  const watched = watchedScene?.id;
  // The tab whose view present mode brings up to the first screen for this step, if any.
  const raised = !present
    ? null
    : watchedScene?.labPlace === 'tab'
      ? watchedScene.id
      : watch === 'log'
        ? 'events'
        : null;
  const shownAbove = <p className="hint">On the screen above during this step of the presentation.</p>;
  const staged = useContext(StagedMount);
  const wide = useWide();
  const [view, setView] = useState<PrimaryView>('stage');
  const [tab, setTab] = useState('events');
  // Tabs loaded on first use stay mounted: a search keeps running, an export keeps its choices.
  const [opened, setOpened] = useState<ReadonlySet<string>>(() => new Set());
  useEffect(() => {
    setOpened((o) => (o.has(tab) ? o : new Set([...o, tab])));
  }, [tab]);
  const onOpen = (id: string) => tab === id || opened.has(id);
  // A step naming a view shows it (a phone's view, a tab), scrolled into view once drawn (not presenting).
  const root = useRef<HTMLDivElement>(null);
  // Present mode: a step naming another view keeps the stage only while it has room for its words.
  useStageRoom(
    root,
    present && wide && step !== undefined && watched !== 'cluster',
    watched === 'failover',
    step,
  );
  // And the chart, on a step that does not name it, only while it has room for its words.
  useChartRoom(root, present && wide && step !== undefined && watched !== 'metric-line', step);
  const toReveal = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (!watch) return;
    const scene = sceneWatching(watch as never);
    // On a phone the failover timeline comes with the chart, whose figures it breaks down.
    if (scene && scene.labPlace !== 'tab') setView(scene.labPlace === 'failover' ? 'chart' : scene.labPlace);
    else if (scene) setTab(scene.id);
    else if (watch === 'log') setTab('events');
    toReveal.current = present ? undefined : watch;
  }, [watch, present]);
  useEffect(() => {
    const v = toReveal.current;
    if (!v || !root.current) return;
    toReveal.current = undefined;
    revealView(viewElement(root.current, v as never));
  }, [watch, tab, view]);
  // A step's "See these messages": the space-time tab, brought into view once it is drawn.
  const spacetimeAsked = useRef(false);
  const openSpacetime = () => {
    spacetimeAsked.current = true;
    setTab('spacetime');
  };
  useEffect(() => {
    if (tab !== 'spacetime' || !spacetimeAsked.current || !root.current) return;
    spacetimeAsked.current = false;
    revealView(root.current.querySelector<HTMLElement>('#more-tab-spacetime'));
  }, [tab]);
  // The simulation starts once the page has mounted, so its frames never queue behind the mounting steps.
  useEffect(() => {
    const cancel = whenSettled(() => clock.start(), staged);
    return () => {
      cancel();
      clock.stop();
    };
  }, [clock, staged]);
  const host = useMemo<SceneHost>(
    () => ({ controls: true, density: wide ? 'compact' : 'full', NodeActions: NodeMenuActions, spacetime }),
    [wide, spacetime],
  );
  // Setup and the failure explorer belong to the simulator: a real run is set up by its launcher.
  const simulated = store.getState().can.replay;
  // A tab's title may follow the algorithm (etcd's election keys are not znodes).
  const experiment = useStore(store, (s) => s.experiment);
  const tabs: MoreTab[] = [
    ...SCENES.filter((s) => s.labPlace === 'tab').map((s, i) => {
      const panel = <ScenePanel scene={s} watched={watched === s.id} />;
      // A scene few readers open loads when its tab first opens, out of the first load; others once idle.
      const onFirstOpen = (s as SceneEntry).tabLoads === 'opened';
      return {
        id: s.id,
        title: sceneTitle(s, experiment),
        content:
          raised === s.id ? (
            shownAbove
          ) : !onFirstOpen ? (
            <Later order={2 + i}>{panel}</Later>
          ) : onOpen(s.id) ? (
            panel
          ) : null,
      };
    }),
    { id: 'events', title: 'Events', content: raised === 'events' ? shownAbove : <EventLog /> },
    ...LOADED_TABS.filter((t) => simulated || !t.simulatorOnly).map(({ id, title, what, Panel }) => ({
      id,
      title,
      content: onOpen(id) ? (
        <Suspense fallback={<p className="hint">{`Loading ${what}…`}</p>}>
          <Panel />
        </Suspense>
      ) : null,
    })),
    ...extraTabs,
    ...(learn ? [{ id: 'learn', title: 'Learn', content: learn }] : []),
  ];
  return (
    <LabProvider store={store}>
      <GuidedContext.Provider value={guided}>
        <SceneHostContext.Provider value={host}>
          <div
            className="lab"
            ref={root}
            data-watch={watch}
            data-view={view}
            data-guided={guided ? '' : undefined}
          >
            <div className="first-screen">
              {header}
              {notices}
              <div className="lab-status">
                <SafetyBanner />
                <CommandError />
                <Announcer />
              </div>
              <div className="lab-screen">
                <div className="area-time">
                  <TimeControls />
                </div>
                <ViewSwitch view={view} onView={setView} />
                <ScenePanel
                  scene={placed('stage')}
                  area="stage"
                  watched={watched === 'cluster'}
                  after={guided || !simulated ? null : <NextHint />}
                />
                {raised === 'events' ? (
                  <div className="area-chain area-raised">
                    <EventLog />
                  </div>
                ) : raised && watchedScene ? (
                  <ScenePanel scene={watchedScene} area="chain" watched />
                ) : (
                  <Later order={0}>
                    <ScenePanel scene={placed('chain')} area="chain" watched={watched === 'chain'} />
                  </Later>
                )}
                <Later order={1}>
                  <ScenePanel scene={placed('chart')} area="chart" watched={watched === 'metric-line'} />
                </Later>
                <Later order={1}>
                  <ScenePanel scene={placed('failover')} area="failover" watched={watched === 'failover'} />
                </Later>
                <aside className="area-side" aria-label="Controls">
                  {guided && (
                    <SceneBoundary name="guided panel">
                      <GuidedPanel
                        guided={guided}
                        onSpacetime={simulated && !present ? openSpacetime : undefined}
                      />
                    </SceneBoundary>
                  )}
                  <NodePanel />
                  <PartitionPanel />
                  <SafetyPanel />
                  {/* A narrow screen shows the key with the stage; a real run draws no message dots. */}
                  {wide && simulated && <KeyPanel />}
                </aside>
              </div>
            </div>
            <MoreTabs tabs={tabs} selected={tab} onSelect={setTab} />
          </div>
        </SceneHostContext.Provider>
      </GuidedContext.Provider>
    </LabProvider>
  );
}

function CommandError() {
  const error = useLab((s) => s.error);
  const clear = useLab((s) => s.clearError);
  if (!error) return null;
  return (
    <div className="banner banner-warn" role="alert">
      {error}{' '}
      <button type="button" className="btn btn-small" onClick={clear}>
        Dismiss
      </button>
    </div>
  );
}

/** The current guided step: the view it asks the reader to watch and what the space-time diagram shows. */
function useStep(guided: GuidedStore | null): Step | undefined {
  const [step, setStep] = useState<Step | undefined>();
  useEffect(() => {
    if (!guided) return;
    const read = () => {
      const g = guided.getState();
      setStep(g.scenario.steps[g.step]);
    };
    read();
    return guided.subscribe(read);
  }, [guided]);
  return step;
}
