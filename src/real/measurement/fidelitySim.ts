// The simulator's side of `npm run fidelity`: each fault as an experiment with the real run's parameters (for
// the application's faults, its twin: src/real/model/twin.ts), applied as a live command at a settled moment,
// the same quantity measured, one trial per seed. Real faults land at any phase of the heartbeat or
// keep-alive cycle, so trial i of count puts its fault i/count of the way through one such period (a fixed
// moment would measure one phase only). Deterministic: the same seeds give the same trials.
import { Simulation, type ExperimentInput, type NodeView, type SimEvent } from '../../engine';
import type { FaultId, Trial } from './fidelityReport';
import { longestGapMs, OUTCOME, SETUPS, zombieOutcome, type FaultSetup } from './fidelitySetups';
import { keepAliveEveryMs, type RunSettings } from '../model/settings';
import { LOOPBACK_NETWORK, twinExperiment } from '../model/twin';

const STEP_MS = 5;

export function raftExperiment(s: RunSettings, seed: number, untilMs: number): ExperimentInput {
  return {
    algorithm: 'raft',
    seed,
    nodes: s.nodes,
    raft: { heartbeatMs: s.heartbeatMs, electionTimeoutMs: s.electionMs },
    // etcd always runs raft with CheckQuorum; pre-vote is its start-up flag.
    safety: { preVote: s.preVote, checkQuorum: true },
    network: LOOPBACK_NETWORK,
    warmUpMs: s.warmUpMs,
    workload: { leaderWriteEveryMs: s.writeEveryMs },
    untilMs,
  };
}

/** The application's side: the real run's twin, with this trial's seed. */
export function etcdExperiment(s: RunSettings, seed: number, untilMs: number): ExperimentInput {
  return twinExperiment(s, { seed, untilMs });
}

function leaderOf(sim: Simulation): NodeView | null {
  return sim.snapshot().nodes.find((n) => n.alive && n.role === 'leader') ?? null;
}

/** Advance in small steps until an event matches (returned) or withinMs has passed (null). */
function untilEvent(
  sim: Simulation,
  from: number,
  match: (e: SimEvent) => boolean,
  withinMs: number,
): SimEvent | null {
  const end = sim.nowMs + withinMs;
  let seen = from;
  while (sim.nowMs < end) {
    sim.runUntil(Math.min(end, sim.nowMs + STEP_MS));
    const found = sim.eventsSince(seen).find(match);
    if (found) return found;
    seen = sim.eventsTotal;
  }
  return null;
}

/** Advance to `toMs` in small steps, noting each new answered keep-alive (renewal) of `node`. */
function renewalsUntil(sim: Simulation, node: string, toMs: number, into: number[]): void {
  while (sim.nowMs < toMs) {
    sim.runUntil(Math.min(toMs, sim.nowMs + STEP_MS));
    const at = sim.snapshot().nodes.find((n) => n.id === node)?.lastRenewAtMs ?? -1;
    if (at >= 0 && into[into.length - 1] !== at) into.push(at);
  }
}

/** One trial: trial i of count of a fault, on seed `seed`. */
interface TrialOf {
  fault: FaultId;
  setup: FaultSetup;
  seed: number;
  i: number;
  count: number;
}

/** A run of the fault's raft (or twin) to the settled moment plus this trial's phase, with its leader. */
function settled(t: TrialOf, etcd = false, seed = t.seed): { sim: Simulation; leader: NodeView } {
  const s = t.setup.settings;
  const sim = new Simulation((etcd ? etcdExperiment : raftExperiment)(s, seed, 600_000));
  const [settledMs, periodMs] = etcd ? [3000, keepAliveEveryMs(s)] : [10 * s.electionMs, s.heartbeatMs];
  const atMs = settledMs + Math.floor((t.i * periodMs) / t.count);
  sim.runUntil(atMs);
  const leader = leaderOf(sim);
  if (!leader || !leader.ready)
    throw new Error(`${t.fault}: no ready leader at ${atMs} ms (reproduce with seed=${seed})`);
  return { sim, leader };
}

/** Raft trials' common part: a settled leader at this trial's phase, the fault, the next leader or null. */
function onRaftLeader(
  t: TrialOf,
  verb: 'kill' | 'isolate',
): { sim: Simulation; leader: NodeView; at: number; e: SimEvent | null } {
  const { sim, leader } = settled(t);
  const at = sim.nowMs;
  const from = sim.eventsTotal;
  sim.apply({ do: verb, node: leader.id });
  const e = untilEvent(sim, from, (x) => x.type === 'elected' && x.node !== leader.id, t.setup.watchMs);
  return { sim, leader, at, e };
}

function raftKill(t: TrialOf): Trial {
  const { at, e } = onRaftLeader(t, 'kill');
  return e
    ? { value: e.atMs - at, outcome: OUTCOME.newRaftLeader }
    : { value: t.setup.watchMs, outcome: OUTCOME.noNewRaftLeader };
}

