// The real cluster's side of `npm run fidelity`: each fault on a real run started with its settings, `runs`
// trials back to back on one cluster, each from settled, measured as in fidelitySim.ts. Times are the run's
// own: etcd's log lines, the candidates' reports and the commands share that clock.
import type { FaultId, Trial } from './fidelityReport';
import { longestGapMs, OUTCOME, SETUPS, zombieOutcome, type FaultSetup } from './fidelitySetups';
import type { RealRun } from '../cluster/run';
import { keepAliveEveryMs } from '../model/settings';
import { appSettled, eventsOf, otherBecameRaftLeader, raftSettled, sleep, within } from './waits';

/**
 * Wait a random part of one period before a fault: back-to-back trials sent once settled would always hit one
 * point of the leader's keep-alive (or heartbeat) cycle; real faults, and simulated trials, land anywhere.
 */
const atRandomPhase = (periodMs: number) => sleep(Math.floor(Math.random() * periodMs));

async function restartMember(run: RealRun, node: string): Promise<void> {
  run.apply({ do: 'restart', node, part: 'member' });
  await run.cluster?.waitHealthy(run.cluster.members, 15_000);
}

/** The settled raft leader at a random point of its heartbeat cycle, the fault, the next leader. */
async function onRaftLeader(run: RealRun, setup: FaultSetup, act: (leader: string) => unknown) {
  await raftSettled(run);
  await atRandomPhase(setup.settings.heartbeatMs);
  const { leader } = await raftSettled(run, 0);
  const at = run.nowMs();
  act(leader);
  const e = await within(() => otherBecameRaftLeader(run, at, leader), setup.watchMs);
  return { leader, at, e };
}

async function raftKill(run: RealRun, setup: FaultSetup): Promise<Trial> {
  const { leader, at, e } = await onRaftLeader(run, setup, (node) =>
    run.apply({ do: 'kill', node, part: 'member' }),
  );
  await restartMember(run, leader);
  return e
    ? { value: e.atMs - at, outcome: OUTCOME.newRaftLeader }
    : { value: setup.watchMs, outcome: OUTCOME.noNewRaftLeader };
}

async function isolate(run: RealRun, setup: FaultSetup): Promise<Trial> {
  const { leader, at, e } = await onRaftLeader(run, setup, (node) => run.apply({ do: 'isolate', node }));
  // CheckQuorum: the cut-off leader steps down by itself once it has not heard from a quorum.
  const steppedDown = e
    ? await within(
        () => run.fold.host(leader)?.memberRole !== 'leader',
        Math.max(0, at + setup.watchMs - run.nowMs()),
      )
    : null;
  run.apply({ do: 'heal' });
  if (!e) return { value: setup.watchMs, outcome: OUTCOME.noNewRaftLeader };
  return { value: e.atMs - at, outcome: steppedDown ? OUTCOME.isolatedSteppedDown : OUTCOME.isolatedKept };
}

async function heal(run: RealRun, setup: FaultSetup): Promise<Trial> {
  const { leader } = await raftSettled(run);
  const follower = run.fold.hosts.find((h) => h.id !== leader)?.id as string;
  run.apply({ do: 'isolate', node: follower });
  await sleep(setup.isolateMs as number);
  const termBefore = run.cluster?.raftLeader()?.term;
  if (termBefore === undefined) throw new Error('heal: no raft leader just before the heal');
  run.apply({ do: 'heal' });
  await sleep(setup.watchMs);
  const after = await raftSettled(run, 300, 15_000);
  const rise = after.term - termBefore;
  return { value: rise, outcome: rise > 0 ? OUTCOME.termsRose : OUTCOME.termsSame };
}

