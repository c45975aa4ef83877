// Real mode's banner: a real etcd cluster on this machine, how it started, whether the page follows it,
// and what the page does not offer for real, with the reason.
import { useEffect, useState } from 'react';
import { keepAliveEveryMs, type RunSettings } from '../../real/model/settings';
import type { LiveBackend, LiveStatus } from '../../store/backends/liveBackend';

const STATUS: Record<LiveStatus, string> = {
  connecting: 'connecting to its event stream…',
  live: 'live: time runs at wall speed',
  reconnecting: 'the run is not answering (did it end?): the page keeps trying',
  ended: 'the run has ended: what was recorded can still be scrubbed',
};

/** What the engine offers and a real run does not, as the bridge names it, in the page's words. */
const HIDDEN: [string, string][] = [
  ['seekForward', 'speed, stepping and jumping ahead'],
  ['clockRate', 'clock rates'],
  ['campaign', 'forcing an election'],
  ['write', 'writes on demand'],
  ['quorum', 'the quorum switch'],
  ['preVote', 'the pre-vote switch'],
];

export function RealBanner({ backend }: { backend: LiveBackend }) {
  const [status, setStatus] = useState(backend.status);
  useEffect(() => {
    setStatus(backend.status);
    return backend.onStatus(() => setStatus(backend.status));
  }, [backend]);
  const s = backend.capabilities.settings;
  const why = backend.capabilities.notForReal ?? {};
  return (
    <section
      className="banner real-banner"
      aria-label="Real mode"
      data-testid="real-banner"
      data-status={status}
    >
      <p className="real-banner-title">
        <strong>A real etcd cluster on this machine</strong>: {s.nodes} etcd members, {s.nodes} candidate
        processes and a fenced storage. <span data-testid="real-status">{STATUS[status]}</span>
      </p>
      <RealSettings settings={s} />
      <details className="real-banner-hidden">
        <summary>What is not offered here, and why</summary>
        <ul>
          {HIDDEN.filter(([k]) => why[k]).map(([k, what]) => (
            <li key={k}>
              <strong>{what}</strong>: {why[k]}
            </li>
          ))}
          <li>
            <strong>message dots</strong>: etcd&apos;s own traffic is not observed, so none are drawn.
          </li>
          <li>
            <strong>setup, sharing and the failure explorer</strong>: they belong to the simulator; a real run
            is set up by the options of <code>npm run lab:real</code>.
          </li>
        </ul>
      </details>
    </section>
  );
}

/** How the run was started: etcd's timing and the candidates' session. */
export function RealSettings({ settings: s }: { settings: RunSettings }) {
  return (
    <p className="real-banner-settings">
      etcd heartbeat {s.heartbeatMs} ms, election timeout {s.electionMs} ms, pre-vote{' '}
      {s.preVote ? 'on' : 'off'} (fixed at start); session TTL {s.ttlMs / 1000} s, keep-alive every{' '}
      {keepAliveEveryMs(s)} ms
      {s.renewDeadlineMs !== null ? `, renew deadline ${s.renewDeadlineMs} ms` : ''}; warm-up {s.warmUpMs} ms,
      a write every {s.writeEveryMs} ms.
    </p>
  );
}
