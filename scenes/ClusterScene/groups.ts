// Partition groups: an outline around each group's members and their words, its name outside. Pure geometry.
import { polygonHull } from 'd3';
import {
  NODE_R,
  PAUSE_LABEL_Y,
  RING_CX,
  RING_CY,
  ROLE_Y,
  VIEW_H,
  VIEW_W,
  type Half,
  type Point,
} from './layout';

/** Room around a node's circle (and its selection ring). */
const PAD = NODE_R + 22;
// Sizes of the words around a node at a phone's stage type; `k` (typeScale) scales them to the stage's.
/** Half the widest role label's width ("pre-candidate"); how far under its baseline its second line ends. */
const LABEL_HALF_W = 98;
const LABEL_BELOW = 34;
/** The GC-pause label's height and half its width ("GC pause 12.3 s" at the largest stage type). */
const PAUSE_H = 22;
const PAUSE_HALF_W = 100;
/** How far from the outline a group's name may go, tried in order. */
const NAME_GAPS = [16, 40, 70];
/** A group name's box, at the largest stage type (bold, about 12 px on a phone's stage). */
const NAME_HALF_W = 58;
const NAME_H = 28;

export interface Box {
  l: number;
  r: number;
  t: number;
  b: number;
}

const overlaps = (a: Box, b: Box) => a.l < b.r && b.l < a.r && a.t < b.b && b.t < a.b;

/** What a node takes up on the stage: its ring, its pause label above, its role label below. */
export function nodeBox(m: GroupMember, k = 1): Box {
  const { x, y } = m.at;
  const half = (m.paused ? PAUSE_HALF_W : LABEL_HALF_W) * k;
  return { l: x - half, r: x + half, t: y - (m.paused ? pauseTop(k) : PAD), b: y + ROLE_Y + LABEL_BELOW * k };
}

/** How far above a node its GC-pause label reaches. */
const pauseTop = (k: number) => -PAUSE_LABEL_Y + PAUSE_H * k;

/**
 * The sizes above suit role labels of about 23 units (a phone); `typeScale` is the stage's labels' size
 * (max(13 px, 12 px on screen), `unit`: viewBox units per px) over that, at least 0.8 (pause words larger).
 */
export const typeScale = (unit: number): number => Math.max(0.8, Math.max(13, 12 * unit) / 23);

export interface GroupMember {
  at: Point;
  paused: boolean;
  /** Half the size of a box drawn there instead of a node (the storage, a service). */
  box?: Half;
}

/** What a box drawn at `at` takes up, with `pad` around it. */
export function boxAround(at: Point, half: Half, pad = 0): Box {
  return { l: at.x - half.w - pad, r: at.x + half.w + pad, t: at.y - half.h - pad, b: at.y + half.h + pad };
}

export interface GroupShape {
  d: string;
  /** Where the group's name goes: outside the outline, on the side away from the ring's centre. */
  label: Point;
}

/** The points an outline must enclose for one node: its circle, its role label, its pause label. */
function around(m: GroupMember, k: number): [number, number][] {
  const { x, y } = m.at;
  if (m.box !== undefined) {
    const w = m.box.w + 12;
    const h = m.box.h + 12;
    return [
      [x - w, y - h],
      [x + w, y - h],
      [x + w, y + h],
      [x - w, y + h],
    ];
  }
  const pts: [number, number][] = [];
  for (let i = 0; i < 16; i++) {
    const a = (i / 16) * Math.PI * 2;
    pts.push([x + PAD * Math.cos(a), y + PAD * Math.sin(a)]);
  }
  const half = LABEL_HALF_W * k;
  pts.push([x - half, y + ROLE_Y - 18 * k], [x + half, y + ROLE_Y - 18 * k]);
  pts.push([x - half, y + ROLE_Y + LABEL_BELOW * k], [x + half, y + ROLE_Y + LABEL_BELOW * k]);
  // Bulge over a paused node to its pause label's middle; the whole label would cross a neighbour's words.
  if (m.paused) pts.push([x - 40 * k, y - pauseTop(k)], [x + 40 * k, y - pauseTop(k)]);
  return pts;
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** A name centred at `at` (its baseline) is on a stage `width` wide, clear of everything in `avoid`. */
function fits(at: Point, avoid: readonly Box[], width: number, k: number): boolean {
  const box = { l: at.x - NAME_HALF_W * k, r: at.x + NAME_HALF_W * k, t: at.y - NAME_H * k + 6, b: at.y + 6 };
  if (box.l < 0 || box.r > width || box.t < 0 || box.b > VIEW_H) return false;
  return !avoid.some((a) => overlaps(box, a));
}

/** `avoid`: what the name must not cover (nodeBox, boxAround); `width`: viewWidth; `k`: typeScale. */
export function groupShape(
  members: readonly GroupMember[],
  avoid: readonly Box[] = [],
  width = VIEW_W,
  k = 1,
): GroupShape | null {
  if (!members.length) return null;
  const hull = polygonHull(members.flatMap((m) => around(m, k)));
  if (!hull) return null;
  // Rounded corners would be nicer; a straight outline is enough to read a group by.
  const d = `M ${hull.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' L ')} Z`;
  // The name goes outside the outline (so nothing of the group is under it), beyond its point farthest
  // from the ring's centre, or the next farthest if a box or the stage's edge is in the way.
  const byDistance = [...hull].sort(
    (a, b) => (b[0] - RING_CX) ** 2 + (b[1] - RING_CY) ** 2 - ((a[0] - RING_CX) ** 2 + (a[1] - RING_CY) ** 2),
  );
  const candidates = byDistance.flatMap((p) => {
    const len = Math.hypot(p[0] - RING_CX, p[1] - RING_CY) || 1;
    const out = [(p[0] - RING_CX) / len, (p[1] - RING_CY) / len];
    // Straight out from the ring first, then sideways and up or down, a little further each time.
    return NAME_GAPS.flatMap((d) =>
      [out, [1, 0], [-1, 0], [0, -1], [0, 1]].map(([dx, dy]) => ({
        x: p[0] + dx * (d + (dx ? NAME_HALF_W * k : 0) * Math.abs(dx)),
        y: p[1] + dy * d + 5,
      })),
    );
  });
  const label = candidates.find((at) => fits(at, avoid, width, k)) ?? {
    x: clamp(byDistance[0][0], NAME_HALF_W * k, width - NAME_HALF_W * k),
    y: clamp(byDistance[0][1], NAME_H * k, VIEW_H - 6),
  };
  return { d, label };
}
