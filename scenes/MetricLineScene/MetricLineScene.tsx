// The SLI view: leader_count observed and believed (leaderLines.ts), paging bands, faults and small multiples
// over simulated time. Reads the lab from context, so several share a page; the host supplies the frame.
import { useId, useRef, useState, type ReactNode } from 'react';
import { formatSeconds } from '../../src/store/format';
import { ariaSummary, type ChartModel } from './chartModel';
import { ChartSvg } from './ChartSvg';
import { formatDuration, formatTick, type WindowMode } from './metricModel';
import { LESSON, pagingText } from './leaderLines';
import { formatRate } from './clientView';
import { useContainerSize, useMetricChart } from './useMetricChart';
import { useSceneHost } from '../../src/ui/sceneHost';
import { useLab } from '../../src/store/context';
import './metricLineScene.css';

const MODES: [WindowMode, string][] = [
  ['recent', 'Last 60 s'],
  ['whole', 'Whole run'],
];

function ModeToggle({ mode, onChange }: { mode: WindowMode; onChange: (m: WindowMode) => void }) {
  return (
    <div className="metric-toggle" role="group" aria-label="Time range">
      {MODES.map(([m, label]) => (
        <button key={m} type="button" className="btn" aria-pressed={mode === m} onClick={() => onChange(m)}>
          {label}
        </button>
      ))}
    </div>
  );
}

/** A row of the chart's data table: a signal, its figure now, and what it did in the range shown. */
function Row({ signal, now, range }: { signal: string; now: ReactNode; range?: ReactNode }) {
  return (
    <tr>
      <th scope="row">{signal}</th>
      <td>{now}</td>
      <td>{range}</td>
    </tr>
  );
}

function Stat({ label, value, testId }: { label: string; value: ReactNode; testId?: string }) {
  return (
    <span data-testid={testId}>
      {`${label} `}
      <strong className="mono">{value}</strong>
    </span>
  );
}

function DataTable({ chart }: { chart: ChartModel }) {
  const f = chart.facts;
  const span = chart.windowMs.x1 - chart.windowMs.x0;
  const from = formatTick(chart.windowMs.x0, span);
  const to = formatTick(chart.windowMs.x1, span);
  return (
    <table className="visually-hidden">
      <caption>
        Signals from {from} to {to} of simulated time
      </caption>
      <thead>
        <tr>
          <th scope="col">signal</th>
          <th scope="col">now</th>
          <th scope="col">in this range</th>
        </tr>
      </thead>
      <tbody>
        <Row
          signal="leader_count observed (scraped; this line pages)"
          now={`${f.leaderCountObserved}; ${pagingText(f.paging)}`}
          range={`lowest ${f.minObserved}, highest ${f.maxObserved}; paged on no leader for ${formatSeconds(f.pagedMs['no-leader'])}, on split brain for ${formatSeconds(f.pagedMs['split-brain'])} (pages on 0 and on 2 or more)`}
        />
        <Row
          signal="leader_count believed (paused leaders included)"
          now={f.leaderCount}
          range={`lowest ${f.minLeaderCount}, highest ${f.maxLeaderCount}; ${LESSON}`}
        />
        <Row
          signal="fencing rejections"
          now={`${f.fencingRejections} in total`}
          range={`at most ${f.peakRejectionsPerBin} per ${formatDuration(f.binMs)}`}
        />
        <Row signal="leadership transitions" now={`${f.leaderTransitions} in total`} />
        {f.watchNotifications !== null && (
          <Row
            signal="watch notifications, and the reads they triggered"
            now={`${f.watchNotifications} notifications and ${f.watchReads} reads in total`}
            range={`at most ${f.peakNotificationsPerBin} notifications and ${f.peakReadsPerBin} reads per ${formatDuration(f.binMs)}`}
          />
        )}
        {f.clients && (
          <Row
            signal="clients: failed writes per second, and the latency of served writes"
            now={`${formatRate(f.clients.errorsPerS)}, ${f.clients.latencyMs === null ? 'none served' : `served in ${formatDuration(f.clients.latencyMs)} on average`} over the last second; ${f.clients.errors} failed and ${f.clients.served} served in total`}
            range={`at most ${formatRate(f.clients.peakErrorsPerS)} per ${formatDuration(f.binMs)}; served latency peak ${formatDuration(f.clients.peakLatencyMs)} (from a write's first try, retries included)`}
          />
        )}
        <Row
          signal="renewal latency"
          now={formatDuration(f.renewalLatencyMs)}
          range={`peak ${formatDuration(f.peakLatencyMs)}${f.renewLimit ? `; the leader stops at ${formatDuration(f.renewLimit.ms)} (${f.renewLimit.label})` : ''}`}
        />
        <Row
          signal="time without a leader (observed 0, after start-up)"
          now={formatSeconds(f.msWithoutLeader)}
        />
        <tr>
          <th scope="row">faults</th>
          <td colSpan={2}>
            {chart.faults.length
              ? chart.faults.map((x) => `${formatSeconds(x.atMs)}: ${x.label}`).join('; ')
              : 'none'}
          </td>
        </tr>
      </tbody>
    </table>
  );
}

