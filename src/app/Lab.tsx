// The whole lab for one store: stage, scenes and controls. Mounted once on the hosted page;
// each embed mounts its own store and a single scene instead.
import { useEffect, useMemo, useState } from 'react';
import { ClusterScene } from '../../scenes/ClusterScene/ClusterScene';
import { ChainScene } from '../../scenes/ChainScene/ChainScene';
import { MetricLineScene } from '../../scenes/MetricLineScene/MetricLineScene';
import { FailoverTimelineScene } from '../../scenes/FailoverTimelineScene/FailoverTimelineScene';
import { FrameClock } from '../store/clock';
import { LabProvider, useLab } from '../store/context';
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
import { ExportPanel } from './export/ExportPanel';
import { SceneBoundary } from '../ui/SceneBoundary';

export function Lab({ store, guided = null }: { store: LabStore; guided?: GuidedStore | null }) {
  const clock = useMemo(() => new FrameClock(store), [store]);
  const watch = useWatch(guided);
  useEffect(() => {
    clock.start();
    return () => clock.stop();
  }, [clock]);
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
          <div className="panel stage-panel">
            <TimeControls />
            <div className="scene-tools">
              <EmbedButton scene="cluster" />
            </div>
            <SceneBoundary name="cluster stage">
              <ClusterScene />
            </SceneBoundary>
          </div>
          <div className="side">
            <NodePanel />
            <PartitionPanel />
          </div>
          <div className="panel chain-panel">
            <div className="scene-tools">
              <EmbedButton scene="chain" />
            </div>
            <SceneBoundary name="fencing chain">
              <ChainScene />
            </SceneBoundary>
          </div>
          <div className="panel metric-panel">
            <div className="scene-tools">
              <EmbedButton scene="metric-line" />
            </div>
            <SceneBoundary name="leader_count chart">
              <MetricLineScene />
            </SceneBoundary>
          </div>
          <div className="panel failover-panel">
            <div className="scene-tools">
              <EmbedButton scene="failover" />
            </div>
            <SceneBoundary name="failover timeline">
              <FailoverTimelineScene />
            </SceneBoundary>
          </div>
          <EventLog />
          <SetupPanel />
          <ExportPanel />
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
