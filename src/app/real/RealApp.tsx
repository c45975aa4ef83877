// The lab page in real mode: the same lab on a real etcd cluster through the LiveBackend. Every way the
// link can fail is shown by name, with the way back to the simulator.
import { useEffect, useState } from 'react';
import { loadAlgorithm } from '../../engine';
import { createLabStore, type LabStore } from '../../store/labStore';
import { LiveBackend } from '../../store/backends/liveBackend';
import { openRealRun, RealLinkError, type RealLink } from '../../store/backends/liveParams';
import { RealBanner } from './RealBanner';
import { RealHeader, RealLab } from './RealLab';

const TAGLINE =
  "The same lab on a real system: etcd members, candidates using etcd's election recipe, and a fenced storage, each a process on this machine.";

type Opened = { store: LabStore; backend: LiveBackend } | { error: RealLinkError } | null;

function asLinkError(err: unknown): RealLinkError {
  return err instanceof RealLinkError ? err : new RealLinkError('bridge unreachable', String(err));
}

export function RealApp({ link }: { link: RealLink | RealLinkError }) {
  const [opened, setOpened] = useState<Opened>(() =>
    link instanceof RealLinkError ? { error: link } : null,
  );
  useEffect(() => {
    if (link instanceof RealLinkError) return;
    let backend: LiveBackend | null = null;
    let cancelled = false;
    openRealRun(link)
      .then(async ({ capabilities, runStartEpochMs }) => {
        const live = new LiveBackend(link, capabilities, runStartEpochMs);
        // The page speaks the twin's algorithm (its description loads with its rules).
        await loadAlgorithm(live.experiment.algorithm);
        if (cancelled) return;
        backend = live;
        const store = createLabStore({ experiment: live.experiment, makeBackend: () => live, playing: true });
        live.onProblem((message) => store.setState({ error: message }));
        live.connect();
        setOpened({ store, backend: live });
      })
      .catch((err: unknown) => !cancelled && setOpened({ error: asLinkError(err) }));
    return () => {
      cancelled = true;
      backend?.dispose();
    };
  }, [link]);

  if (opened === null)
    return (
      <main className="real-opening">
        <RealHeader tagline={TAGLINE} />
        <p className="hint" role="status">
          Connecting to the real run…
        </p>
      </main>
    );
  if ('error' in opened)
    return (
      <main>
        <RealHeader tagline={TAGLINE} />
        <div className="banner banner-warn real-link-error" role="alert" data-testid="real-link-error">
          <p>
            <strong data-testid="real-link-error-name">{opened.error.error}</strong>: {opened.error.message}
          </p>
          <p>
            Start a real run with <code>npm run lab:real</code> and open the link it prints, or{' '}
            <a href="./">open the simulator</a>.
          </p>
        </div>
      </main>
    );
  const { store, backend } = opened;
  return (
    <RealLab store={store} backend={backend} tagline={TAGLINE} banner={<RealBanner backend={backend} />} />
  );
}
