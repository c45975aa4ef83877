// "Compare with the simulator": the run so far beside the simulator's replay of it (simCompare.ts).
// Computed when asked, as a replay of minutes of run takes a moment.
import { useState } from 'react';
import { loadAlgorithm } from '../../engine';
import { useLab } from '../../store/context';
import type { RunView } from '../../store/backend';
import { formatSeconds } from '../../store/format';
import { compareWithSimulator, stepPath, type Comparison } from './simCompare';

const W = 600;
const H = 80;

/** A real run's backend: live, or its recording opened from a file. */
type RealRunView = Pick<RunView, 'experiment' | 'commands' | 'samples' | 'events' | 'nowMs'>;

export function SimCompare({ backend }: { backend: RealRunView }) {
  const failovers = useLab((s) => s.snapshot.failovers);
  const [result, setResult] = useState<Comparison | { error: string } | null>(null);
  const run = () =>
    loadAlgorithm(backend.experiment.algorithm).then(
      () =>
        setResult(
          compareWithSimulator(
            backend.experiment,
            backend.commands,
            { samples: backend.samples, failovers, events: backend.events },
            backend.nowMs,
          ),
        ),
      () => setResult({ error: "the simulator's etcd recipe could not be loaded (offline?); try again" }),
    );
  return (
    <section className="sim-compare" data-testid="sim-compare">
      <p className="hint">
        The simulator replays this run&apos;s commands, at the same moments, on etcd&apos;s election recipe
        with this run&apos;s TTL, renew deadline and fencing.
      </p>
      <button type="button" className="btn" onClick={run}>
        {result ? 'Compare again, up to now' : 'Replay these commands in the simulator'}
      </button>
      {result && 'error' in result && (
        <p className="banner banner-warn" role="alert">
          {result.error}
        </p>
      )}
      {result && !('error' in result) && <ComparisonView c={result} />}
    </section>
  );
}

const cell = (ms: number | undefined) => (ms === undefined ? '-' : formatSeconds(ms));

function ComparisonView({ c }: { c: Comparison }) {
  const rows = Math.max(c.real.failoverMs.length, c.sim.failoverMs.length);
  return (
    <>
      <svg
        className="sim-compare-chart"
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-label={`leader_count observed over ${formatSeconds(c.untilMs)}: the real cluster, and the simulator's replay`}
      >
        <path className="sim-compare-real" d={stepPath(c.real.points, c.untilMs, W, H)} />
        <path className="sim-compare-sim" d={stepPath(c.sim.points, c.untilMs, W, H)} />
      </svg>
      <p className="sim-compare-key">
        <span className="sim-compare-swatch sim-compare-real" /> real leader_count{' '}
        <span className="sim-compare-swatch sim-compare-sim" /> simulator&apos;s (dashed), 0 to 2, over{' '}
        {formatSeconds(c.untilMs)}
      </p>
      <table className="sim-compare-table" data-testid="sim-compare-table">
        <thead>
          <tr>
            <th scope="col" />
            <th scope="col">real</th>
            <th scope="col">simulator</th>
          </tr>
        </thead>
        <tbody>
          {Array.from({ length: rows }, (_, i) => (
            <tr key={i}>
              <th scope="row">failover {i + 1}: lost to elected</th>
              <td className="mono">{cell(c.real.failoverMs[i])}</td>
              <td className="mono">{cell(c.sim.failoverMs[i])}</td>
            </tr>
          ))}
          <tr>
            <th scope="row">zombie writes rejected</th>
            <td className="mono">{c.real.rejected}</td>
            <td className="mono">{c.sim.rejected}</td>
          </tr>
          <tr>
            <th scope="row">stale writes accepted</th>
            <td className="mono">{c.real.staleAccepted}</td>
            <td className="mono">{c.sim.staleAccepted}</td>
          </tr>
        </tbody>
      </table>
      {c.skipped.length > 0 && (
        <p className="hint">Not replayed (the simulator has no such fault): {c.skipped.join('; ')}</p>
      )}
    </>
  );
}
