// The attributes the element keeps from the embed page (src/shared/params.ts's element-only rows; a unit
// test holds them alike), kept apart so the element's script stays small (2 KB) and imports nothing.
export const OWN_ATTRS: readonly string[] = ['height', 'title'];

export const GLOBAL_ATTR =
  /^(id|class|style|slot|part|hidden|lang|dir|tabindex|is|nonce|translate|inert|autofocus|draggable|spellcheck|contenteditable|enterkeyhint|inputmode|popover|role|on[a-z]+|data-.*|aria-.*)$/i;

export function passedOn(name: string): boolean {
  return !OWN_ATTRS.includes(name) && !GLOBAL_ATTR.test(name);
}

/**
 * Each scene's title and embed height at 720 px, and its aliases (as scenes.ts has them; a unit test holds
 * them alike): the element takes the height before its frame loads, so the page does not move.
 */
export const SCENE_EMBEDS: Readonly<Record<string, readonly [title: string, heightPx: number]>> = {
  cluster: ['Cluster stage', 800],
  chain: ['Fencing chain', 760],
  'metric-line': ['leader_count chart', 720],
  failover: ['Failover timeline', 420],
  znodes: ['Znode queue', 640],
  leaderless: ["Don't have a leader", 900],
  spacetime: ['Space-time diagram', 1050],
};
export const SCENE_ALIASES: Readonly<Record<string, string>> = {
  stage: 'cluster',
  metric: 'metric-line',
  metricline: 'metric-line',
  chart: 'metric-line',
  queue: 'znodes',
  'znode-queue': 'znodes',
  partition: 'leaderless',
  'no-leader': 'leaderless',
  lamport: 'spacetime',
  'space-time': 'spacetime',
};
export const CAPTION_PX = 100;

/** An own entry of `table` by `raw` in any case, or null ("constructor" is no scene). */
const entry = <T>(table: Readonly<Record<string, T>>, raw: string | null): T | null => {
  const v = (raw ?? '').toLowerCase();
  return Object.hasOwn(table, v) ? table[v] : null;
};

/** A scene's entry by id or alias (any case; the default scene when unknown). */
const sceneEmbed = (scene: string | null) =>
  entry(SCENE_EMBEDS, entry(SCENE_ALIASES, scene) ?? scene) ?? SCENE_EMBEDS.cluster;

export function reservedPx(scene: string | null, captioned: boolean): number {
  return sceneEmbed(scene)[1] + (captioned ? CAPTION_PX : 0);
}

/** The frame's name until it says its own; game days by id, as titles would break the embed's load budget. */
export function frameTitle(scene: string | null, scenario: string | null): string {
  const day = scenario?.trim();
  return `Leader Election Lab: ${sceneEmbed(scene)[0]}${day ? `, game day ${day}` : ''}`;
}
