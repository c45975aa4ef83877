// What moves on the stage in one frame: each node's lease arc and every message in flight, as
// plain shapes in the stage's viewBox. A pure function of the frame's snapshot, drawn on a canvas
// while the lab plays and written into the stage's SVG when it is exported, so both show the
// same shapes.
import type { Experiment, MessageView, Snapshot } from '../../src/engine';
import { messagePoint, nodePositions, NODE_R, type Point } from './layout';

/** At most this many message dots are drawn (the rest are in flight but not shown). */
export const MAX_DOTS = 160;
/** A dropped message stays on the stage this long, falling, before it disappears. */
export const DROP_SHOW_MS = 900;
export const ARC_R = NODE_R + 7;

/** Kinds of message dot, in drawing order (later ones on top). */
export const DOT_KINDS = ['heartbeat', 'vote', 'write', 'reject', 'dropped'] as const;
export type DotKind = (typeof DOT_KINDS)[number];

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

function dotKind(m: MessageView): DotKind {
  if (m.type === 'write') return 'write';
  if (m.type === 'writeRejected') return 'reject';
  if (m.type === 'heartbeat' || m.type === 'ack') return 'heartbeat';
  return 'vote';
}

/**
 * A node's lease arc: the time left before it must renew (a leader, against its renew deadline)
 * or may campaign (a follower, against the wait it was given). None for a dead node.
 */
function arcFraction(n: Snapshot['nodes'][number], nowMs: number, lease: Experiment['lease']): number {
  if (!n.alive || n.deadlineAtMs < 0) return 0;
  const total =
    n.role === 'leader'
      ? (lease?.renewDeadlineMs ?? 0)
      : Math.max(1, n.deadlineAtMs - Math.max(0, n.lastRenewAtMs));
  if (total <= 0) return 0;
  return Math.min(1, Math.max(0, (n.deadlineAtMs - nowMs) / total));
}

export function frameMotion(snap: Snapshot, lease: Experiment['lease']): Motion {
  const now = snap.nowMs;
  const at = nodePositions(snap.nodes.map((n) => n.id));
  const arcs: ArcShape[] = [];
  for (const n of snap.nodes) {
    const fraction = arcFraction(n, now, lease);
    if (fraction > 0) arcs.push({ node: n.id, at: at[n.id], fraction });
  }
  const dots: Motion['dots'] = { heartbeat: [], vote: [], write: [], reject: [], dropped: [] };
  let count = 0;
  for (const m of snap.messages) {
    if (count >= MAX_DOTS) break;
    const dropped = m.droppedAtMs !== undefined;
    if (dropped && now - (m.droppedAtMs as number) >= DROP_SHOW_MS) continue;
    const from = at[m.from];
    const to = at[m.to];
    if (!from || !to) continue;
    const pt = messagePoint(from, to, m.sentAtMs, m.deliverAtMs, dropped ? (m.droppedAtMs as number) : now);
    const kind = dropped ? 'dropped' : dotKind(m);
    dots[kind].push({ x: pt.x, y: pt.y, r: dropped || kind === 'write' || kind === 'reject' ? 7 : 5 });
    count++;
  }
  return { arcs, dots };
}
