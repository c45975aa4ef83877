// Failover timeline: bars for detection, election and warm-up with their durations, told apart by pattern
// and label, not colour alone (sums: failoverModel.ts). Compact (the first screen): the latest one only.
import { scaleLinear } from '../../src/ui/linearScale';
import { useLab } from '../../src/store/context';
import { algorithmFor } from '../../src/engine';
import { useSceneHost } from '../../src/ui/sceneHost';
import { failoverBars } from './failoverModel';
import { formatSeconds as sec } from '../../src/store/format';
import './failoverTimeline.css';

/** What the note says while a failover is under way, by why no leader answers. */
const UNDER_WAY = {
  'no-leader':
    'A failover is under way: no leader now (leader_count 0, believed and observed). Its bar appears once a new leader is elected.',
  paused:
    'No leader answers now: the leader is paused and fails its scrape (observed leader_count 0, which pages; it still believes it leads). If it does not wake in time, a failover follows; its bar appears once a new leader is elected.',
};

export function FailoverTimelineScene() {
  const failovers = useLab((s) => s.snapshot.failovers);
  const nowMs = useLab((s) => (s.snapshot.failovers.some((f) => f.readyAtMs < 0) ? s.snapshot.nowMs : 0));
  const epoch = useLab((s) => algorithmFor(s.experiment.algorithm).words.epoch);
  const { controls, density } = useSceneHost();
  const compact = density === 'compact';
  const bars = failoverBars(failovers, nowMs, epoch).slice(compact ? -1 : -6);
  // Under way, no bar until someone is elected: say so. Paging follows observed leader_count (a paused leader
  // fails its scrape); before the first leader nothing fails over (Kubernetes' first holder has token 0).
  const underWay = useLab((s) =>
    s.snapshot.counters.maxLeaderCount === 0 || s.snapshot.leaderCountObserved > 0
      ? null
      : s.snapshot.leaderCount === 0
        ? 'no-leader'
        : 'paused',
  );
  const startedAtMs = useLab((s) => s.snapshot.startedAtMs);
  const maxMs = Math.max(20_000, ...bars.map((b) => b.totalMs));
  const x = scaleLinear([0, maxMs], [0, 100]);
  return (
    <section
      className="failover-scene"
      aria-labelledby="failover-title"
      data-testid="failover-timeline"
      data-density={density}
      // On the first screen: one height, longer words scroll (layout.css); focusable, for the keyboard.
      tabIndex={compact ? 0 : undefined}
    >
      <h2 id="failover-title">Failover timeline</h2>
      {/* The first screen keeps room for the bar: start-up and "no failover yet" are one short note. */}
      {(!compact || (bars.length === 0 && !underWay)) && (
        <p className="hint" data-testid="failover-starting">
          {startedAtMs < 0
            ? `Starting: the cluster is electing its first leader. Start-up is not an outage: nothing pages${compact ? '' : ', and no failover is measured from it'}.`
            : compact
              ? `First leader elected at ${sec(startedAtMs)} (start-up, not an outage). No failover yet${controls ? ': kill or pause the leader to measure one' : ' in this run'}.`
              : `Start-up: the first leader was elected at ${sec(startedAtMs)}; failovers are measured from the fault that caused each.`}
        </p>
      )}
      {underWay && (
        <p className="hint" data-testid="failover-under-way">
          {UNDER_WAY[underWay]}
        </p>
      )}
      {!compact && bars.length === 0 && !underWay && (
        <p className="hint">
          {controls
            ? 'No failover yet. Kill or pause the leader to measure one: detection, election, warm-up.'
            : 'No failover yet in this run. Each one shows here as detection, election and warm-up.'}
        </p>
      )}
      {bars.length > 0 && (
        <ol className="failover-list">
          {bars.map((b) => (
            <li key={b.key}>
              <p className="failover-label">
                <span className="mono">{sec(b.lostAtMs)}</span> {b.label}: <strong>{sec(b.totalMs)}</strong>
                {!b.complete && ' (still warming up)'}
              </p>
              <p className="failover-sums hint" data-testid="failover-sums">
                {b.stillCounted === null ? (
                  <>
                    no leader <strong className="mono">{sec(b.withoutLeaderMs)}</strong> (detection +
                    election) · no service <strong className="mono">{sec(b.totalMs)}</strong>
                    {/* One line on the first screen, where the phases' key just above names warm-up. */}
                    {b.complete ? (compact ? '' : ' (with warm-up)') : ' so far'}
                  </>
                ) : (
                  <>
                    a new leader after <strong className="mono">{sec(b.withoutLeaderMs)}</strong>,{' '}
                    {b.complete ? 'serving after' : 'not serving yet at'}{' '}
                    <strong className="mono">{sec(b.totalMs)}</strong>; leader_count still counted{' '}
                    {b.stillCounted}, so the chart&apos;s time without a leader is shorter
                  </>
                )}
              </p>
              <div
                className="failover-bar"
                role="img"
                aria-label={b.phases.map((p) => `${p.name} ${sec(p.durationMs)}`).join(', ')}
              >
                {b.phases.map((p) => (
                  <span
                    key={p.name}
                    className={`phase phase-${p.name}${p.name === b.longest ? ' phase-longest' : ''}`}
                    style={{ width: `${x(p.durationMs)}%` }}
                  />
                ))}
              </div>
              <ul className="phase-legend">
                {b.phases.map((p) => (
                  <li key={p.name} className={`legend-${p.name}`}>
                    <span className={`swatch phase-${p.name}`} aria-hidden="true" /> {p.name}{' '}
                    {sec(p.durationMs)}
                    {p.name === b.longest ? ' (longest)' : ''}
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
