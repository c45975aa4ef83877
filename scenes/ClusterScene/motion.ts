// One frame's moving shapes (lease arcs, messages) in viewBox units, pure: the canvas and exports alike.
import { ALGORITHMS, type Experiment, type MessageType, type Snapshot } from '../../src/engine';
import { messagePoint, nodePositions, type Point } from './layout';
import { ARC_R, DOT_KINDS, type DotKind, type Family } from './shapes';

export { ARC_R, DOT_KINDS, type DotKind, type Family };

/** At most this many message dots are drawn (the rest are in flight but not shown). */
export const MAX_DOTS = 160;
/** A dropped message stays on the stage this long, falling, before it disappears. */
export const DROP_SHOW_MS = 900;
/** Each message kind's family, from the algorithms' tables (a shared kind has one: tests hold them to it). */
export const FAMILY_OF: Readonly<Record<MessageType, Family>> = Object.assign(
  { write: 'write', writeRejected: 'reject' } as Record<MessageType, Family>,
  ...Object.values(ALGORITHMS).flatMap((a) => a.messages.map((k) => ({ [k.type]: k.family }))),
);

export interface ArcShape {
  node: string;
  /** The node's centre, which the arc circles. */
  at: Point;
  /** Share of the full turn still left (0..1), clockwise from twelve o'clock. */
  fraction: number;
}

export interface DotShape {
  x: number;
  y: number;
  r: number;
}

export interface Motion {
  arcs: ArcShape[];
  dots: Record<DotKind, DotShape[]>;
}

/** A node's lease arc: time left to renew (a leader) or before it may campaign (a follower); none if dead. */
function arcFraction(n: Snapshot['nodes'][number], nowMs: number, lease: Experiment['lease']): number {
  if (!n.alive || n.deadlineAtMs < 0) return 0;
  // A Kubernetes leader's arc runs against its renew deadline; any other node's against the span
  // from the last thing it heard (or renewed) to the deadline its algorithm gave it.
  const total =
    n.role === 'leader' && lease
      ? lease.renewDeadlineMs
      : Math.max(1, n.deadlineAtMs - Math.max(0, n.lastRenewAtMs));
  if (total <= 0) return 0;
  return Math.min(1, Math.max(0, (n.deadlineAtMs - nowMs) / total));
}

export function frameMotion(snap: Snapshot, lease: Experiment['lease']): Motion {
  const now = snap.nowMs;
  const at = nodePositions(
    snap.nodes.map((n) => n.id),
    snap.services,
  );
  const arcs: ArcShape[] = [];
  for (const n of snap.nodes) {
    const fraction = arcFraction(n, now, lease);
    if (fraction > 0) arcs.push({ node: n.id, at: at[n.id], fraction });
  }
  const dots = Object.fromEntries(DOT_KINDS.map((k) => [k, []])) as unknown as Motion['dots'];
  let count = 0;
  for (const m of snap.messages) {
    if (count >= MAX_DOTS) break;
    const dropped = m.droppedAtMs !== undefined;
    if (dropped && now - (m.droppedAtMs as number) >= DROP_SHOW_MS) continue;
    const from = at[m.from];
    const to = at[m.to];
    if (!from || !to) continue;
    const pt = messagePoint(from, to, m.sentAtMs, m.deliverAtMs, dropped ? (m.droppedAtMs as number) : now);
    const kind = dropped ? 'dropped' : (FAMILY_OF[m.type] ?? 'request');
    dots[kind].push({ x: pt.x, y: pt.y, r: dropped || kind === 'write' || kind === 'reject' ? 7 : 5 });
    count++;
  }
  return { arcs, dots };
}
