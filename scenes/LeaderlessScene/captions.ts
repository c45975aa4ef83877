// The words of each step of the leaderless comparison, from the run's own numbers.
import type { LeaderlessRun } from '../../src/leaderless/model';
import { formatSeconds as sec } from '../../src/store/format';

export const keySec = (keyMs: number) => (keyMs / 1000).toFixed(1);
export const pct = (n: number, of: number) => `${((100 * n) / of).toFixed(1)}%`;

export function stepCaption(run: LeaderlessRun, step: number): string {
  const { config: c, workerNames: w, moved } = run;
  const leader = w[run.leader];
  const victim = w[run.victim];
  const { detectMs, totalMs } = c.window;
  switch (run.steps[step].id) {
    case 'start':
      return `${c.workers} workers share the work of ${c.keys} keys. (a): ${leader} is the elected leader and assigns each key's work to a worker. (b): nobody assigns; each worker owns the keys that hash to it on a consistent-hash ring (${c.vnodes} points each). Nothing has failed: every key is served.`;
    case 'kill-worker':
      return `${victim} dies at ${sec(run.killWorkerAtMs)}. In both designs its ${moved[0].keys} keys wait ${sec(detectMs)} until the others notice, then move: (a)'s leader reassigns them, (b)'s ring hands them to the next points. On the ring ${moved[0].ring} keys move (${pct(moved[0].ring, c.keys)}, about 1/${c.workers}); with hash % N, ${moved[0].modN} would (${pct(moved[0].modN, c.keys)}).`;
    case 'kill-leader':
      return `${leader} dies at ${sec(run.killLeaderAtMs)}. In (a) it was the leader: no key gets work for the ${sec(totalMs)} failover window, all ${c.keys} of them. In (b) it is one more worker: only its ${moved[1].keys} keys wait ${sec(detectMs)}, then move (${moved[1].ring} on the ring; ${moved[1].modN} with hash % N).`;
    case 'summary': {
      const a = run.unavailableKeyMs.leader;
      const b = run.unavailableKeyMs.ring;
      return `Unavailable key-seconds over both failures: (a) ${keySec(a)}, (b) ${keySec(b)}: ${(a / b).toFixed(1)} times as many with a leader. Partition the work and a failure costs only the failed worker's share, for as long as it takes to notice; a leader's failure costs everything, for the whole failover.`;
    }
  }
}
