// What the explorer may draw for a setup: fault kinds and their targets, a partition's groups, clock rates,
// pause lengths, the horizon. The engine's own parser decides, not a second list kept here: every candidate
// fault (each kind at each node and service, each endpoint in a group, a leadership transfer) is parsed
// against the setup, and one the algorithm rejects (a witness under Bully, a pause of the API server, a
// transfer under Kubernetes' Lease) is never drawn: a new algorithm is explored correctly as is.
import { algorithmFor, parseExperiment, type Experiment, type FieldError } from '../engine';
import { EXPLORER_FAULT_KINDS, type ExplorerFault, type ExplorerFaultKind } from './schedule';

/** Two simulated minutes: long enough for a lease to lapse, a pause to end and a failover to finish. */
export const DEFAULT_HORIZON_MS = 120_000;
export const DEFAULT_MAX_FAULTS = 6;

/**
 * Clock rates a drifting clock may take: within 2.5x of each other, so timeouts roughly mean what they say
 * (wilder skew makes a lease meaningless: the clock-skew game day's lesson, not a search target); 1 is right.
 */
export const DEFAULT_CLOCK_RATES = [0.6, 0.8, 1, 1.25, 1.5];

/** Times and pause lengths are drawn on this grid, so captions read "at 12.3 s", not "at 12,347 ms". */
export const GRID_MS = 100;

/** The kinds that name a node (or a service). */
export type TargetedKind = Exclude<ExplorerFaultKind, 'partition' | 'heal'>;

export interface FaultSpace {
  horizonMs: number;
  maxFaults: number;
  /** Kinds the algorithm accepts, each with its weight in the draw. */
  kinds: { kind: ExplorerFaultKind; weight: number }[];
  /** The cluster's nodes (the witness where the algorithm has one): a partition's groups split these. */
  nodes: string[];
  /** The algorithm's services a fault may name (an API server, store members), for some kinds. */
  services: string[];
  /** What each kind may name: the nodes and services the engine accepts it for. */
  targets: Partial<Record<TargetedKind, string[]>>;
  /** Kinds that may aim at "the leader of the moment": not restart (it is alive) nor campaign (a no-op). */
  leaderKinds: TargetedKind[];
  /** Endpoints a partition may group: storage and the algorithm's services; left out, each reaches all. */
  placeable: string[];
  /** Whether a campaign may be a leadership transfer (Raft's, where the algorithm has it). */
  transfer: boolean;
  clockRates: number[];
  pauseMsMin: number;
  pauseMsMax: number;
}

export interface SpaceOptions {
  horizonMs?: number;
  maxFaults?: number;
  /** Only these kinds (default: every kind the algorithm accepts). */
  kinds?: ExplorerFaultKind[];
  clockRates?: number[];
}

/** How often each kind is drawn: pauses and partitions teach the most; a stop, campaign or resume the least. */
const WEIGHTS: Record<ExplorerFaultKind, number> = {
  pause: 4,
  partition: 3,
  isolate: 2,
  kill: 2,
  restart: 2,
  heal: 2,
  clockRate: 2,
  stop: 1,
  resume: 1,
  campaign: 1,
};

function aimed(kind: TargetedKind, node: string): ExplorerFault {
  switch (kind) {
    case 'pause':
      return { atMs: 0, do: 'pause', node, forMs: 1000 };
    case 'clockRate':
      return { atMs: 0, do: 'clockRate', node, rate: 1 };
    default:
      return { atMs: 0, do: kind, node };
  }
}

/**
 * The engine's verdict on many candidate faults in one parse: the setup with all of them as its faults, and
 * the indexes of those the parser names in an error (the setup is valid, so every error is a candidate's).
 */
function rejected(setup: Experiment, candidates: ExplorerFault[]): Set<number> {
  const parsed = parseExperiment({ ...setup, faults: candidates });
  const bad = new Set<number>();
  if (parsed.ok) return bad;
  for (const e of parsed.errors) {
    const m = /^faults\.(\d+)(\.|$)/.exec(e.field);
    if (!m) throw new Error(`the fault space's probe broke the setup: ${e.field}: ${e.message}`);
    bad.add(Number(m[1]));
  }
  return bad;
}

