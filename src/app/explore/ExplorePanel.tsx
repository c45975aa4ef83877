// "Find a failure": src/explorer searches fault schedules in a Web Worker (the page stays responsive, Stop
// is heard within a slice), on the setup with its switches as they are now and none of its own faults.
import { useEffect, useId, useRef, useState } from 'react';
import { algorithmFor, formatSeconds, INVARIANT_TITLES, type Experiment } from '../../engine';
import type { ExploreResult, FromExplorer, ToExplorer } from '../../explorer';
import { useLabStore } from '../../store/context';
import type { LabStore } from '../../store/labStore';
import { CODEC_MISSING, loadCodec, prefetchCodec } from '../../shared/codec';
import { runLink } from '../session';
import { SWITCHES } from '../controls/SafetyPanel';
import { copyText } from '../controls/ShareButton';
import './explorePanel.css';

/** What the panel needs of a worker: the browser's Worker, or an in-process stand-in in tests. */
export interface ExplorerWorker {
  postMessage(message: ToExplorer): void;
  onmessage: ((event: { data: FromExplorer }) => void) | null;
  onerror: ((event: { message?: string }) => void) | null;
  terminate(): void;
}

export function startWorker(): ExplorerWorker {
  return new Worker(new URL('../../explorer/worker.ts', import.meta.url), {
    type: 'module',
  }) as unknown as ExplorerWorker;
}

export const HORIZONS_MS = [30_000, 60_000, 120_000, 300_000];
export const DEFAULT_HORIZON_MS = 120_000;
export const DEFAULT_BUDGET = { schedules: 5000, seconds: 30 };
/** A budget in schedules still ends after this much wall time, so a slow machine is not held forever. */
const SCHEDULES_WALL_CAP_MS = 10 * 60_000;

type BudgetUnit = 'schedules' | 'seconds';

const STARTING = { tried: 0, elapsedMs: 0, perSecond: 0, found: null, shrink: null, stopping: false };

type View =
  | { kind: 'idle' }
  | {
      kind: 'running';
      unit: BudgetUnit;
      budget: number;
      tried: number;
      elapsedMs: number;
      perSecond: number;
      found: { scheduleIndex: number; atMs: number; invariant: string } | null;
      shrink: { runs: number; faults: number } | null;
      stopping: boolean;
    }
  | { kind: 'done'; result: ExploreResult; off: string[]; hasQuorum: boolean }
  | { kind: 'error'; messages: string[] };

/** The setup to explore: the experiment, its switches as they are now, none of its own faults. */
export function setupOf(store: LabStore): Experiment {
  const s = store.getState();
  const safety = { ...s.experiment.safety } as Record<string, boolean | undefined>;
  for (const [k, v] of Object.entries(s.snapshot.safety)) if (k in safety) safety[k] = v;
  return { ...s.experiment, safety: safety as Experiment['safety'], faults: [] };
}

function offSwitches(setup: Experiment): string[] {
  const safety = setup.safety as Record<string, boolean | undefined>;
  return SWITCHES.filter((s) => safety[s.key] === false).map((s) => s.label.toLowerCase());
}

const count = (n: number) => n.toLocaleString('en-US');
const schedules = (n: number) => `${count(n)} ${n === 1 ? 'schedule' : 'schedules'}`;

