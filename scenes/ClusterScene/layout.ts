// Where things sit on the stage (a 640 x 520 viewBox), shared with the dot layer. The ring sits left of
// centre so the label under the node nearest storage ends before storage's box at every text size. With
// services the stage is 120 units wider (ensemble top right, API server by the ring, storage bottom right),
// so no line to them crosses storage; a laptop's stage cell (~1.43 : 1) keeps its scale.
export const VIEW_W = 640;
export const VIEW_W_SERVICES = 760;
export const VIEW_H = 520;
export const RING_CX = 290;
export const RING_CY = 260;
export const RING_R = 165;
export const NODE_R = 30;
export const STORAGE_POS = { x: 580, y: 260 };
/** Half the storage box's side: wide enough for "max 12" at the largest stage type. */
export const STORAGE_HALF = 50;
export const CLIENTS_POS = { x: 44, y: 260 };
/** The selection ring's radius, and the pause label's baseline above a node (clear of the ring). */
export const RING_SEL_R = NODE_R + 14;
export const PAUSE_LABEL_Y = -(NODE_R + 26);
/** The role label's first and second lines, under a node. */
export const ROLE_Y = NODE_R + 24;
export const ROLE_LINE = 1.15;

export interface Point {
  x: number;
  y: number;
}

export interface Half {
  w: number;
  h: number;
}

/** A service as the stage places it: its id, and its kind ('apiServer', or a store member's). */
export interface ServiceRef {
  id: string;
  kind: string;
}

export const API_KIND = 'apiServer';
/** Services drawn alone in the API server's place, apart from a store's members: it, or a fence device. */
export const isStandalone = (kind: string): boolean => kind === API_KIND || kind === 'fenceDevice';
/** The API server's box, below etcd's name and majority (on a small stage it grows with its words: CSS). */
export const API_POS = { x: 590, y: 330 };
/** A fence device: below the cluster managers it serves, clear of their name and of storage. */
export const FENCE_POS = { x: 680, y: 320 };
export const API_HALF: Half = { w: 58, h: 22 };
/** A store member's box, on a triangle of this radius around the ensemble's centre. */
export const MEMBER_HALF: Half = { w: 28, h: 20 };
export const ENSEMBLE_CENTRE = { x: 680, y: 140 };
export const ENSEMBLE_R = 56;
export const STORAGE_POS_SERVICES = { x: 590, y: 425 };
/** The wider stage is drawn smaller, so its 12 px words are larger in its units: a larger box. */
export const STORAGE_HALF_SERVICES = 58;

export function viewWidth(services: readonly ServiceRef[]): number {
  return services.length ? VIEW_W_SERVICES : VIEW_W;
}

export function storageHalf(services: readonly ServiceRef[]): number {
  return services.length ? STORAGE_HALF_SERVICES : STORAGE_HALF;
}

/** A service's box: the API server's, or a member's. */
export function serviceHalf(s: ServiceRef): Half {
  return isStandalone(s.kind) ? API_HALF : MEMBER_HALF;
}

/** The point `r` from `c` at `angle` (radians, clockwise from three o'clock). */
const polar = (c: Point, r: number, angle: number): Point => ({
  x: c.x + r * Math.cos(angle),
  y: c.y + r * Math.sin(angle),
});

export function nodePositions(ids: string[], services: readonly ServiceRef[] = []): Record<string, Point> {
  const ring = { x: RING_CX, y: RING_CY };
  const out: Record<string, Point> = {};
  const n = ids.length;
  ids.forEach(
    (id, i) => (out[id] = n === 1 ? ring : polar(ring, RING_R, -Math.PI / 2 + (2 * Math.PI * i) / n)),
  );
  out.storage = services.length ? STORAGE_POS_SERVICES : STORAGE_POS;
  out.clients = CLIENTS_POS;
  for (const s of services) if (isStandalone(s.kind)) out[s.id] = s.kind === API_KIND ? API_POS : FENCE_POS;
  // The members on a triangle pointing at the ring (one facing the nodes and API server, two behind), so
  // traffic between any two, and the API server's to each, runs clear of the others; more share a circle.
  const members = services.filter((s) => !isStandalone(s.kind));
  members.forEach(
    (s, i) => (out[s.id] = polar(ENSEMBLE_CENTRE, ENSEMBLE_R, Math.PI + (2 * Math.PI * i) / members.length)),
  );
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
