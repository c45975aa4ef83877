// Setup: cluster size, witness, lease timing (validated inline with the engine's own rule),
// network delay, clients and seed apply on reset; the safety switches apply live and are
// recorded like any other command, so a replay toggles them at the same moment.
import { useState } from 'react';
import { ALGORITHM_SETTINGS, validateLeaseTiming, type Experiment } from '../../engine';
import { useLabShallow } from '../../store/context';

type Draft = {
  nodes: number;
  witness: boolean;
  durationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
  delayMsMin: number;
  delayMsMax: number;
  clients: number;
  seed: number;
};

function toDraft(e: Experiment): Draft {
  const lease = e.lease ?? ALGORITHM_SETTINGS.lease();
  return {
    nodes: e.nodes,
    witness: e.witness ?? false,
    durationMs: lease.durationMs,
    renewDeadlineMs: lease.renewDeadlineMs,
    retryPeriodMs: lease.retryPeriodMs,
    delayMsMin: e.network.delayMsMin,
    delayMsMax: e.network.delayMsMax,
    clients: e.workload.clients,
    seed: e.seed,
  };
}

const SWITCHES: { key: keyof Experiment['safety']; label: string; why: string }[] = [
  { key: 'quorum', label: 'Quorum', why: 'a leader needs a strict majority of the configured voters' },
  { key: 'fencing', label: 'Fencing', why: 'storage rejects writes with a token below the highest seen' },
  {
    key: 'followersReject',
    label: 'Followers reject',
    why: 'non-leaders answer writes with an error and a redirect',
  },
  { key: 'preVote', label: 'Pre-vote', why: 'a node raises its term only if a majority would vote for it' },
];

export function SetupPanel() {
  const { experiment, safety, command, reset, setupErrors } = useLabShallow((s) => ({
    experiment: s.experiment,
    safety: s.snapshot.safety,
    command: s.command,
    reset: s.reset,
    setupErrors: s.setupErrors,
  }));
  const [draft, setDraft] = useState<Draft>(() => toDraft(experiment));
  const leaseErrors = validateLeaseTiming({
    durationMs: draft.durationMs,
    renewDeadlineMs: draft.renewDeadlineMs,
    retryPeriodMs: draft.retryPeriodMs,
  });
  const set = <K extends keyof Draft>(k: K, v: Draft[K]) => setDraft((d) => ({ ...d, [k]: v }));
  const num = (k: keyof Draft, label: string, min: number, max: number, unit = 'ms') => (
    <label className="field">
      <span>{label}</span>
      <input
        type="number"
        className="num"
        min={min}
        max={max}
        value={draft[k] as number}
        aria-invalid={leaseErrors.some((e) => e.field.endsWith(k)) || undefined}
        onChange={(e) => set(k, Number(e.target.value) as never)}
      />
      <span className="unit">{unit}</span>
    </label>
  );
  const apply = () =>
    reset({
      ...experiment,
      seed: draft.seed,
      nodes: draft.nodes,
      witness: draft.witness,
      lease: {
        ...experiment.lease,
        durationMs: draft.durationMs,
        renewDeadlineMs: draft.renewDeadlineMs,
        retryPeriodMs: draft.retryPeriodMs,
      },
      network: { delayMsMin: draft.delayMsMin, delayMsMax: draft.delayMsMax },
      workload: { ...experiment.workload, clients: draft.clients },
      safety,
      faults: [],
    });
  return (
    <div className="panel setup-panel" aria-labelledby="setup-title">
      <h2 id="setup-title">Setup</h2>
      <fieldset>
        <legend>Safety (applies now)</legend>
        {SWITCHES.map((s) => (
          <label key={s.key} className="switch" title={s.why}>
            <input
              type="checkbox"
              role="switch"
              checked={safety[s.key] === true}
              onChange={(e) => command({ do: 'safety', [s.key]: e.target.checked })}
              aria-describedby={`why-${s.key}`}
            />
            {s.label}
            <span id={`why-${s.key}`} className="visually-hidden">
              {s.why}
            </span>
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>Cluster (applies on reset)</legend>
        <label className="field">
          <span>Nodes</span>
          <select
            value={draft.nodes}
            onChange={(e) => set('nodes', Number(e.target.value))}
            aria-label="Cluster size"
          >
            {[1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </label>
        <label className="switch">
          <input type="checkbox" checked={draft.witness} onChange={(e) => set('witness', e.target.checked)} />
          Witness
        </label>
        {num('durationMs', 'Lease duration', 1, 3_600_000)}
        {num('renewDeadlineMs', 'Renew deadline', 1, 3_600_000)}
        {num('retryPeriodMs', 'Retry period', 1, 3_600_000)}
        {leaseErrors.length > 0 && (
          <ul className="field-errors" role="alert">
            {leaseErrors.map((e) => (
              <li key={e.field}>{e.message}</li>
            ))}
          </ul>
        )}
        {num('delayMsMin', 'Delay min', 0, 60_000)}
        {num('delayMsMax', 'Delay max', 0, 60_000)}
        {num('clients', 'Clients', 0, 2000, '')}
        {num('seed', 'Seed', 0, 4294967295, '')}
        {setupErrors.length > 0 && (
          <ul className="field-errors" role="alert">
            {setupErrors.map((e) => (
              <li key={e.field + e.message}>
                {e.field}: {e.message}
              </li>
            ))}
          </ul>
        )}
        <button type="button" className="btn" onClick={apply} disabled={leaseErrors.length > 0}>
          Reset with this setup
        </button>
      </fieldset>
    </div>
  );
}
