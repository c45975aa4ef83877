// What a step's caption asserts, as data beside its words, and the words' numbers filled from the run. A
// caption is read while the lab is paused at the step's end, so every fact it states must hold in the
// snapshot there: the claims test runs every game day headless; the page's spec reads the same facts.
import { clientsNow, formatSeconds, type Snapshot } from '../engine';
import { metricValue } from './conditions';
import { METRIC_NAMES, type Claims, type MetricName, type NodeState } from './types';

/** A node as a caption speaks of it: dead, paused (and what it believes it is), or its role. */
export function nodeState(n: Snapshot['nodes'][number]): NodeState {
  if (!n.alive) return 'dead';
  return n.paused ? `paused ${n.role}` : n.role;
}

/** Alive nodes that believe they lead (paused ones included): the believed leader_count's nodes. */
export function believedLeaders(s: Snapshot): string[] {
  return s.nodes.filter((n) => n.alive && n.role === 'leader').map((n) => n.id);
}

export interface ClaimMismatch {
  claim: string;
  said: unknown;
  actual: unknown;
}

/** Each fact the claims state, as [name, said, actual at this snapshot]. */
function facts(claims: Claims, s: Snapshot): [string, unknown, unknown][] {
  const out: [string, unknown, unknown][] = [];
  if (claims.leader !== undefined) out.push(['leader', claims.leader, s.leader?.id ?? null]);
  if (claims.believedLeaders)
    out.push(['believedLeaders', [...claims.believedLeaders].sort(), believedLeaders(s).sort()]);
  for (const [id, said] of Object.entries(claims.nodes ?? {})) {
    const n = s.nodes.find((x) => x.id === id);
    out.push([`nodes.${id}`, said, n ? nodeState(n) : 'no such node']);
  }
  for (const [name, said] of Object.entries(claims.metrics ?? {}))
    out.push([`metrics.${name}`, said, metricValue(s, name as MetricName)]);
  if (claims.clients !== undefined) {
    const v = s.clients.view;
    out.push(['clients', claims.clients, v ? clientsNow(v, s.nowMs) : 'no clients']);
  }
  return out;
}

export const claimCount = (claims: Claims | undefined, s: Snapshot): number =>
  claims ? facts(claims, s).length : 0;

/** The claims that do not hold at this snapshot (none: the caption is true to the picture). */
export function checkClaims(claims: Claims | undefined, s: Snapshot): ClaimMismatch[] {
  if (!claims) return [];
  return facts(claims, s)
    .filter(([, said, actual]) => JSON.stringify(said) !== JSON.stringify(actual))
    .map(([claim, said, actual]) => ({ claim, said, actual }));
}

// `{name}`, or `{name:node}` for a node's figure; `{setting:path}` is the experiment's, filled at load.
const PLACEHOLDER = /\{([a-zA-Z]+)(?::([\w.]+))?\}/g;

/** The latest failover's phases, as the failover timeline draws them; undefined before one. */
function phase(name: string, s: Snapshot): string | undefined {
  const f = s.failovers[s.failovers.length - 1];
  if (!f) return undefined;
  const ready = f.readyAtMs >= 0 ? f.readyAtMs : undefined;
  const ms = {
    detection: f.detectedAtMs - f.lostAtMs,
    election: f.electedAtMs - f.detectedAtMs,
    warmUp: ready === undefined ? undefined : ready - f.electedAtMs,
    failover: ready === undefined ? undefined : ready - f.lostAtMs,
  }[name];
  return ms === undefined ? undefined : formatSeconds(ms);
}

const PHASES = ['detection', 'election', 'warmUp', 'failover'];

/** When the latest failover was lost, detected, elected and ready (the timeline's edges: its `…AtMs`). */
const MOMENTS = ['lostAt', 'detectedAt', 'electedAt', 'readyAt'] as const;

/** A node's own figures: its token (term), when its pause began, its last renewal, its deadline. */
function nodeFigure(name: string, id: string, s: Snapshot): string | undefined {
  const n = s.nodes.find((x) => x.id === id);
  if (!n) return undefined;
  if (name === 'term') return String(n.term);
  const ms = { pausedAt: n.pausedAtMs, lastRenewAt: n.lastRenewAtMs, deadlineAt: n.deadlineAtMs }[name];
  return ms === undefined || ms < 0 ? undefined : formatSeconds(ms);
}

/** The value a caption's placeholder stands for at this snapshot; undefined for an unknown name. */
function placeholderValue(name: string, s: Snapshot, arg?: string): string | undefined {
  if (arg !== undefined) return nodeFigure(name, arg, s);
  if (name === 'time') return formatSeconds(s.nowMs);
  if (name === 'leader') return s.leader?.id ?? 'no one';
  if (name === 'withoutLeader') return formatSeconds(s.counters.msWithoutLeader);
  if (name === 'startedAt') return s.startedAtMs < 0 ? undefined : formatSeconds(s.startedAtMs);
  if (name === 'watchNotifications') return s.queue && String(s.queue.watchNotifications);
  if (name === 'watchReads') return s.queue?.watchReads?.toString();
  if (name === 'lastRejectedAt') {
    const rejected = s.storage.recent.filter((x) => x.result === 'rejected');
    return rejected.length ? formatSeconds(rejected[rejected.length - 1].atMs) : undefined;
  }
  if ((MOMENTS as readonly string[]).includes(name)) {
    const f = s.failovers[s.failovers.length - 1];
    const ms = f?.[`${name as (typeof MOMENTS)[number]}Ms`];
    return ms === undefined || ms < 0 ? undefined : formatSeconds(ms);
  }
  if (PHASES.includes(name)) return phase(name, s);
  if ((METRIC_NAMES as readonly string[]).includes(name)) return String(metricValue(s, name as MetricName));
  return undefined;
}

/** Placeholders in a caption with no value at this snapshot (they would show in braces). */
export function unknownPlaceholders(caption: string, s: Snapshot): string[] {
  return [...caption.matchAll(PLACEHOLDER)]
    .filter((m) => placeholderValue(m[1], s, m[2]) === undefined)
    .map((m) => (m[2] === undefined ? m[1] : `${m[1]}:${m[2]}`));
}

/**
 * The caption with its numbers from the run: `{fencingRejections}`, `{leaderCount}`, any metric a
 * condition can read, `{leader}`, `{time}` (the simulated clock, "49.0 s"), `{withoutLeader}`
 * (the chart's time without a leader), `{startedAt}` (the first leader elected),
 * `{lastRejectedAt}` (the latest write storage rejected, of those it still lists), a coordination
 * store's `{watchNotifications}` and the `{watchReads}` they triggered, the latest
 * failover's `{detection}`, `{election}`, `{warmUp}` and `{failover}` (lost to ready) and its
 * moments `{lostAt}`, `{detectedAt}`, `{electedAt}`, `{readyAt}`, and a node's `{term:n2}`,
 * `{pausedAt:n1}`, `{lastRenewAt:n2}` and `{deadlineAt:n1}`, all at the pause `s`. Before the pause (null) they
 * are not known yet and read "…".
 */
export function fillCaption(caption: string, s: Snapshot | null): string {
  return caption.replace(PLACEHOLDER, (whole, name: string, arg?: string) =>
    s ? (placeholderValue(name, s, arg) ?? whole) : '…',
  );
}