async function pausePastTtl(run: RealRun, setup: FaultSetup): Promise<Trial> {
  const pauseMs = setup.pauseMs as number;
  await appSettled(run);
  await atRandomPhase(keepAliveEveryMs(setup.settings));
  const { leader } = await appSettled(run);
  const at = run.nowMs();
  run.apply({ do: 'pause', node: leader, forMs: pauseMs });
  const e = await within(() => eventsOf(run, 'elected', at).find((x) => x.node !== leader), pauseMs);
  const resumedAt = at + pauseMs;
  await sleep(Math.max(0, resumedAt - run.nowMs()));
  if (!e) return { value: pauseMs, outcome: OUTCOME.kept };
  const zombie = await within(
    () => eventsOf(run, 'write', resumedAt).find((w) => w.node === leader),
    setup.watchMs,
  );
  return { value: e.atMs - at, outcome: zombieOutcome(zombie?.result) };
}

/** The application leader's keep-alive gaps around a fault, and whether it still leads after. */
async function leaseGap(
  run: RealRun,
  setup: FaultSetup,
  act: (leader: string) => Promise<string | null>,
): Promise<Trial> {
  await appSettled(run);
  await raftSettled(run);
  await atRandomPhase(keepAliveEveryMs(setup.settings));
  const { leader, token } = await appSettled(run);
  const renewals = [run.fold.host(leader)?.lastRenewAtMs ?? run.nowMs()];
  const off = run.onKeepAlive((k) => {
    if (k.node === leader) renewals.push(k.atMs);
  });
  const at = run.nowMs();
  let killed: string | null = null;
  try {
    killed = await act(leader);
    await sleep(setup.watchMs + (setup.pauseMs ?? 0));
  } finally {
    off();
  }
  const lost = eventsOf(run, 'steppedDown', at).find((x) => x.node === leader);
  const now = run.fold.host(leader);
  const kept = !lost && now?.role === 'leader' && now.token === token;
  if (killed) await restartMember(run, killed);
  return { value: longestGapMs(renewals, lost?.atMs ?? null), outcome: kept ? OUTCOME.kept : OUTCOME.lost };
}

/**
 * Make a member other than `not` raft's leader (etcd's MoveLeader, through the JSON gateway to the current
 * leader), so that killing the raft leader does not also kill the application leader's member: another fault.
 */
async function moveRaftLeaderOff(run: RealRun, not: string): Promise<void> {
  const cluster = run.cluster;
  const current = cluster?.raftLeader();
  if (!cluster || !current || current.node !== not) return;
  const target = cluster.members.find((m) => m.node !== not) as (typeof cluster.members)[number];
  const r = await fetch(`http://127.0.0.1:${current.clientPort}/v3/maintenance/transfer-leadership`, {
    method: 'POST',
    body: JSON.stringify({ targetID: BigInt(`0x${target.idHex}`).toString() }),
    signal: AbortSignal.timeout(5000),
  });
  if (!r.ok) throw new Error(`moving raft's leadership failed: HTTP ${r.status} ${await r.text()}`);
  await raftSettled(run);
}

async function killRaftLeaderUnderLease(run: RealRun, setup: FaultSetup): Promise<Trial> {
  return leaseGap(run, setup, async (appLeader) => {
    await moveRaftLeaderOff(run, appLeader);
    const { leader } = await raftSettled(run);
    if (leader === appLeader) throw new Error("the raft leader stayed on the application leader's host");
    run.apply({ do: 'kill', node: leader, part: 'member' });
    return leader;
  });
}

const TRIALS: Record<FaultId, (run: RealRun, setup: FaultSetup) => Promise<Trial>> = {
  'raft-kill-fast': raftKill,
  'raft-kill': raftKill,
  'pause-ttl5': pausePastTtl,
  'pause-ttl15': pausePastTtl,
  'pause-short': (run, setup) =>
    leaseGap(run, setup, async (leader) => {
      run.apply({ do: 'pause', node: leader, forMs: setup.pauseMs as number });
      return null;
    }),
  isolate,
  'heal-prevote-off': heal,
  'heal-prevote-on': heal,
  'raft-kill-under-lease': killRaftLeaderUnderLease,
};

/** One real trial of a fault on a run started with SETUPS[fault].settings. */
export function realTrial(fault: FaultId, run: RealRun): Promise<Trial> {
  return TRIALS[fault](run, SETUPS[fault]);
}
