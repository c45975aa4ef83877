// Behind the furthest moment reached, a command starts a new future and drops the old one: this note says
// so while it is true, before anything is lost, and offers the way back.
import { useLabShallow } from '../../store/context';
import { formatSeconds } from '../../store/format';

/** How far behind the furthest moment the timeline must be for the note to show (one clock tenth). */
const BEHIND_MS = 100;

export function ForkNote() {
  // The selector keeps it from re-rendering (and its live region from speaking) at every snapshot.
  const { horizonMs, commands, seek } = useLabShallow((s) => {
    const behind = s.horizonMs - s.snapshot.nowMs >= BEHIND_MS;
    return { horizonMs: behind ? s.horizonMs : -1, commands: behind ? s.commandCount : 0, seek: s.seek };
  });
  if (horizonMs < 0) return null;
  const furthest = formatSeconds(horizonMs);
  const issued = commands > 0 ? `, with ${commands} ${commands === 1 ? 'command' : 'commands'}` : '';
  return (
    <p className="fork-note" role="status" data-testid="fork-note">
      <span>
        Replaying a run that went on to {furthest}
        {issued}. Acting now replaces everything after this moment.
      </span>{' '}
      <button type="button" className="btn btn-small" onClick={() => seek(horizonMs)}>
        Back to {furthest}
      </button>
    </p>
  );
}
