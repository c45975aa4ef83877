// Quorum arithmetic for N = 1..9: majority size and failures tolerated. Even sizes buy nothing
// over the odd size below them; two nodes tolerate no failure until a witness joins.
import { majorityOf } from '../../engine';
import { ScenarioLink, scenarioHref } from '../guided/ScenarioPicker';

/** The game day that splits an even cluster: four nodes, so it shows 4 and no other size. */
const EVEN_CLUSTER = 'even-cluster';

/** The lab in free play with n voters, where the reader can split them evenly. */
function votersHref(n: number): string {
  const href = scenarioHref(null);
  return `${href}${href.includes('?') ? '&' : '?'}nodes=${n}`;
}

export function tolerated(n: number): number {
  return n - majorityOf(n);
}

export function QuorumTable() {
  const rows = Array.from({ length: 9 }, (_, i) => i + 1);
  return (
    <section className="panel quorum-table" aria-labelledby="quorum-title">
      <h2 id="quorum-title">Quorum arithmetic</h2>
      <table>
        <thead>
          <tr>
            <th scope="col">Voters</th>
            <th scope="col">Majority</th>
            <th scope="col">Failures tolerated</th>
            <th scope="col">Note</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((n) => (
            <tr key={n}>
              <td>{n}</td>
              <td>{majorityOf(n)}</td>
              <td>{tolerated(n)}</td>
              <td>
                {n === 2 && (
                  <>
                    needs a witness to survive one failure (
                    <a href={scenarioHref('two-nodes-witness')}>try it</a>)
                  </>
                )}
                {n === 4 && (
                  <>
                    same as 3, one more node to convince (try it: <ScenarioLink id={EVEN_CLUSTER} />)
                  </>
                )}
                {n % 2 === 0 && n > 4 && (
                  <>
                    same as {n - 1}, one more node to convince (no game day has {n}:{' '}
                    <a href={votersHref(n)}>try {n} voters</a> in the lab)
                  </>
                )}
                {n === 3 && 'the smallest useful cluster'}
                {n === 5 && 'tolerates two failures'}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