/** The fault space of a setup, or the setup's own errors (each naming its field). */
export function faultSpace(
  setupInput: unknown,
  options: SpaceOptions = {},
): { ok: true; setup: Experiment; space: FaultSpace } | { ok: false; errors: FieldError[] } {
  const parsed = parseExperiment(setupInput);
  const errors: FieldError[] = parsed.ok ? [] : [...parsed.errors];
  const horizonMs = options.horizonMs ?? DEFAULT_HORIZON_MS;
  const maxFaults = options.maxFaults ?? DEFAULT_MAX_FAULTS;
  const unknownKind = (options.kinds ?? []).find((k) => !EXPLORER_FAULT_KINDS.includes(k));
  if (unknownKind !== undefined || options.kinds?.length === 0)
    errors.push({ field: 'kinds', message: `must be some of ${EXPLORER_FAULT_KINDS.join(', ')}` });
  if ((options.clockRates ?? []).some((r) => typeof r !== 'number' || !(r >= 0.05 && r <= 20)))
    errors.push({ field: 'clockRates', message: 'each must be a number from 0.05 to 20' });
  if (!parsed.ok || errors.length) return { ok: false, errors };
  const setup = parsed.experiment;

  // Every endpoint that might exist: the setup's nodes, a witness, the algorithm's services.
  const nodeIds = [...Array.from({ length: setup.nodes }, (_, i) => `n${i + 1}`), 'w'];
  const serviceIds = (algorithmFor(setup.algorithm).services ?? []).map((s) => s.id);
  const ids = [...nodeIds, ...serviceIds, 'leader'];
  const targeted = EXPLORER_FAULT_KINDS.filter((k): k is TargetedKind => k !== 'partition' && k !== 'heal');
  const rates = options.clockRates ?? DEFAULT_CLOCK_RATES;

  // One parse for all: each kind at each endpoint, each endpoint in a group, a transfer, each clock rate.
  const candidates: ExplorerFault[] = [];
  const at = (f: ExplorerFault) => candidates.push(f) - 1;
  const aimedAt = targeted.map((kind) => ids.map((id) => at(aimed(kind, id))));
  const inGroup = [...nodeIds, 'storage', ...serviceIds].map((id) => ({
    id,
    i: at({ atMs: 0, do: 'partition', groups: [[id]] }),
  }));
  const transferAt = at({ atMs: 0, do: 'campaign', node: 'n1', transfer: true });
  const rateAt = rates.map((rate) => at({ atMs: 0, do: 'clockRate', node: 'n1', rate }));
  const healAt = at({ atMs: 0, do: 'heal' });
  const bad = rejected(setup, candidates);
  const ok = (i: number) => !bad.has(i);

  const targets: Partial<Record<TargetedKind, string[]>> = {};
  const leaderKinds: TargetedKind[] = [];
  targeted.forEach((kind, k) => {
    const named = ids.filter((id, j) => id !== 'leader' && ok(aimedAt[k][j]));
    if (named.length) targets[kind] = named;
    if (kind !== 'restart' && kind !== 'campaign' && ok(aimedAt[k][ids.length - 1])) leaderKinds.push(kind);
  });
  const groupable = new Set(inGroup.filter((g) => ok(g.i)).map((g) => g.id));
  const nodes = nodeIds.filter((id) => groupable.has(id));
  const clockRates = rates.filter((_, j) => ok(rateAt[j]));

  const usable = (kind: ExplorerFaultKind): boolean => {
    if (kind === 'partition') return nodes.length > 0;
    if (kind === 'heal') return ok(healAt);
    if (kind === 'clockRate' && clockRates.length === 0) return false;
    return (targets[kind]?.length ?? 0) > 0;
  };
  const kinds = (options.kinds ?? EXPLORER_FAULT_KINDS)
    .filter(usable)
    .map((kind) => ({ kind, weight: WEIGHTS[kind] }));
  if (kinds.length === 0)
    return { ok: false, errors: [{ field: 'kinds', message: 'none of these faults applies to this setup' }] };
  return {
    ok: true,
    setup,
    space: {
      horizonMs,
      maxFaults,
      kinds,
      nodes,
      services: serviceIds.filter((id) => targeted.some((kind) => targets[kind]?.includes(id))),
      targets,
      leaderKinds,
      placeable: ['storage', ...serviceIds].filter((id) => groupable.has(id)),
      transfer: ok(transferAt),
      clockRates,
      // From a hiccup to well past any lease or session (15 s by default) and its renewals.
      pauseMsMin: GRID_MS,
      pauseMsMax: Math.min(60_000, horizonMs),
    },
  };
}