export function ExplorePanel({
  makeWorker = startWorker,
  navigate = (url: string) => window.location.assign(url),
}: {
  makeWorker?: () => ExplorerWorker;
  navigate?: (url: string) => void;
}) {
  const store = useLabStore();
  const id = useId();
  const [horizonMs, setHorizonMs] = useState(DEFAULT_HORIZON_MS);
  const [unit, setUnit] = useState<BudgetUnit>('schedules');
  const [budget, setBudget] = useState<number>(DEFAULT_BUDGET.schedules);
  const [view, setView] = useState<View>({ kind: 'idle' });
  const worker = useRef<ExplorerWorker | null>(null);
  const result = useRef<HTMLDivElement>(null);

  const setup = setupOf(store);
  const alg = algorithmFor(setup.algorithm);
  const off = offSwitches(setup);

  const finish = () => {
    worker.current?.terminate();
    worker.current = null;
  };
  useEffect(() => finish, []);

  const fail = (messages: string[]) => setView({ kind: 'error', messages });
  const start = () => {
    const now = setupOf(store);
    const budgetOk = Number.isInteger(budget) && budget >= 1;
    if (!budgetOk) return fail([`the budget must be a whole number of ${unit}, at least 1`]);
    let w: ExplorerWorker;
    try {
      w = makeWorker();
    } catch (e) {
      const why = (e as Error).message;
      return fail([`the search could not start: this browser could not start its worker (${why})`]);
    }
    worker.current = w;
    const hasQuorum = algorithmFor(now.algorithm).hasQuorum;
    const offNow = offSwitches(now);
    w.onerror = (e) => {
      finish();
      const why = e.message ? ` (${e.message})` : ' to load (offline, or blocked?)';
      fail([`the search stopped: its worker failed${why}; reload to try again`]);
    };
    w.onmessage = ({ data: m }) => {
      if (m.type === 'error') {
        finish();
        fail(m.errors.map((e) => `${e.field}: ${e.message}`));
      } else if (m.type === 'done') {
        finish();
        setView({ kind: 'done', result: m.result, off: offNow, hasQuorum });
        if (m.result.finding) prefetchCodec();
      } else {
        setView((v) => {
          if (v.kind !== 'running') return v;
          if (m.type === 'found')
            return {
              ...v,
              tried: m.schedulesTried,
              elapsedMs: m.elapsedMs,
              found: { scheduleIndex: m.scheduleIndex, ...m.violation },
              shrink: { runs: 0, faults: m.experiment.faults.length },
            };
          if (m.phase === 'search')
            return { ...v, tried: m.schedulesTried, elapsedMs: m.elapsedMs, perSecond: m.schedulesPerSecond };
          return { ...v, shrink: { runs: m.shrinkRuns, faults: m.faults } };
        });
      }
    };
    setView({ kind: 'running', unit, budget, ...STARTING });
    w.postMessage({
      type: 'start',
      setup: now,
      horizonMs,
      budget:
        unit === 'schedules'
          ? { schedules: budget, ms: SCHEDULES_WALL_CAP_MS }
          : { schedules: 1_000_000_000, ms: budget * 1000 },
    });
  };

  const stop = () => {
    worker.current?.postMessage({ type: 'stop' });
    setView((v) => (v.kind === 'running' ? { ...v, stopping: true } : v));
  };

  // The result takes focus when it arrives, so a keyboard or screen reader user lands on it.
  useEffect(() => {
    if (view.kind === 'done' || view.kind === 'error') result.current?.focus();
  }, [view.kind]);

  const running = view.kind === 'running';
  return (
    <section className="panel explore-panel" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Find a failure</h2>
      <p className="hint">
        Searches random fault schedules (kills, pauses, partitions, clock rates) against this setup until a
        run breaks an invariant, then shrinks it to the fewest faults that still break it.
      </p>
      <p className="explore-setup" data-testid="explore-setup">
        Setup: {alg.title}, {setup.nodes} nodes,{' '}
        {off.length ? `${off.join(' and ')} off` : 'every safety switch on'}
        {!alg.hasQuorum && ` (${alg.title} has no quorum)`}.
      </p>
      <form
        className="explore-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (!running) start();
        }}
      >
        <label>
          Horizon
          <select
            value={horizonMs}
            disabled={running}
            onChange={(e) => setHorizonMs(Number(e.target.value))}
            aria-describedby={`${id}-horizon`}
          >
            {HORIZONS_MS.map((ms) => (
              <option key={ms} value={ms}>
                {ms < 60_000 ? `${ms / 1000} s` : `${ms / 60_000} min`}
              </option>
            ))}
          </select>
          <span id={`${id}-horizon`} className="visually-hidden">
            how long each schedule runs, in simulated time
          </span>
        </label>
        <label>
          Budget
          <input
            type="number"
            min={1}
            step={1}
            inputMode="numeric"
            value={Number.isNaN(budget) ? '' : budget}
            disabled={running}
            onChange={(e) => setBudget(e.target.valueAsNumber)}
          />
        </label>
        <select
          aria-label="Budget unit"
          value={unit}
          disabled={running}
          onChange={(e) => {
            const u = e.target.value as BudgetUnit;
            setUnit(u);
            setBudget(DEFAULT_BUDGET[u]);
          }}
        >
          <option value="schedules">schedules</option>
          <option value="seconds">seconds</option>
        </select>
        {running ? (
          <button type="button" className="btn" onClick={stop} disabled={view.stopping}>
            {view.stopping ? 'Stopping…' : 'Stop'}
          </button>
        ) : (
          <button type="submit" className="btn">
            Start
          </button>
        )}
      </form>
      {view.kind === 'running' && <Progress view={view} />}
      <div ref={result} tabIndex={-1} className="explore-result">
        {view.kind === 'error' && (
          <div role="alert" className="banner banner-warn" data-testid="explore-error">
            <p>The search could not run:</p>
            <ul>
              {view.messages.map((m, i) => (
                <li key={i}>{m}</li>
              ))}
            </ul>
          </div>
        )}
        {view.kind === 'done' && <Outcome view={view} navigate={navigate} />}
      </div>
    </section>
  );
}

