// "Don't have a leader": the same workload run two ways. (a) One elected leader assigns every key's work to
// the workers; (b) each worker owns the keys that hash to it on a consistent-hash ring, and nobody assigns
// anything. The same two failures hit both: a worker dies, then the node that is (a)'s leader dies (in (b)
// just another worker). The model is pure and deterministic: integer milliseconds, one seed for the key and
// ring hashes, no clock, no DOM. It is not the engine: its only input from an election is the failover window
// (detection, election, warm-up), measured by an engine run or the default below.

/** What the comparison needs to know about a leader failover, in ms. */
export interface FailoverWindow {
  /** From the leader's death until someone notices (a dead worker is noticed after as long). */
  detectMs: number;
  /** From the leader's death until the new leader is ready to assign work again. */
  totalMs: number;
  /** Where the numbers come from, in a phrase: "this run (Raft)", "the default". */
  source: string;
}

/**
 * Default window: the game day 'Don't have a leader: partition the work' (Raft, teaching timing, 5 nodes,
 * seed 1, leader killed at 10 s), detected 6301 ms and ready 8820 ms after the kill (a test checks them).
 */
export const DEFAULT_WINDOW: FailoverWindow = { detectMs: 6301, totalMs: 8820, source: 'the default' };

/** The longest failover window the model takes. */
export const MAX_WINDOW_MS = 3_600_000;

export interface LeaderlessConfig {
  seed: number;
  workers: number;
  keys: number;
  /** Points per worker on the ring: more points, more even shares. */
  vnodes: number;
  window: FailoverWindow;
  /** Quiet time before the first kill and after each recovery, so each one shows apart. */
  quietMs: number;
}

export const DEFAULT_CONFIG: LeaderlessConfig = {
  seed: 1,
  workers: 5,
  keys: 1000,
  vnodes: 100,
  window: DEFAULT_WINDOW,
  quietMs: 4000,
};

export type Design = 'leader' | 'ring';

/** A stretch of time during which some keys of one design get no work done. */
export interface Outage {
  design: Design;
  startMs: number;
  endMs: number;
  keys: number;
  why: string;
}

/** How many keys change owner when a worker dies: on the ring, and with hash % (workers alive). */
export interface Moved {
  worker: string;
  ring: number;
  modN: number;
  keys: number;
  /** Moved keys' [from, to) ranges in hash (ring) order: a few arcs on the ring; everywhere with hash % N. */
  ringRanges: [number, number][];
  modNRanges: [number, number][];
}

export interface LeaderlessStep {
  id: 'start' | 'kill-worker' | 'kill-leader' | 'summary';
  /** The button that plays it. */
  label: string;
  /** The model's time once it has played out. */
  untilMs: number;
}

export interface LeaderlessRun {
  config: LeaderlessConfig;
  workerNames: string[];
  /** (a)'s elected leader, and the worker killed first. */
  leader: number;
  victim: number;
  killWorkerAtMs: number;
  killLeaderAtMs: number;
  endMs: number;
  /**
   * Keys per worker before any kill, after the first one's keys moved, after the second's (0 for a dead
   * worker). (a)'s leader is taken to reassign as the ring does: the same shares.
   */
  shares: number[][];
  outages: Outage[];
  moved: Moved[];
  unavailableKeyMs: Record<Design, number>;
  steps: LeaderlessStep[];
}

/** A 32-bit mix of (value, seed): murmur3's finalizer, so nearby keys land far apart. */
export function hash32(value: number, seed: number): number {
  let h = (Math.imul(value | 0, 0x9e3779b1) ^ Math.imul(seed | 0, 0x85ebca6b)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

export interface RingPoint {
  at: number;
  worker: number;
}

/** The ring: `vnodes` points per live worker, sorted by position (ties by worker). */
export function buildRing(alive: readonly number[], vnodes: number, seed: number): RingPoint[] {
  const points: RingPoint[] = [];
  for (const w of alive)
    for (let v = 0; v < vnodes; v++)
      points.push({ at: hash32(w * 65_536 + v, seed ^ 0x5bd1e995), worker: w });
  return points.sort((a, b) => a.at - b.at || a.worker - b.worker);
}

/** The owner of a hash on the ring: the first point at or after it, wrapping around. */
export function ringOwner(ring: readonly RingPoint[], h: number): number {
  let lo = 0;
  let hi = ring.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ring[mid].at < h) lo = mid + 1;
    else hi = mid;
  }
  return ring[lo === ring.length ? 0 : lo].worker;
}

/** hash % N over the workers alive, in order: the naive partitioning. */
export const modOwner = (alive: readonly number[], h: number): number => alive[h % alive.length];

function ringOwners(hashes: readonly number[], alive: readonly number[], c: LeaderlessConfig): number[] {
  const ring = buildRing(alive, c.vnodes, c.seed);
  return hashes.map((h) => ringOwner(ring, h));
}

/** The [from, to) ranges of positions in `order` whose key changed owner. */
function changedRanges(
  order: readonly number[],
  a: readonly number[],
  b: readonly number[],
): [number, number][] {
  const ranges: [number, number][] = [];
  order.forEach((k, pos) => {
    if (a[k] === b[k]) return;
    const last = ranges[ranges.length - 1];
    if (last && last[1] === pos) last[1] = pos + 1;
    else ranges.push([pos, pos + 1]);
  });
  return ranges;
}

const changed = (a: readonly number[], b: readonly number[]) =>
  a.reduce((n, o, i) => n + (o !== b[i] ? 1 : 0), 0);

