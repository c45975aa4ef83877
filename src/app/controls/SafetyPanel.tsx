// The safety switches sit on the first screen: switching quorum or fencing off is the lab's main lesson.
// One the algorithm lacks says why (`missing` in algorithms/pages/); those the lesson skips fold away.
import { useLabShallow } from '../../store/context';
import { missingSwitch, type SafetySwitch } from '../../engine';

interface Switch {
  key: SafetySwitch;
  label: string;
  why: string;
  /** What turning it off shows: the advanced switches, which the lesson does not introduce, have it. */
  shows?: string;
}

export const SWITCHES: Switch[] = [
  { key: 'quorum', label: 'Quorum', why: 'a leader needs a strict majority of the configured voters' },
  { key: 'fencing', label: 'Fencing', why: 'storage rejects writes with a token below the highest seen' },
  {
    key: 'followersReject',
    label: 'Followers reject',
    why: 'non-leaders answer writes with an error and a redirect',
    shows:
      'Off: a non-leader quietly takes a client’s write, counted as divergent (clients that cached a stale leader keep writing, and nothing errors).',
  },
  {
    key: 'preVote',
    label: 'Pre-vote',
    why: 'a node raises its term only if a majority would vote for it',
    shows:
      'Off: a node cut off and then healed raises its term on its own and deposes a healthy leader when it returns.',
  },
  {
    key: 'checkQuorum',
    label: 'CheckQuorum',
    why: 'a leader that has not heard from a majority for an election timeout steps down',
    shows:
      'Off: an isolated leader goes on believing it leads until it hears a higher term. The lesson’s Try it 2 (isolate the leader, then reconnect it) needs it off.',
  },
];

function SwitchRow({ s, on, onChange }: { s: Switch; on: boolean; onChange: (on: boolean) => void }) {
  return (
    <div className="switch-row">
      <label className="switch" title={s.why}>
        <input
          type="checkbox"
          role="switch"
          checked={on}
          onChange={(e) => onChange(e.target.checked)}
          aria-describedby={`why-${s.key}`}
        />
        {s.label}
        <span id={`why-${s.key}`} className="visually-hidden">
          {s.why}
          {s.shows ? `. ${s.shows}` : ''}
        </span>
      </label>
      {s.shows && (
        <p className="switch-shows" aria-hidden="true">
          {s.shows}
        </p>
      )}
    </div>
  );
}

export function SafetyPanel() {
  const { safety, command, can, switches, algorithm } = useLabShallow((s) => ({
    safety: s.snapshot.safety,
    command: s.command,
    can: s.can.commands.includes('safety'),
    switches: s.can.switches,
    algorithm: s.experiment.algorithm,
  }));
  if (!can) return null;
  const row = (s: Switch) => {
    const reason = missingSwitch({ algorithm }, s.key);
    if (reason !== null || safety[s.key] === undefined)
      return (
        reason && (
          <p key={s.key} className="switch-missing" data-testid={`no-switch-${s.key}`}>
            <strong>{s.label}</strong>: not offered. {reason.charAt(0).toUpperCase() + reason.slice(1)}.
          </p>
        )
      );
    // A backend that cannot flip it now (a real cluster, a recording) leaves it out.
    if (switches && !switches.includes(s.key)) return null;
    return (
      <SwitchRow
        key={s.key}
        s={s}
        on={safety[s.key] === true}
        onChange={(on) => command({ do: 'safety', [s.key]: on })}
      />
    );
  };
  const advanced = SWITCHES.filter((s) => s.shows).map(row);
  return (
    <fieldset className="panel safety-panel">
      <legend>Safety (applies now)</legend>
      {SWITCHES.filter((s) => !s.shows).map(row)}
      {advanced.some(Boolean) && (
        <details className="safety-advanced" data-testid="safety-advanced">
          <summary>Advanced</summary>
          {advanced}
        </details>
      )}
    </fieldset>
  );
}
