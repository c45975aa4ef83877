// How chatty each algorithm is: election messages per election, for clusters of 3, 5, 7 and 9 nodes, averaged
// over seeds. Each run boots (one election), the leader is killed at 20 s and another elected, on the page's
// setup: its network (60-180 ms a message) and Raft's teaching timing.
//   npm run messages              a Markdown table (docs/model.md shows it)
//   npm run messages -- --seeds=N average over seeds 1..N (default 20)
import '../engine/algorithms/all'; // every algorithm's rules: no page loads them on demand here
import { RAFT_PRESETS, runExperiment } from '../engine';
import { ALGORITHM_KINDS, algorithmFor, type AlgorithmKind } from '../engine/algorithms';
import { failed, printed, runAsEntry } from './io';

export const SIZES = [3, 5, 7, 9] as const;

/** Mean election messages per election for one algorithm and cluster size, over seeds 1..seeds. */
export function messagesPerElection(algorithm: AlgorithmKind, nodes: number, seeds: number): number {
  let messages = 0;
  let elections = 0;
  for (let seed = 1; seed <= seeds; seed++) {
    const t = runExperiment({
      ...(algorithm === 'raft' ? { raft: RAFT_PRESETS.teaching } : { algorithm }),
      seed,
      nodes,
      network: { delayMsMin: 60, delayMsMax: 180 },
      faults: [{ atMs: 20_000, do: 'kill', node: 'leader' }],
      untilMs: 60_000,
    });
    messages += t.summary.electionMessages;
    elections += t.summary.elections;
  }
  return messages / elections;
}

export function table(seeds: number): string {
  const head = `| algorithm | ${SIZES.map((n) => `${n} nodes`).join(' | ')} |`;
  const rule = `| --- | ${SIZES.map(() => '---').join(' | ')} |`;
  // No row for an algorithm whose election is not a message exchange (a compare-and-swap on a Lease), nor one
  // held among observers beside the nodes (Redis's sentinels): the same whatever the size.
  const kinds = ALGORITHM_KINDS.filter(
    (kind) => algorithmFor(kind).messages.some((m) => m.election) && !algorithmFor(kind).services?.length,
  );
  const rows = kinds.map(
    (kind) =>
      `| ${algorithmFor(kind).title} | ${SIZES.map((n) => messagesPerElection(kind, n, seeds).toFixed(1)).join(' | ')} |`,
  );
  return [head, rule, ...rows].join('\n');
}

runAsEntry('messages', () => {
  const flag = process.argv.find((a) => a.startsWith('--seeds='));
  const seeds = flag ? Number(flag.slice('--seeds='.length)) : 20;
  if (!Number.isInteger(seeds) || seeds < 1 || seeds > 1000)
    return failed('--seeds must be a whole number from 1 to 1000\n');
  return printed(table(seeds) + '\n');
});
