// The five "check yourself" questions (also the game-day picker's group titles): the answer shows only
// when asked for, linking to the scenario that demonstrates it, by its own title.
import { useState } from 'react';
import { ScenarioLink } from '../guided/ScenarioPicker';
import { groupTitle } from '../../scenario/groups';

const QUESTIONS: { q: string; a: string; scenario: string }[] = [
  {
    q: groupTitle('split-brain'),
    a: 'Two nodes both believing they lead and both accepting writes, so the data diverges. A leader needs votes from a strict majority, and there can be only one majority in any partition: with 5 nodes split 2|3, the 2-side cannot reach 3 votes and elects nobody.',
    scenario: 'quorum-split-2-3',
  },
  {
    q: groupTitle('fencing'),
    a: 'A quorum stops a new leader on the minority side, but not the old leader, paused by GC or cut off, from resuming and writing. Fencing tokens: each term gets a higher number, every write carries it, and the storage itself rejects any token below the highest it has seen.',
    scenario: 'gc-pause-long',
  },
  {
    q: groupTitle('failover-time'),
    a: 'Typically 10 to 30 s: detection (waiting out the lease, 5 to 15 s), election (1 to 5 s) and warm-up (1 to 10 s or more). Warm-up is routinely forgotten and often the largest part.',
    scenario: 'warm-up-under-load',
  },
  {
    q: groupTitle('odd-sizes'),
    a: 'Progress needs a strict majority. 4 nodes need 3, so they tolerate one failure, the same as 3 nodes, with one more node to convince. 5 tolerate two.',
    scenario: 'even-cluster',
  },
  {
    q: groupTitle('no-leader'),
    a: 'When work can be partitioned so each node owns a disjoint slice (hash of the key), or made idempotent, or handed out by a queue. No election, no split brain, no failover window: removing a failure mode beats handling it. The lab shows what you give up by having a leader.',
    scenario: 'leaderless-partition-the-work',
  },
];

function Question({ q, a, scenario }: (typeof QUESTIONS)[number]) {
  const [shown, setShown] = useState(false);
  return (
    <details onToggle={(e) => !e.currentTarget.open && setShown(false)}>
      <summary>{q}</summary>
      {!shown ? (
        <p className="think-first">
          Think it through, or say your answer out loud, before you look.{' '}
          <button type="button" className="btn btn-small" onClick={() => setShown(true)}>
            Show the answer
          </button>
        </p>
      ) : (
        <p data-testid="answer">{a}</p>
      )}
      <p>
        See it: <ScenarioLink id={scenario} />
      </p>
    </details>
  );
}

export function CheckYourself() {
  return (
    <section className="panel check-yourself" aria-labelledby="check-title">
      <h2 id="check-title">Check yourself</h2>
      <ol>
        {QUESTIONS.map((x) => (
          <li key={x.q}>
            <Question {...x} />
          </li>
        ))}
      </ol>
    </section>
  );
}
