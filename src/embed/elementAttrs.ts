// Which of the element's attributes it keeps for itself rather than passing to the embed page:
// the table's element-only rows (src/shared/params.ts; a unit test holds the two alike) and
// the attributes any HTML element may carry. Kept apart from the table so that the element's
// script stays a few hundred bytes and imports nothing (docs load it as a classic script).
export const OWN_ATTRS: readonly string[] = ['height', 'title'];

export const GLOBAL_ATTR =
  /^(id|class|style|slot|part|hidden|lang|dir|tabindex|is|nonce|translate|inert|autofocus|draggable|spellcheck|contenteditable|enterkeyhint|inputmode|popover|role|on[a-z]+|data-.*|aria-.*)$/i;

/** Whether an attribute of the element becomes a parameter of its frame. */
export function passedOn(name: string): boolean {
  return !OWN_ATTRS.includes(name) && !GLOBAL_ATTR.test(name);
}

/**
 * The height each scene's embed reserves at 720 px (scenes.ts embedHeightPx, by id and alias; a
 * unit test holds the two alike), and what a step's caption adds (EMBED_CAPTION_PX). The element
 * takes it before its frame loads, so the page around it does not move when the scene arrives.
 */
export const RESERVED_PX: Readonly<Record<string, number>> = {
  cluster: 800,
  stage: 800,
  chain: 760,
  'metric-line': 720,
  metric: 720,
  metricline: 720,
  chart: 720,
  failover: 420,
  znodes: 640,
  queue: 640,
  'znode-queue': 640,
  leaderless: 900,
  partition: 900,
  'no-leader': 900,
  spacetime: 1050,
  lamport: 1050,
  'space-time': 1050,
};
export const CAPTION_PX = 100;

/** The height an element reserves for `scene` (any case; the default scene when unknown). */
export function reservedPx(scene: string | null, captioned: boolean): number {
  const own = Object.hasOwn(RESERVED_PX, (scene ?? '').toLowerCase())
    ? RESERVED_PX[(scene ?? '').toLowerCase()]
    : RESERVED_PX.cluster;
  return own + (captioned ? CAPTION_PX : 0);
}
