// The simulator's prediction of a real run: its commands replayed at the same moments on the run's twin
// (src/real/model/twin.ts), beside what the real cluster did. Pure: SimCompare.tsx draws it.
import {
  Simulation,
  type Command,
  type Experiment,
  type Failover,
  type Sample,
  type SimEvent,
} from '../../engine';
import type { RecordedCommand } from '../../store/backend';

export interface Side {
  /** leader_count observed (what a scrape sees), one point per sample. */
  points: { atMs: number; count: number }[];
  /** Each failover's time from the leader lost to the next one elected (ms), in order. */
  failoverMs: number[];
  /** Writes storage rejected as a zombie's, and stale writes it accepted. */
  rejected: number;
  staleAccepted: number;
}

export interface Comparison {
  untilMs: number;
  real: Side;
  sim: Side;
  /** Commands the simulator cannot replay, each with why (a fault only a real cluster has). */
  skipped: string[];
}

const failoverMsOf = (failovers: readonly Failover[]): number[] =>
  failovers.filter((f) => f.electedAtMs >= 0).map((f) => f.electedAtMs - f.lostAtMs);

function sideOf(samples: readonly Sample[], failovers: readonly Failover[], untilMs: number): Side {
  const within = samples.filter((s) => s.atMs <= untilMs);
  const last = within[within.length - 1];
  return {
    points: within.map((s) => ({ atMs: s.atMs, count: s.leaderCountObserved })),
    failoverMs: failoverMsOf(failovers),
    rejected: last?.fencingRejections ?? 0,
    staleAccepted: last?.staleWritesAccepted ?? 0,
  };
}

/**
 * Replay the real run's commands on the simulator up to untilMs. Who leads the simulated run is its own
 * draw, so the real leader's name maps to the simulated leader, each node staying put until the next swap.
 */
export function compareWithSimulator(
  experiment: Experiment,
  commands: readonly RecordedCommand[],
  real: { samples: readonly Sample[]; failovers: readonly Failover[]; events: readonly SimEvent[] },
  untilMs: number,
): Comparison {
  const sim = new Simulation({ ...experiment, untilMs });
  const skipped: string[] = [];
  const names = new Map<string, string>();
  const simName = (id: string) => names.get(id) ?? id;
  // Who led the real run so far: the events are read once, in step with the commands.
  let realLeader: string | null = null;
  let cursor = 0;
  for (const c of [...commands].sort((a, b) => a.atMs - b.atMs)) {
    if (c.atMs > untilMs) break;
    sim.runUntil(c.atMs);
    for (; cursor < real.events.length && real.events[cursor].atMs <= c.atMs; cursor++) {
      const e = real.events[cursor];
      if (e.type === 'elected') realLeader = e.node;
    }
    const simLeader = sim.snapshot().leader?.id;
    if (realLeader && simLeader && simName(realLeader) !== simLeader) {
      // Swap: the real leader becomes the simulated leader, and whoever mapped there takes its old place.
      const other = [...names.keys()].find((k) => simName(k) === simLeader) ?? simLeader;
      const was = simName(realLeader);
      names.set(realLeader, simLeader);
      names.set(other, was);
    }
    const command = (
      'node' in c.command && typeof c.command.node === 'string'
        ? { ...c.command, node: simName(c.command.node) }
        : c.command
    ) as Command;
    try {
      sim.apply(command);
    } catch (e) {
      skipped.push(
        `${(c.atMs / 1000).toFixed(1)} s ${c.command.do}: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
  }
  sim.runUntil(untilMs);
  return {
    untilMs,
    real: sideOf(real.samples, real.failovers, untilMs),
    sim: sideOf(sim.samples, sim.snapshot().failovers, untilMs),
    skipped,
  };
}

/** A step line of leader_count over [0, untilMs] in a width x height box (0 at the bottom, 2 at the top). */
export function stepPath(points: Side['points'], untilMs: number, width: number, height: number): string {
  if (!points.length || untilMs <= 0) return '';
  const x = (ms: number) => ((Math.min(ms, untilMs) / untilMs) * width).toFixed(1);
  const y = (count: number) => (height - (Math.min(count, 2) / 2) * height).toFixed(1);
  let d = `M${x(points[0].atMs)},${y(points[0].count)}`;
  for (let i = 1; i < points.length; i++) d += `H${x(points[i].atMs)}V${y(points[i].count)}`;
  return `${d}H${x(untilMs)}`;
}
