// The lab on a real run, live or recorded, under the page's banner, with its hosts and the simulator's take.
import type { ReactNode } from 'react';
import type { LabStore } from '../../store/labStore';
import type { RecordingView } from '../../store/backends/recordingView';
import { Lab } from '../Lab';
import { HelpOverlay } from '../present/HelpOverlay';
import { usePageKeys } from '../present/usePageKeys';
import { KeyNote } from '../present/KeyNote';
import { RealHosts } from './RealHosts';
import { SimCompare } from './SimCompare';
import './real.css';

/** The lab on a real run, with the simulator's keys for what it can do for real, through its commands. */
export function RealLab(props: {
  store: LabStore;
  backend: RecordingView;
  tagline: string;
  banner: ReactNode;
}) {
  const { store, backend } = props;
  const keys = usePageKeys(store, null);
  return (
    <main>
      <HelpOverlay open={keys.helpOpen} onClose={keys.closeHelp} shortcuts={keys.shortcuts} />
      <Lab
        store={store}
        header={<RealHeader tagline={props.tagline} />}
        extraTabs={[
          {
            id: 'sim-compare',
            title: 'Compare with the simulator',
            content: <SimCompare backend={backend} />,
          },
        ]}
        notices={
          <>
            {props.banner}
            <KeyNote note={keys.keyNote} />
            <RealHosts recording={backend.recording} />
          </>
        }
      />
    </main>
  );
}

export function RealHeader({ tagline }: { tagline: string }) {
  return (
    <header className="app-header">
      <div className="app-title">
        <h1>Leader Election Lab</h1>
        <p className="tagline">{tagline}</p>
      </div>
    </header>
  );
}
