// The whole lab for one store: stage, scenes and controls. Mounted once on the hosted page;
// each embed mounts its own store and a single scene instead.
import {
  lazy,
  Suspense,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ComponentProps,
  type ReactNode,
} from 'react';
import { ClusterScene } from '../../scenes/ClusterScene/ClusterScene';
import { ChainScene } from '../../scenes/ChainScene/ChainScene';
import { MetricLineScene } from '../../scenes/MetricLineScene/MetricLineScene';
import { FailoverTimelineScene } from '../../scenes/FailoverTimelineScene/FailoverTimelineScene';
import { FrameClock } from '../store/clock';
import { LabGate, LabProvider, useLab } from '../store/context';
import type { LabStore } from '../store/labStore';
import type { GuidedStore } from '../store/guidedStore';
import { GuidedPanel } from './guided/GuidedPanel';
import { EmbedButton } from './controls/EmbedButton';
import { EventLog } from './controls/EventLog';
import { NodePanel } from './controls/NodePanel';
import { PartitionPanel } from './controls/PartitionPanel';
import { SafetyBanner } from './controls/SafetyBanner';
import { SetupPanel } from './controls/SetupPanel';
import { TimeControls } from './controls/TimeControls';
import { SceneBoundary } from '../ui/SceneBoundary';
import { Later, StagedMount, whenSettled } from './Later';

// Export is the lab's largest control and the last panel on the page: its code loads apart.
const loadExport = () => import('./export/ExportPanel');
const ExportPanel = lazy(() => loadExport().then((m) => ({ default: m.ExportPanel })));

/**
 * A scene in its panel: its "Embed this" button, an error boundary of its own, and a gate that
 * stops it following the lab while the panel is scrolled out of view.
 */
function ScenePanel({
  className,
  scene,
  name,
  before,
  children,
}: {
  className: string;
  scene: ComponentProps<typeof EmbedButton>['scene'];
  name: string;
  before?: ReactNode;
  children: ReactNode;
}) {
  const panel = useRef<HTMLDivElement>(null);
  return (
    <div className={`panel ${className}`} ref={panel}>
      {/* Controls follow the live lab even while the panel is out of sight: a key or a script can
          play, pause or seek then, and the button must say what the lab is doing. */}
      {before}
      <LabGate watch={panel}>
        <div className="scene-tools">
          <EmbedButton scene={scene} />
        </div>
        <SceneBoundary name={name}>{children}</SceneBoundary>
      </LabGate>
    </div>
  );
}

export function Lab({ store, guided = null }: { store: LabStore; guided?: GuidedStore | null }) {
  const clock = useMemo(() => new FrameClock(store), [store]);
  const watch = useWatch(guided);
  const staged = useContext(StagedMount);
  // On the hosted page the simulation starts once the page has finished mounting, so its frames
  // never queue behind (or lengthen) the mounting steps.
  useEffect(() => {
    const cancel = whenSettled(() => clock.start(), staged);
    return () => {
      cancel();
      clock.stop();
    };
  }, [clock, staged]);
  return (
    <LabProvider store={store}>
      <div className="lab" data-watch={watch}>
        {guided && (
          <SceneBoundary name="guided panel">
            <GuidedPanel guided={guided} />
          </SceneBoundary>
        )}
        <SafetyBanner />
        <CommandError />
        <div className="lab-grid">
          <ScenePanel className="stage-panel" scene="cluster" name="cluster stage" before={<TimeControls />}>
            <ClusterScene />
          </ScenePanel>
          <div className="side">
            <NodePanel />
            <PartitionPanel />
          </div>
          {/* Below the first screen on a phone and a laptop: each mounts in its own step. The
              event log stays in the first: on a wide screen it sits beside the stage. */}
          <Later order={1}>
            <ScenePanel className="chain-panel" scene="chain" name="fencing chain">
              <ChainScene />
            </ScenePanel>
          </Later>
          <Later order={2}>
            <ScenePanel className="metric-panel" scene="metric-line" name="leader_count chart">
              <MetricLineScene />
            </ScenePanel>
          </Later>
          <Later order={3}>
            <ScenePanel className="failover-panel" scene="failover" name="failover timeline">
              <FailoverTimelineScene />
            </ScenePanel>
          </Later>
          <EventLog />
          <Later order={4}>
            <SetupPanel />
          </Later>
          <Later order={5} load={loadExport}>
            <Suspense fallback={null}>
              <ExportPanel />
            </Suspense>
          </Later>
        </div>
      </div>
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
      <button type="button" className="btn" onClick={clear}>
        Dismiss
      </button>
    </div>
  );
}

/** The view the current guided step asks the reader to watch (highlighted by CSS). */
function useWatch(guided: GuidedStore | null): string | undefined {
  const [watch, setWatch] = useState<string | undefined>();
  useEffect(() => {
    if (!guided) return;
    const read = () => {
      const g = guided.getState();
      setWatch(g.scenario.steps[g.step].watch?.view);
    };
    read();
    return guided.subscribe(read);
  }, [guided]);
  return watch;
}
