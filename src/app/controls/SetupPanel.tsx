// Setup: the algorithm picker resets at once, the settings apply on reset. Each field is checked as typed
// by the engine's own parser, so the message under it is the one an experiment file would get.
import { useMemo, useState } from 'react';
import {
  ALGORITHM_KINDS,
  ALGORITHM_SETTINGS,
  // The algorithm-specific sections of an experiment, as the settings table names them.
  SETTINGS_SECTIONS as SECTIONS,
  type SettingsSection as Section,
  algorithmFor,
  parseExperiment,
  RAFT_PRESETS,
  WARM_UP_PRESETS,
  type AlgorithmKind,
  type Experiment,
  type ExperimentInput,
  type FieldError,
} from '../../engine';
// Not through the engine's index, which every page loads: only this panel says it.
import { ALGORITHM_CHOICES, pickerLine } from '../../engine/algorithms/picker';
import { presetCatalog } from '../../presets/catalog';
import type { Preset } from '../../presets/schema';
import { useLabShallow } from '../../store/context';

type Value = number | boolean | string;

interface Field {
  key: string;
  label: string;
  /** A number in ms (the default), a count, a switch, or one of a few words. */
  kind?: 'bool' | 'choice' | 'count';
  options?: readonly string[];
  why?: string;
}

/** Every section's fields, in the order the page shows them, with their sources' names. */
export const SECTION_FIELDS: Record<Section, readonly Field[]> = {
  raft: [
    { key: 'heartbeatMs', label: 'Heartbeat', why: "etcd's --heartbeat-interval" },
    {
      key: 'electionTimeoutMs',
      label: 'Election timeout',
      why: "etcd's --election-timeout; each wait is drawn from [timeout, 2 x timeout)",
    },
  ],
  lease: [
    { key: 'durationMs', label: 'Lease duration', why: 'LeaseDuration: how long a challenger waits' },
    {
      key: 'renewDeadlineMs',
      label: 'Renew deadline',
      why: 'RenewDeadline: how long one renew round may take',
    },
    { key: 'retryPeriodMs', label: 'Retry period', why: 'RetryPeriod: between two tries' },
    {
      key: 'releaseOnCancel',
      label: 'Release on cancel',
      kind: 'bool',
      why: 'ReleaseOnCancel: a stopped holder empties the Lease',
    },
  ],
  etcd: [
    { key: 'ttlMs', label: 'Session TTL', why: "the session's lease TTL; kept alive every third of it" },
    {
      key: 'renewDeadlineMs',
      label: 'Renew deadline',
      why: '0: none. Otherwise the leader stops acting when no keep-alive has succeeded for this long',
    },
  ],
  zookeeper: [
    { key: 'sessionTimeoutMs', label: 'Session timeout', why: 'negotiated between 2 and 20 ticks' },
    { key: 'tickTimeMs', label: 'Tick time', why: "the ensemble's tickTime" },
    {
      key: 'watch',
      label: 'Watch',
      kind: 'choice',
      options: ['predecessor', 'leader'],
      why: "predecessor: the recipe; leader: every candidate watches the leader's znode (the herd effect)",
    },
  ],
  sentinel: [
    {
      key: 'quorum',
      label: 'Quorum',
      kind: 'count',
      why: 'sentinels that must agree the primary is down (of 3)',
    },
    {
      key: 'downAfterMs',
      label: 'Down after',
      why: 'down-after-milliseconds: no valid PING reply for this long and a sentinel calls the primary down',
    },
    {
      key: 'failoverTimeoutMs',
      label: 'Failover timeout',
      why: 'failover-timeout: a failover not done in this long is aborted; the next try waits twice it',
    },
    {
      key: 'minReplicasToWrite',
      label: 'Min replicas to write',
      kind: 'count',
      why: 'min-replicas-to-write: 0 is off; otherwise the primary refuses writes without this many recent replicas',
    },
    {
      key: 'minReplicasMaxLagMs',
      label: 'Min replicas max lag',
      why: 'min-replicas-max-lag: a replica counts while its last acknowledgement is this recent',
    },
  ],
  stonith: [
    {
      key: 'tokenMs',
      label: 'Token timeout',
      why: "Corosync's token: a node not heard from for this long is lost",
    },
    {
      key: 'timeoutMs',
      label: 'STONITH timeout',
      why: 'stonith-timeout: how long to wait for the fence device to confirm the power-off before retrying',
    },
  ],
  bully: [
    { key: 'heartbeatMs', label: 'Heartbeat' },
    { key: 'timeoutMs', label: 'Coordinator timeout' },
    { key: 'answerTimeoutMs', label: 'Answer timeout', why: 'how long to wait for an OK' },
  ],
  ring: [
    { key: 'heartbeatMs', label: 'Heartbeat' },
    { key: 'timeoutMs', label: 'Coordinator timeout' },
    { key: 'hopMs', label: 'Hop delay', why: 'time a node takes to pass the message on' },
    { key: 'ackTimeoutMs', label: 'Ack timeout', why: 'how long before a silent successor is skipped' },
    { key: 'roundTimeoutMs', label: 'Round timeout', why: 'how long before a stalled election starts again' },
  ],
};

