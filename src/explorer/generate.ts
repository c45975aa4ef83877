// The fault-schedule generator: random schedules over a fault space, drawn with the engine's PRNG. Schedule i
// of seed s comes from its own stream (s, i), so any can be drawn again alone, in any order, anywhere.
import { nextInt, seedRng, type RngState } from '../engine/rng';
import { byTime, type ExplorerFault, type ExplorerFaultKind, type Schedule } from './schedule';
import { GRID_MS, type FaultSpace, type TargetedKind } from './space';

/** Schedule `index` of the search seeded `seed`: the same pair always gives the same schedule. */
export function scheduleAt(space: FaultSpace, seed: number, index: number): Schedule {
  const rng = seedRng(seed, index);
  const count = nextInt(rng, 1, space.maxFaults);
  const faults: ExplorerFault[] = [];
  for (let i = 0; i < count && space.kinds.length > 0; i++) faults.push(drawFault(space, rng));
  return { horizonMs: space.horizonMs, faults: byTime(faults) };
}

function pick<T>(rng: RngState, list: readonly T[]): T {
  return list[nextInt(rng, 0, list.length - 1)];
}

function drawKind(space: FaultSpace, rng: RngState): ExplorerFaultKind {
  const total = space.kinds.reduce((sum, k) => sum + k.weight, 0);
  let r = nextInt(rng, 0, total - 1);
  for (const k of space.kinds) {
    if (r < k.weight) return k.kind;
    r -= k.weight;
  }
  return space.kinds[space.kinds.length - 1].kind;
}

/** Half the time the leader of the moment (most lessons), where the kind may aim there; else any target. */
function drawTarget(space: FaultSpace, kind: TargetedKind, rng: RngState): string {
  const named = space.targets[kind] ?? [];
  const leader = space.leaderKinds.includes(kind);
  return leader && (named.length === 0 || nextInt(rng, 0, 1) === 0) ? 'leader' : pick(rng, named);
}

/** A time on the grid in [0, horizon). */
function drawTime(space: FaultSpace, rng: RngState): number {
  return nextInt(rng, 0, Math.max(0, Math.floor((space.horizonMs - 1) / GRID_MS))) * GRID_MS;
}

/**
 * Two or three groups covering the cluster's nodes (the last may be left unnamed: the engine groups the nodes
 * not named). Storage and each of the algorithm's services join one a third of the time; else they reach all.
 */
function drawGroups(space: FaultSpace, rng: RngState): string[][] {
  const members = [...space.nodes];
  for (let i = members.length - 1; i > 0; i--) {
    const j = nextInt(rng, 0, i);
    [members[i], members[j]] = [members[j], members[i]];
  }
  const groupCount = Math.min(members.length, nextInt(rng, 2, 3));
  const groups: string[][] = Array.from({ length: Math.max(1, groupCount) }, () => []);
  // Every group gets one member, the rest go anywhere: sizes vary from 1 to n - groups + 1.
  members.forEach((m, i) => groups[i < groups.length ? i : nextInt(rng, 0, groups.length - 1)].push(m));
  if (groups.length > 1 && nextInt(rng, 0, 1) === 0) groups.pop();
  for (const endpoint of space.placeable) {
    if (nextInt(rng, 0, 2) === 0) pick(rng, groups).push(endpoint);
  }
  return groups;
}

function drawFault(space: FaultSpace, rng: RngState): ExplorerFault {
  const atMs = drawTime(space, rng);
  const kind = drawKind(space, rng);
  switch (kind) {
    case 'pause': {
      const steps = nextInt(rng, space.pauseMsMin / GRID_MS, space.pauseMsMax / GRID_MS);
      return { atMs, do: 'pause', node: drawTarget(space, kind, rng), forMs: steps * GRID_MS };
    }
    case 'partition':
      return { atMs, do: 'partition', groups: drawGroups(space, rng) };
    case 'heal':
      return { atMs, do: 'heal' };
    case 'clockRate':
      return { atMs, do: 'clockRate', node: drawTarget(space, kind, rng), rate: pick(rng, space.clockRates) };
    case 'campaign': {
      const node = drawTarget(space, kind, rng);
      // A leadership transfer half the time, where the algorithm has one.
      return space.transfer && nextInt(rng, 0, 1) === 0
        ? { atMs, do: 'campaign', node, transfer: true }
        : { atMs, do: 'campaign', node };
    }
    default:
      return { atMs, do: kind, node: drawTarget(space, kind, rng) };
  }
}
