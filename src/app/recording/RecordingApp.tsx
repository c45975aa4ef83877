// A real run's recording, folded from its events by the live page's fold: time can be played and
// scrubbed, but there are no fault controls, as nothing runs now to apply a fault to.
import { useEffect, useMemo } from 'react';
import { createLabStore } from '../../store/labStore';
import { RealSettings } from '../real/RealBanner';
import { RealLab } from '../real/RealLab';
import { formatSeconds } from '../../store/format';
import type { OpenedRecording } from './openRecording';

export function runDate(epochMs: number): string {
  return new Date(epochMs).toLocaleString(undefined, { dateStyle: 'long', timeStyle: 'short' });
}

export function RecordingApp({ recording }: { recording: OpenedRecording }) {
  const { backend, name } = recording;
  const store = useMemo(() => {
    const s = createLabStore({ experiment: backend.experiment, makeBackend: () => backend, playing: false });
    // Publish the moment it opens at, its length and log: a paused lab publishes nothing by itself.
    s.getState().seek(backend.nowMs);
    return s;
  }, [backend]);
  // Played to its end, the recording stops there (nothing comes after it).
  useEffect(
    () =>
      store.onFrame(() => {
        if (store.getState().playing && backend.nowMs >= backend.untilMs) store.getState().pause();
      }),
    [store, backend],
  );
  const s = backend.record.settings;
  return (
    <RealLab
      store={store}
      backend={backend}
      tagline="A real run on etcd, replayed from its recording."
      banner={
        <section className="banner real-banner" aria-label="Recording" data-testid="recording-banner">
          <p className="real-banner-title">
            <strong>A recording of a real run from {runDate(backend.record.startedAtEpochMs)}</strong>:{' '}
            {s.nodes} etcd members, {s.nodes} candidate processes and a fenced storage on the machine that ran
            it, {formatSeconds(backend.untilMs)} recorded ({name}). What it shows is folded from the recorded
            events as the live page folded them; nothing runs now, so no fault can be applied.
          </p>
          <RealSettings settings={s} />
          <p className="real-banner-settings">
            <a href="./">Open the simulator</a>, or start a real run with <code>npm run lab:real</code>.
          </p>
        </section>
      }
    />
  );
}
