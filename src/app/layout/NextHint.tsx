// The one line under the stage that says what to do next (hint.ts), kept true as the run moves.
import { useLab } from '../../store/context';
import { nextHint } from '../hint';

export function NextHint() {
  const text = useLab((s) =>
    nextHint({ snapshot: s.snapshot, selected: s.selected, experiment: s.experiment, can: s.can }),
  );
  return (
    <p className="next-hint" data-testid="next-hint">
      {text}
    </p>
  );
}