function Progress({ view }: { view: Extract<View, { kind: 'running' }> }) {
  const searching = !view.found;
  const value =
    view.unit === 'schedules' ? view.tried : Math.min(view.budget, Math.floor(view.elapsedMs / 1000));
  const of = view.unit === 'schedules' ? ` of ${count(view.budget)}` : '';
  const text = `${count(view.tried)}${of} schedules tried${view.perSecond ? `, ${count(Math.round(view.perSecond))} per second` : ''}`;
  return (
    <div className="explore-progress" data-testid="explore-progress">
      <div
        role="progressbar"
        aria-label={searching ? 'Search' : 'Shrinking'}
        aria-valuemin={0}
        aria-valuemax={searching ? view.budget : undefined}
        aria-valuenow={searching ? value : undefined}
        aria-valuetext={searching ? text : 'shrinking the failing schedule'}
        className="explore-bar"
      >
        <span
          className="explore-bar-fill"
          style={{ width: searching ? `${Math.min(100, (100 * value) / view.budget)}%` : '100%' }}
          data-shrinking={searching ? undefined : ''}
        />
      </div>
      <p aria-live="polite" className="hint">
        {searching
          ? `${text} (${formatSeconds(view.elapsedMs)})`
          : `Schedule #${view.found!.scheduleIndex + 1} breaks “${INVARIANT_TITLES[view.found!.invariant as keyof typeof INVARIANT_TITLES] ?? view.found!.invariant}” at ${formatSeconds(view.found!.atMs)}; shrinking: ${view.shrink?.runs ?? 0} runs, ${view.shrink?.faults ?? 0} faults left`}
      </p>
    </div>
  );
}

function Outcome({
  view,
  navigate,
}: {
  view: Extract<View, { kind: 'done' }>;
  navigate: (url: string) => void;
}) {
  const r = view.result;
  const searched = `${schedules(r.schedulesTried)} (${formatSeconds(r.searchMs)}, ${count(Math.round(r.schedulesPerSecond))} per second)`;
  if (!r.finding) {
    const safe = view.off.length === 0 && view.hasQuorum;
    return (
      <div
        role="status"
        className="banner banner-good"
        data-testid="explore-outcome"
        data-outcome={r.outcome}
      >
        <strong>
          {r.outcome === 'stopped' ? 'Stopped: nothing found' : 'Nothing found'} in {searched}
        </strong>
        {r.outcome === 'stopped'
          ? ', before its budget ran out.'
          : safe
            ? ': with every defence on, that is the expected answer.'
            : ': a larger budget or a longer horizon may still find one.'}
      </div>
    );
  }
  return <Finding result={r} searched={searched} navigate={navigate} />;
}

function Finding({
  result,
  searched,
  navigate,
}: {
  result: ExploreResult;
  searched: string;
  navigate: (url: string) => void;
}) {
  const f = result.finding!;
  const [link, setLink] = useState<string | null>(null);
  const [linkError, setLinkError] = useState(false);
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    let live = true;
    loadCodec().then(
      () => live && setLink(runLink({ experiment: f.experiment, commands: [], atMs: f.experiment.untilMs })),
      () => live && setLinkError(true),
    );
    return () => {
      live = false;
    };
  }, [f]);
  const copy = async () => link && setCopied(await copyText(link));
  return (
    <div className="banner banner-bad explore-finding" data-testid="explore-outcome" data-outcome="found">
      <p role="status">
        <strong>
          Found: {INVARIANT_TITLES[f.violation.invariant]} broken at {formatSeconds(f.violation.atMs)}.
        </strong>
      </p>
      <p data-testid="explore-caption">{f.caption}</p>
      <p className="hint">
        Schedule #{f.scheduleIndex + 1} of seed {result.seed}, found after {searched}: {f.found.faults}{' '}
        {f.found.faults === 1 ? 'fault' : 'faults'} over {formatSeconds(f.found.horizonMs)}, shrunk in{' '}
        {f.shrinkRuns} runs ({formatSeconds(f.shrinkMs)}) to {f.faults.length}{' '}
        {f.faults.length === 1 ? 'fault' : 'faults'} over {formatSeconds(f.experiment.untilMs)}
        {f.minimal ? ': removing any one of them makes the run pass.' : ' (stopped early: not minimal).'}
      </p>
      <div className="btn-row">
        <button type="button" className="btn" disabled={!link} onClick={() => link && navigate(link)}>
          Open this run
        </button>
        <button type="button" className="btn" disabled={!link} onClick={() => void copy()}>
          {copied ? 'Link copied' : 'Copy link'}
        </button>
      </div>
      {linkError && <p role="alert">The link could not be made: {CODEC_MISSING}.</p>}
      {link && (
        <label className="explore-link">
          Link to this run
          <input readOnly value={link} data-testid="explore-link" onFocus={(e) => e.target.select()} />
        </label>
      )}
    </div>
  );
}