export function MetricLineScene() {
  const uid = useId().replace(/[^a-zA-Z0-9_-]/g, '');
  const headingId = `${uid}-heading`;
  const box = useRef<HTMLDivElement>(null);
  const [mode, setMode] = useState<WindowMode>('recent');
  const size = useContainerSize(box);
  // On the lab's first screen the chart fills the space it is given, leader_count alone.
  const compact = useSceneHost().density === 'compact';
  const chart = useMetricChart(
    mode,
    size.width,
    compact && size.height > 0 ? size.height : undefined,
    size.fontPx,
  );
  const f = chart.facts;
  // Writes an old primary lost on resync (Snapshot.writesLost), where they can be (Redis Sentinel: no token).
  const writesLost = useLab((s) => s.snapshot.writesLost);
  return (
    <section
      className="metric-scene"
      aria-labelledby={headingId}
      data-density={compact ? 'compact' : 'full'}
      data-observed={f.leaderCountObserved}
      data-believed={f.leaderCount}
      data-paging={f.paging}
      data-drawn-ms={chart.nowMs}
    >
      <header className="metric-header">
        <h2 id={headingId} className="mono">
          leader_count
        </h2>
        <ModeToggle mode={mode} onChange={setMode} />
        <p className="metric-stats">
          <Stat label="observed" value={f.leaderCountObserved} />
          <Stat label="believed" value={f.leaderCount} />
          <Stat label="time without a leader:" value={formatSeconds(f.msWithoutLeader)} />
          <Stat label="fencing rejections:" value={f.fencingRejections} />
          <Stat label="transitions:" value={f.leaderTransitions} />
          {f.watchNotifications !== null && (
            <span data-testid="metric-watches">
              watch notifications: <strong className="mono">{f.watchNotifications}</strong>, reads:{' '}
              <strong className="mono">{f.watchReads}</strong>
            </span>
          )}
          {writesLost !== undefined && (
            <Stat label="acknowledged writes lost:" value={writesLost} testId="metric-writes-lost" />
          )}
          {f.clients && (
            <span
              data-testid="metric-clients"
              data-errors-per-s={f.clients.errorsPerS}
              data-latency-ms={f.clients.latencyMs ?? ''}
            >
              clients: <strong className="mono">{formatRate(f.clients.errorsPerS)}</strong>, served latency{' '}
              <strong className="mono">
                {f.clients.latencyMs === null ? 'none served' : formatDuration(f.clients.latencyMs)}
              </strong>
            </span>
          )}
        </p>
      </header>
      <div ref={box} className="metric-chart">
        <ChartSvg chart={chart} uid={uid} label={ariaSummary(f)} />
      </div>
      <DataTable chart={chart} />
    </section>
  );
}
