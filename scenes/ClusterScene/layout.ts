// Where things sit on the cluster stage (a 640 x 520 viewBox): nodes on a ring, storage to the
// right, the client population to the left. Pure functions, shared with the message-dot layer.
export const VIEW_W = 640;
export const VIEW_H = 520;
export const RING_CX = 300;
export const RING_CY = 250;
export const RING_R = 165;
export const NODE_R = 30;
export const STORAGE_POS = { x: 570, y: 250 };
export const CLIENTS_POS = { x: 48, y: 250 };

export interface Point {
  x: number;
  y: number;
}

export function nodePositions(ids: string[]): Record<string, Point> {
  const out: Record<string, Point> = {};
  const n = ids.length;
  ids.forEach((id, i) => {
    if (n === 1) {
      out[id] = { x: RING_CX, y: RING_CY };
      return;
    }
    const angle = -Math.PI / 2 + (2 * Math.PI * i) / n;
    out[id] = { x: RING_CX + RING_R * Math.cos(angle), y: RING_CY + RING_R * Math.sin(angle) };
  });
  out.storage = STORAGE_POS;
  out.clients = CLIENTS_POS;
  return out;
}

/** Position of a message in flight: a pure function of simulated time (free pause, speed, scrub). */
export function messagePoint(
  from: Point,
  to: Point,
  sentAtMs: number,
  deliverAtMs: number,
  nowMs: number,
): Point {
  const span = Math.max(1, deliverAtMs - sentAtMs);
  const f = Math.min(1, Math.max(0, (nowMs - sentAtMs) / span));
  return { x: from.x + (to.x - from.x) * f, y: from.y + (to.y - from.y) * f };
}

/** SVG arc path for a fraction (0..1) of a circle, starting at 12 o'clock, clockwise. */
export function arcPath(cx: number, cy: number, r: number, fraction: number): string {
  const f = Math.min(0.9999, Math.max(0, fraction));
  if (f <= 0) return '';
  const a = -Math.PI / 2 + 2 * Math.PI * f;
  const x = cx + r * Math.cos(a);
  const y = cy + r * Math.sin(a);
  return `M ${cx} ${cy - r} A ${r} ${r} 0 ${f > 0.5 ? 1 : 0} 1 ${x.toFixed(2)} ${y.toFixed(2)}`;
}

/** SVG path for a full circle: two half arcs (a path may hold many, one per message dot). */
export function circlePath(cx: number, cy: number, r: number): string {
  return `M${(cx - r).toFixed(1)} ${cy.toFixed(1)}a${r} ${r} 0 1 0 ${2 * r} 0a${r} ${r} 0 1 0 ${-2 * r} 0`;
}
