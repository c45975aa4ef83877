// "Don't have a leader", stepped through: five workers and 1000 keys, (a) assigned by an elected leader,
// (b) each worker owning its keys on a consistent-hash ring. The numbers are the model's (src/leaderless);
// game days cannot step it (they wait on the engine), so it has its own buttons.
import { useMemo, useState } from 'react';
import { algorithmFor } from '../../src/engine';
import {
  DEFAULT_CONFIG,
  runLeaderless,
  unavailableAt,
  unavailableKeyMsUntil,
  type Design,
  type LeaderlessRun,
} from '../../src/leaderless/model';
import { windowFromRun } from '../../src/leaderless/window';
import { useLab } from '../../src/store/context';
import { useSceneHost } from '../../src/ui/sceneHost';
import { keySec, pct, stepCaption } from './captions';
import { formatSeconds as sec } from '../../src/store/format';
import { MovedStrips } from './MovedStrip';
import { UnavailableChart } from './UnavailableChart';
import './leaderlessScene.css';
import { scenarioTitle } from '../../src/scenario/catalog';

/** The game day whose Raft failover is the default window (DEFAULT_WINDOW). */
const WINDOW_GAME_DAY = 'leaderless-partition-the-work';

/** The most keys of one design without work at one time, before `atMs`. */
function worstUntil(run: LeaderlessRun, design: Design, atMs: number): number {
  const starts = run.outages.filter((o) => o.design === design && o.startMs < atMs).map((o) => o.startMs);
  return Math.max(0, ...starts.map((t) => unavailableAt(run, design, t)));
}

const DESIGNS: { id: Design; title: string }[] = [
  { id: 'leader', title: '(a) One elected leader assigns work' },
  { id: 'ring', title: '(b) Each worker owns hash(key) on a ring' },
];

export function LeaderlessScene() {
  const failovers = useLab((s) => s.snapshot.failovers);
  const { controls } = useSceneHost();
  const algorithm = useLab((s) => s.experiment.algorithm);
  const measured = windowFromRun(failovers, algorithmFor(algorithm).title);
  const run = useMemo(
    () =>
      runLeaderless({
        ...DEFAULT_CONFIG,
        window: { detectMs: measured.detectMs, totalMs: measured.totalMs, source: measured.source },
      }),
    [measured.detectMs, measured.totalMs, measured.source],
  );
  const [step, setStep] = useState(0);
  const nowMs = run.steps[step].untilMs;
  const last = step === run.steps.length - 1;
  // Which kills have happened, and whether their keys have moved yet, at the time on screen.
  const stage = nowMs > run.killLeaderAtMs ? 2 : nowMs > run.killWorkerAtMs ? 1 : 0;
  const shares = run.shares[stage];
  return (
    <section className="leaderless-scene" aria-labelledby="ll-title" data-testid="leaderless">
      <h2 id="ll-title">Don&apos;t have a leader: partition the work</h2>
      <p className="ll-window" data-testid="ll-window">
        Failover window of (a): <strong>{sec(run.config.window.totalMs)}</strong> from the leader&apos;s death
        to a new leader ready ({sec(run.config.window.detectMs)} to notice a death, in both designs), from{' '}
        {run.config.window.source}
        {measured.source === 'the default'
          ? ` (the Raft failover measured by the game day “${scenarioTitle(WINDOW_GAME_DAY) ?? WINDOW_GAME_DAY}”${controls ? '; kill the leader in the lab to measure your own run' : ''})`
          : ''}
        .
      </p>
      <div className="ll-controls">
        <button
          type="button"
          className="btn"
          disabled={last}
          onClick={() => setStep((s) => Math.min(run.steps.length - 1, s + 1))}
          data-testid="ll-next"
        >
          {last ? 'Done' : `Next: ${run.steps[step + 1].label} ▶`}
        </button>
        <button type="button" className="btn" disabled={step === 0} onClick={() => setStep(0)}>
          ↺ Start over
        </button>
        <span className="ll-step" data-testid="ll-step">
          Part {step + 1} of {run.steps.length}
        </span>
      </div>
      <p className="ll-caption" aria-live="polite" data-testid="ll-caption">
        {stepCaption(run, step)}
      </p>
      <div className="ll-designs">
        {DESIGNS.map((d) => (
          <div key={d.id} className="ll-design" data-testid={`ll-${d.id}`}>
            <h3>{d.title}</h3>
            <ul
              className="ll-workers plain-list"
              aria-label="workers and the keys each serves"
              style={{ gridTemplateColumns: `repeat(${run.workerNames.length}, minmax(0, 1fr))` }}
            >
              {run.workerNames.map((name, i) => {
                const dead =
                  (i === run.victim && nowMs > run.killWorkerAtMs) ||
                  (i === run.leader && nowMs > run.killLeaderAtMs);
                return (
                  <li key={name} className={`ll-worker${dead ? ' ll-dead' : ''}`}>
                    <strong>{name}</strong>
                    {d.id === 'leader' && i === run.leader && <span className="ll-crown"> leader</span>}
                    <span className="mono">{dead ? 'dead' : `${shares[i]} keys`}</span>
                  </li>
                );
              })}
            </ul>
            <UnavailableChart run={run} design={d.id} nowMs={nowMs} />
            <p className="ll-total">
              At worst <strong data-testid={`ll-worst-${d.id}`}>{worstUntil(run, d.id, nowMs)}</strong> keys
              without work at once; unavailable so far:{' '}
              <strong data-testid={`ll-keysec-${d.id}`}>
                {keySec(unavailableKeyMsUntil(run, d.id, nowMs))}
              </strong>{' '}
              key-seconds
            </p>
          </div>
        ))}
      </div>
      {stage > 0 && <MovedStrips run={run} moved={run.moved[stage - 1]} />}
      {last && (
        <table className="ll-summary" data-testid="ll-summary">
          <caption>What the run measured</caption>
          <thead>
            <tr>
              <th scope="col" />
              <th scope="col">(a) leader assigns</th>
              <th scope="col">(b) hash ring</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <th scope="row">Unavailable key-seconds</th>
              <td data-testid="ll-sum-leader">{keySec(run.unavailableKeyMs.leader)}</td>
              <td data-testid="ll-sum-ring">{keySec(run.unavailableKeyMs.ring)}</td>
            </tr>
            {run.moved.map((m, i) => (
              <tr key={m.worker}>
                <th scope="row">
                  Keys moved when {m.worker} died{i === 0 ? '' : ", (a)'s leader"}
                </th>
                <td colSpan={2} data-testid={`ll-moved-${i}`}>
                  ring {m.ring} ({pct(m.ring, run.config.keys)}) · hash % N {m.modN} (
                  {pct(m.modN, run.config.keys)})
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