/** What each named warm-up stands for, as the lesson says it. */
const WARM_UP_WHY: Record<keyof typeof WARM_UP_PRESETS, string> = {
  cold: 'the new leader warms its caches and recovers its state before it serves',
  prewarmed: 'a standby already caught up and holding a warm cache serves as it takes office',
};

export type Draft = {
  algorithm: AlgorithmKind;
  nodes: number;
  witness: boolean;
  /** Every section's values, kept while another algorithm is chosen, so switching back loses nothing. */
  sections: Record<Section, Record<string, Value>>;
  delayMsMin: number;
  delayMsMax: number;
  clients: number;
  /** A new leader's warm-up before it serves: cold, a pre-warmed standby, or a duration. */
  warmUpMs: number;
  seed: number;
};

function toDraft(e: Experiment): Draft {
  const sections = {} as Draft['sections'];
  for (const s of SECTIONS) sections[s] = { ...(e[s] ?? ALGORITHM_SETTINGS[s]()) };
  // The page teaches Raft at a watchable speed: offered first, as a link's default opens it.
  if (!e.raft) sections.raft = { ...RAFT_PRESETS.teaching };
  return {
    algorithm: (e.algorithm ?? 'raft') as AlgorithmKind,
    nodes: e.nodes,
    witness: e.witness ?? false,
    sections,
    delayMsMin: e.network.delayMsMin,
    delayMsMax: e.network.delayMsMax,
    clients: e.workload.clients,
    warmUpMs: e.warmUpMs,
    seed: e.seed,
  };
}

/** The draft with a "seen in the wild" preset's algorithm, cluster size and timings. */
export function presetDraft(draft: Draft, preset: Preset): Draft {
  const r = parseExperiment(preset.experiment);
  if (!r.ok) return draft;
  const e = r.experiment;
  const sections = { ...draft.sections };
  for (const s of SECTIONS) if (e[s]) sections[s] = { ...e[s] };
  return { ...draft, algorithm: (e.algorithm ?? 'raft') as AlgorithmKind, nodes: e.nodes, sections };
}

const sectionsOf = (kind: AlgorithmKind): Section[] =>
  SECTIONS.filter((s) => algorithmFor(kind).settings.includes(s));

/** The experiment the draft describes: the current one, under the draft's algorithm and numbers. */
export function draftExperiment(
  current: Experiment,
  draft: Draft,
  safety: Experiment['safety'],
): ExperimentInput {
  const alg = algorithmFor(draft.algorithm);
  const e: Record<string, unknown> = { ...current };
  for (const s of SECTIONS) delete e[s];
  delete e.witness;
  e.algorithm = draft.algorithm;
  if (alg.settings.includes('witness')) e.witness = draft.witness;
  for (const s of sectionsOf(draft.algorithm)) e[s] = draft.sections[s];
  const safe: Record<string, boolean> = { followersReject: safety.followersReject };
  for (const k of ['quorum', 'fencing', 'preVote', 'checkQuorum'] as const)
    if (alg.settings.includes(`safety.${k}`)) safe[k] = safety[k] ?? true;
  return {
    ...e,
    seed: draft.seed,
    nodes: draft.nodes,
    network: { delayMsMin: draft.delayMsMin, delayMsMax: draft.delayMsMax },
    workload: { ...current.workload, clients: draft.clients },
    warmUpMs: draft.warmUpMs,
    safety: safe,
    faults: [],
  } as ExperimentInput;
}

