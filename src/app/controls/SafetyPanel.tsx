// The safety switches, beside the node and network controls: they apply at once and are
// recorded like any other command, so a replay toggles them at the same moment. Switching
// quorum or fencing off and breaking the cluster is the lab's main lesson, so they sit on the
// first screen rather than in the setup. Only the switches the run's algorithm has are shown
// (quorum, pre-vote and CheckQuorum are Raft's).
import { useLabShallow } from '../../store/context';
import type { Experiment } from '../../engine';

export const SWITCHES: { key: keyof Experiment['safety']; label: string; why: string }[] = [
  { key: 'quorum', label: 'Quorum', why: 'a leader needs a strict majority of the configured voters' },
  { key: 'fencing', label: 'Fencing', why: 'storage rejects writes with a token below the highest seen' },
  {
    key: 'followersReject',
    label: 'Followers reject',
    why: 'non-leaders answer writes with an error and a redirect',
  },
  { key: 'preVote', label: 'Pre-vote', why: 'a node raises its term only if a majority would vote for it' },
  {
    key: 'checkQuorum',
    label: 'CheckQuorum',
    why: 'a leader that has not heard from a majority for an election timeout steps down',
  },
];

export function SafetyPanel() {
  const { safety, command, can, switches } = useLabShallow((s) => ({
    safety: s.snapshot.safety,
    command: s.command,
    can: s.can.commands.includes('safety'),
    switches: s.can.switches,
  }));
  if (!can) return null;
  return (
    <fieldset className="panel safety-panel">
      <legend>Safety (applies now)</legend>
      {SWITCHES.filter((s) => safety[s.key] !== undefined && (!switches || switches.includes(s.key))).map(
        (s) => (
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
        ),
      )}
    </fieldset>
  );
}
