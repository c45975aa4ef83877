// The whole lab for one store: stage, scenes and controls. Mounted once on the hosted page;
// each embed mounts its own store and a single scene instead.
import { useEffect, useMemo } from 'react';
import { ClusterScene } from '../../scenes/ClusterScene/ClusterScene';
import { ChainScene } from '../../scenes/ChainScene/ChainScene';
import { MetricLineScene } from '../../scenes/MetricLineScene/MetricLineScene';
import { FrameClock } from '../store/clock';
import { LabProvider, useLab } from '../store/context';
import type { LabStore } from '../store/labStore';
import { EventLog } from './controls/EventLog';
import { NodePanel } from './controls/NodePanel';
import { PartitionPanel } from './controls/PartitionPanel';
import { SafetyBanner } from './controls/SafetyBanner';
import { SetupPanel } from './controls/SetupPanel';
import { TimeControls } from './controls/TimeControls';

export function Lab({ store }: { store: LabStore }) {
  const clock = useMemo(() => new FrameClock(store), [store]);
  useEffect(() => {
    clock.start();
    return () => clock.stop();
  }, [clock]);
  return (
    <LabProvider store={store}>
      <div className="lab">
        <SafetyBanner />
        <CommandError />
        <div className="lab-grid">
          <div className="panel stage-panel">
            <TimeControls />
            <ClusterScene />
          </div>
          <div className="side">
            <NodePanel />
            <PartitionPanel />
          </div>
          <div className="panel chain-panel">
            <ChainScene />
          </div>
          <div className="panel metric-panel">
            <MetricLineScene />
          </div>
          <EventLog />
          <SetupPanel />
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