export function SetupPanel() {
  const { experiment, safety, reset, setupErrors, loading } = useLabShallow((s) => ({
    experiment: s.experiment,
    safety: s.snapshot.safety,
    reset: s.reset,
    setupErrors: s.setupErrors,
    loading: s.loadingAlgorithm,
  }));
  const [draft, setDraft] = useState<Draft>(() => toDraft(experiment));
  const candidate = useMemo(() => draftExperiment(experiment, draft, safety), [experiment, draft, safety]);
  const errors: FieldError[] = useMemo(() => {
    const r = parseExperiment(candidate);
    return r.ok ? [] : r.errors;
  }, [candidate]);
  const alg = algorithmFor(draft.algorithm);
  const set = <K extends keyof Draft>(k: K, v: Draft[K]) => setDraft((d) => ({ ...d, [k]: v }));
  const setIn = (section: Section, key: string, v: Value) =>
    setDraft((d) => ({ ...d, sections: { ...d.sections, [section]: { ...d.sections[section], [key]: v } } }));
  const bad = (field: string) => errors.some((e) => e.field === field) || undefined;

  const num = (
    field: string,
    label: string,
    value: number,
    onChange: (v: number) => void,
    unit = 'ms',
    why?: string,
  ) => (
    <label className="field" key={field} title={why}>
      <span>{label}</span>
      <input
        type="number"
        className="num"
        min={0}
        value={value}
        aria-invalid={bad(field)}
        onChange={(e) => onChange(Number(e.target.value))}
      />
      <span className="unit">{unit}</span>
    </label>
  );

  const check = (key: string, label: string, on: boolean, onChange: (v: boolean) => void, why?: string) => (
    <label className="switch" key={key} title={why}>
      <input type="checkbox" checked={on} onChange={(e) => onChange(e.target.checked)} />
      {label}
    </label>
  );

  const choice = (
    key: string,
    label: string,
    value: string | number,
    options: readonly (string | number)[],
    onChange: (v: string) => void,
    why?: string,
    /** The select's own name, where its label's word is not enough. */
    name?: string,
  ) => (
    <label className="field" key={key} title={why}>
      <span>{label}</span>
      <select value={value} onChange={(e) => onChange(e.target.value)} aria-label={name}>
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </label>
  );

  const sectionField = (section: Section, f: Field) => {
    const path = `${section}.${f.key}`;
    const value = draft.sections[section][f.key];
    const onChange = (v: Value) => setIn(section, f.key, v);
    if (f.kind === 'bool') return check(path, f.label, value === true, onChange, f.why);
    if (f.kind === 'choice') return choice(path, f.label, String(value), f.options ?? [], onChange, f.why);
    return num(path, f.label, value as number, onChange, f.kind === 'count' ? '' : 'ms', f.why);
  };

  // The picker resets at once with the algorithm chosen, at the settings in the draft.
  const pick = (k: AlgorithmKind) => {
    const next = { ...draft, algorithm: k };
    setDraft(next);
    reset(draftExperiment(experiment, next, safety));
  };
  const applyPreset = (p: Preset) => {
    const next = presetDraft(draft, p);
    setDraft(next);
    // A preset may set a safety switch the system itself lacks (Redis has no token to check).
    const given = (p.experiment as { safety?: Partial<Experiment['safety']> }).safety ?? {};
    reset(draftExperiment(experiment, next, { ...safety, ...given }));
  };
  const shownErrors = errors.length > 0 ? errors : setupErrors;
  return (
    <div className="panel setup-panel" aria-labelledby="setup-title">
      <h2 id="setup-title">Setup</h2>
      <fieldset>
        <legend>Algorithm (a click resets with it)</legend>
        <ul className="algorithm-picker" aria-label="Election algorithms" data-testid="algorithm-picker">
          {ALGORITHM_KINDS.map((k) => {
            const line = pickerLine(k);
            return (
              <li key={k}>
                <button
                  type="button"
                  className="btn algorithm-choice"
                  aria-pressed={experiment.algorithm === k || (k === 'raft' && !experiment.algorithm)}
                  aria-busy={loading === k || undefined}
                  data-algorithm={k}
                  onClick={() => pick(k)}
                >
                  <strong>{algorithmFor(k).title}</strong> <span>{line.what}.</span>{' '}
                  <span className={line.safe ? 'partition-safe' : 'partition-unsafe'}>{line.partition}.</span>
                </button>
              </li>
            );
          })}
        </ul>
        <p className="hint algorithm-summary">{ALGORITHM_CHOICES[draft.algorithm].summary}</p>
      </fieldset>
      <fieldset>
        <legend>Cluster (applies on reset)</legend>
        {choice(
          'nodes',
          'Nodes',
          draft.nodes,
          [1, 2, 3, 4, 5, 6, 7, 8, 9],
          (v) => set('nodes', Number(v)),
          undefined,
          'Cluster size',
        )}
        {alg.settings.includes('witness') &&
          check('witness', 'Witness', draft.witness, (v) => set('witness', v))}
        {draft.algorithm === 'raft' && (
          <div className="presets" role="group" aria-label="Raft timing presets">
            {Object.entries(RAFT_PRESETS).map(([name, p]) => {
              const on =
                draft.sections.raft.heartbeatMs === p.heartbeatMs &&
                draft.sections.raft.electionTimeoutMs === p.electionTimeoutMs;
              return (
                <button
                  key={name}
                  type="button"
                  className="btn btn-small"
                  aria-pressed={on}
                  onClick={() => setDraft((d) => ({ ...d, sections: { ...d.sections, raft: { ...p } } }))}
                >
                  {name === 'etcd' ? "etcd's defaults" : 'Teaching'} ({p.heartbeatMs} / {p.electionTimeoutMs}{' '}
                  ms)
                </button>
              );
            })}
          </div>
        )}
        {sectionsOf(draft.algorithm).flatMap((s) => SECTION_FIELDS[s].map((f) => sectionField(s, f)))}
        {num('network.delayMsMin', 'Delay min', draft.delayMsMin, (v) => set('delayMsMin', v))}
        {num('network.delayMsMax', 'Delay max', draft.delayMsMax, (v) => set('delayMsMax', v))}
        {num('workload.clients', 'Clients', draft.clients, (v) => set('clients', v), '')}
        <div className="presets" role="group" aria-label="Warm-up" data-testid="warm-up-choice">
          {Object.entries(WARM_UP_PRESETS).map(([name, ms]) => (
            <button
              key={name}
              type="button"
              className="btn btn-small"
              aria-pressed={draft.warmUpMs === ms}
              title={WARM_UP_WHY[name as keyof typeof WARM_UP_PRESETS]}
              onClick={() => set('warmUpMs', ms)}
            >
              {name === 'cold' ? 'Cold' : 'Pre-warmed standby'} ({ms / 1000} s)
            </button>
          ))}
        </div>
        {num(
          'warmUpMs',
          'Warm-up',
          draft.warmUpMs,
          (v) => set('warmUpMs', v),
          'ms',
          'how long a new leader takes before it serves; any duration of your own',
        )}
        {num('seed', 'Seed', draft.seed, (v) => set('seed', v), '')}
        {shownErrors.length > 0 && (
          <ul className="field-errors" role="alert">
            {shownErrors.map((e) => (
              <li key={e.field + e.message}>
                {e.field}: {e.message}
              </li>
            ))}
          </ul>
        )}
        <button type="button" className="btn" onClick={() => reset(candidate)} disabled={errors.length > 0}>
          Reset with this setup
        </button>
      </fieldset>
      <fieldset>
        <legend>Seen in the wild</legend>
        <p className="hint">
          Real systems' default timings (sources in docs/seen-in-the-wild.md): a click resets with one.
        </p>
        <ul className="presets plain-list" aria-label="Seen in the wild">
          {presetCatalog.presets.map((p) => (
            <li key={p.id}>
              <button type="button" className="btn btn-small" title={p.lesson} onClick={() => applyPreset(p)}>
                {p.system}
              </button>
            </li>
          ))}
        </ul>
      </fieldset>
    </div>
  );
}