/** Checks a configuration, naming the field at fault. */
export function configProblems(c: LeaderlessConfig): string[] {
  const p: string[] = [];
  const int = (v: number, min: number, max: number) => Number.isInteger(v) && v >= min && v <= max;
  if (!int(c.workers, 3, 64)) p.push('workers: an integer from 3 to 64 (two must die and one stay)');
  if (!int(c.keys, 1, 1_000_000)) p.push('keys: an integer from 1 to 1000000');
  if (!int(c.vnodes, 1, 1000)) p.push('vnodes: an integer from 1 to 1000');
  if (!int(c.quietMs, 0, 3_600_000)) p.push('quietMs: an integer from 0 to 3600000');
  if (!int(c.window.detectMs, 0, MAX_WINDOW_MS))
    p.push(`window.detectMs: an integer from 0 to ${MAX_WINDOW_MS}`);
  if (!int(c.window.totalMs, c.window.detectMs, MAX_WINDOW_MS))
    p.push(`window.totalMs: an integer from window.detectMs to ${MAX_WINDOW_MS}`);
  return p;
}

export function runLeaderless(c: LeaderlessConfig = DEFAULT_CONFIG): LeaderlessRun {
  const problems = configProblems(c);
  if (problems.length > 0) throw new Error(`leaderless model: ${problems.join('; ')}`);
  const all = Array.from({ length: c.workers }, (_, i) => i);
  const names = all.map((i) => `w${i + 1}`);
  const hashes = Array.from({ length: c.keys }, (_, k) => hash32(k, c.seed));
  // The seed picks (a)'s leader and the first worker to die, like an election would.
  const leader = hash32(1, c.seed ^ 0x1eade5) % c.workers;
  const victim = (leader + 1 + (hash32(2, c.seed ^ 0x1eade5) % (c.workers - 1))) % c.workers;
  let ring = ringOwners(hashes, all, c);
  const sharesOf = (o: readonly number[]) => all.map((w) => o.filter((x) => x === w).length);
  const shares = [sharesOf(ring)];

  const { detectMs, totalMs } = c.window;
  const killWorkerAtMs = c.quietMs;
  const killLeaderAtMs = killWorkerAtMs + detectMs + c.quietMs;
  const endMs = killLeaderAtMs + totalMs + c.quietMs;

  // Each kill moves the dead worker's keys; (a)'s leader moves exactly those too (its table can).
  const moved: Moved[] = [];
  const hashOrder = hashes.map((_, k) => k).sort((x, y) => hashes[x] - hashes[y] || x - y);
  let alive = all;
  const outages: Outage[] = [];
  for (const [dead, atMs] of [
    [victim, killWorkerAtMs],
    [leader, killLeaderAtMs],
  ] as const) {
    const next = alive.filter((w) => w !== dead);
    const ringNext = ringOwners(hashes, next, c);
    const modBefore = hashes.map((h) => modOwner(alive, h));
    const modNext = hashes.map((h) => modOwner(next, h));
    const keys = ring.filter((o) => o === dead).length;
    moved.push({
      worker: names[dead],
      ring: changed(ring, ringNext),
      modN: changed(modBefore, modNext),
      keys,
      ringRanges: changedRanges(hashOrder, ring, ringNext),
      modNRanges: changedRanges(hashOrder, modBefore, modNext),
    });
    // (b): only the dead worker's keys wait, until the others notice and the ring moves them.
    outages.push({
      design: 'ring',
      startMs: atMs,
      endMs: atMs + detectMs,
      keys,
      why: `${names[dead]}'s keys wait to move`,
    });
    // (a): with the leader dead, no assignment: every key waits for a new leader to be elected and
    // ready. A dead worker the leader notices as the ring would, and reassigns its keys.
    const noLeader = dead === leader;
    outages.push({
      design: 'leader',
      startMs: atMs,
      endMs: atMs + (noLeader ? totalMs : detectMs),
      keys: noLeader ? c.keys : keys,
      why: noLeader ? 'no leader assigns work' : `${names[dead]}'s keys wait for the leader`,
    });
    alive = next;
    ring = ringNext;
    shares.push(sharesOf(ring));
  }
  const unavailableKeyMs: Record<Design, number> = { leader: 0, ring: 0 };
  for (const o of outages) unavailableKeyMs[o.design] += o.keys * (o.endMs - o.startMs);
  return {
    config: c,
    workerNames: names,
    leader,
    victim,
    killWorkerAtMs,
    killLeaderAtMs,
    endMs,
    shares,
    outages,
    moved,
    unavailableKeyMs,
    steps: [
      { id: 'start', label: 'Start', untilMs: killWorkerAtMs },
      { id: 'kill-worker', label: `Kill worker ${names[victim]}`, untilMs: killLeaderAtMs },
      { id: 'kill-leader', label: `Kill ${names[leader]}, (a)'s leader`, untilMs: endMs },
      { id: 'summary', label: 'Summary', untilMs: endMs },
    ],
  };
}

export function unavailableAt(run: LeaderlessRun, design: Design, atMs: number): number {
  let n = 0;
  for (const o of run.outages) if (o.design === design && o.startMs <= atMs && atMs < o.endMs) n += o.keys;
  return Math.min(n, run.config.keys);
}

/** Unavailable key-ms of one design up to `atMs` (the running total the scene shows). */
export function unavailableKeyMsUntil(run: LeaderlessRun, design: Design, atMs: number): number {
  let sum = 0;
  for (const o of run.outages)
    if (o.design === design) sum += o.keys * Math.max(0, Math.min(o.endMs, atMs) - o.startMs);
  return sum;
}