function isolate(t: TrialOf): Trial {
  const setup = t.setup;
  const { sim, leader, at, e } = onRaftLeader(t, 'isolate');
  if (!e) return { value: setup.watchMs, outcome: OUTCOME.noNewRaftLeader };
  // CheckQuorum: the cut-off leader steps down within an election timeout of losing its quorum.
  sim.runUntil(at + setup.watchMs);
  const old = sim.snapshot().nodes.find((n) => n.id === leader.id);
  return {
    value: e.atMs - at,
    outcome: old?.role === 'leader' ? OUTCOME.isolatedKept : OUTCOME.isolatedSteppedDown,
  };
}

function heal(t: TrialOf): Trial {
  const { setup, seed, fault } = t;
  const { sim, leader } = settled(t);
  const follower = sim.snapshot().nodes.find((n) => n.id !== leader.id && n.alive) as NodeView;
  sim.apply({ do: 'isolate', node: follower.id });
  sim.runUntil(sim.nowMs + (setup.isolateMs as number));
  const before = leaderOf(sim);
  if (!before) throw new Error(`${fault}: no leader at the heal (reproduce with seed=${seed})`);
  sim.apply({ do: 'heal' });
  sim.runUntil(sim.nowMs + setup.watchMs);
  const after = leaderOf(sim);
  if (!after)
    throw new Error(`${fault}: no leader ${setup.watchMs} ms after the heal (reproduce with seed=${seed})`);
  const rise = after.term - before.term;
  return { value: rise, outcome: rise > 0 ? OUTCOME.termsRose : OUTCOME.termsSame };
}

function pausePastTtl(t: TrialOf): Trial {
  const setup = t.setup;
  const pauseMs = setup.pauseMs as number;
  const { sim, leader } = settled(t, true);
  const at = sim.nowMs;
  const from = sim.eventsTotal;
  sim.apply({ do: 'pause', node: leader.id, forMs: pauseMs });
  const e = untilEvent(sim, from, (x) => x.type === 'elected' && x.node !== leader.id, pauseMs);
  if (!e) return { value: pauseMs, outcome: OUTCOME.kept };
  const resumedAt = at + pauseMs;
  sim.runUntil(resumedAt);
  const zombie = untilEvent(
    sim,
    sim.eventsTotal,
    (x) => x.type === 'write' && x.node === leader.id && x.atMs >= resumedAt,
    setup.watchMs,
  );
  return { value: e.atMs - at, outcome: zombieOutcome(zombie?.type === 'write' ? zombie.result : undefined) };
}

/** The leader's longest keep-alive gap around a fault, and whether it still leads after. */
function leaseGap(
  t: TrialOf,
  act: (sim: Simulation, leader: NodeView) => void,
  accept: (leader: NodeView) => boolean = () => true,
): Trial {
  const setup = t.setup;
  // A run whose leader does not suit the fault is drawn again on another seed (1,000 apart).
  let { sim, leader } = settled(t, true);
  for (let k = 1; !accept(leader) && k <= 20; k++) ({ sim, leader } = settled(t, true, t.seed + 1000 * k));
  const renewals = [leader.lastRenewAtMs];
  const from = sim.eventsTotal;
  const end = sim.nowMs + setup.watchMs + (setup.pauseMs ?? 0);
  act(sim, leader);
  renewalsUntil(sim, leader.id, end, renewals);
  const lost = sim.eventsSince(from).find((x) => x.type === 'steppedDown' && x.node === leader.id);
  const now = sim.snapshot().nodes.find((n) => n.id === leader.id);
  const kept = !lost && now?.role === 'leader' && now.term === leader.term;
  return { value: longestGapMs(renewals, lost?.atMs ?? null), outcome: kept ? OUTCOME.kept : OUTCOME.lost };
}

const TRIALS: Record<FaultId, (t: TrialOf) => Trial> = {
  'raft-kill-fast': raftKill,
  'raft-kill': raftKill,
  'pause-ttl5': pausePastTtl,
  'pause-ttl15': pausePastTtl,
  'pause-short': (t) =>
    leaseGap(t, (sim, leader) =>
      sim.apply({ do: 'pause', node: leader.id, forMs: t.setup.pauseMs as number }),
    ),
  isolate,
  'heal-prevote-off': heal,
  'heal-prevote-on': heal,
  // The simulator's etcd raft leader is m1 until it dies; the real run first moves raft leadership off the
  // application leader's host, so the simulated leader must use m2 or m3: a run led from n1 is redrawn.
  'raft-kill-under-lease': (t) =>
    leaseGap(
      t,
      (sim) => sim.apply({ do: 'kill', node: 'm1' }),
      (leader) => leader.id !== 'n1',
    ),
};

/** One simulator trial of a fault: trial i of count, on seed `seed`. */
export function simTrial(fault: FaultId, seed: number, i: number, count: number): Trial {
  return TRIALS[fault]({ fault, setup: SETUPS[fault], seed, i, count });
}

/** `count` trials on seeds 1..count. */
export function simTrials(fault: FaultId, count: number): Trial[] {
  return Array.from({ length: count }, (_, i) => simTrial(fault, i + 1, i, count));
}
