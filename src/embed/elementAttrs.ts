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

/**
 * Each scene's title by id and alias, and each game day's by id (scenes.ts and the game days'
 * files; a unit test holds them alike): the element names its frame as the embed page will
 * (the scene and its game day) from the start, not only once the frame has loaded and said so.
 */
export const SCENE_TITLES: Readonly<Record<string, string>> = {
  cluster: 'Cluster stage',
  stage: 'Cluster stage',
  chain: 'Fencing chain',
  'metric-line': 'leader_count chart',
  metric: 'leader_count chart',
  metricline: 'leader_count chart',
  chart: 'leader_count chart',
  failover: 'Failover timeline',
  znodes: 'Znode queue',
  queue: 'Znode queue',
  'znode-queue': 'Znode queue',
  leaderless: "Don't have a leader",
  partition: "Don't have a leader",
  'no-leader': "Don't have a leader",
  spacetime: 'Space-time diagram',
  lamport: 'Space-time diagram',
  'space-time': 'Space-time diagram',
};
export const GAME_DAY_TITLES: Readonly<Record<string, string>> = {
  'steady-state': 'Steady state',
  'kill-leader': 'Kill the leader',
  'gc-pause-short': 'GC pause shorter than the lease',
  'gc-pause-long': 'GC pause longer than the lease, fencing on',
  'gc-pause-long-no-fencing': 'GC pause longer than the lease, fencing off',
  'kleppmann-33-34': "Kleppmann's 33/34",
  'quorum-split-2-3': 'Quorum prevents split brain',
  'no-quorum-split-brain': 'No quorum: split brain',
  'github-2018-no-fencing': 'GitHub 2018, without fencing',
  'github-2018-fenced': 'GitHub 2018, with fencing',
  'drill-26-failback-silent-accept': 'Drill 26 failback: silent accept',
  'drill-26-failback-reject-fenced': 'Drill 26 failback: reject with redirect, and fencing',
  'even-cluster': 'Even cluster: four nodes',
  'two-nodes': 'Two nodes, no witness',
  'two-nodes-witness': 'Two nodes and a witness',
  'clock-skew': 'Clock skew: a fast clock takes over early',
  'flapping-tight-lease': 'Flapping: a lease too tight for the pauses',
  'flapping-wide-lease': "Flapping fixed: Kubernetes' 15 s / 10 s / 2 s",
  'warm-up-under-load': 'Warm-up under load',
  'bully-split-2-3': 'Bully under a 2|3 split: fencing alone is not enough',
  'ring-lost-election': 'Ring: the node holding the election dies',
  'zookeeper-watch-predecessor': "ZooKeeper's recipe: watch the predecessor",
  'zookeeper-herd-effect': "ZooKeeper's herd effect: everyone watches the leader",
  'leaderless-partition-the-work': "Don't have a leader: partition the work",
  'etcd-raft-failover-tight-deadline': "etcd's own failover under a tight renew deadline",
  'etcd-raft-failover-session-ttl': "etcd's own failover, the session's TTL deciding",
};

const titleOf = (table: Readonly<Record<string, string>>, raw: string | null): string | null => {
  const v = (raw ?? '').toLowerCase();
  return Object.hasOwn(table, v) ? table[v] : null;
};

/** The frame's accessible name for these attributes (any case; the default scene when unknown). */
export function frameTitle(scene: string | null, scenario: string | null): string {
  // As the embed page names it (scenes.ts embedName): the scene and its game day, once.
  const own = titleOf(SCENE_TITLES, scene) ?? SCENE_TITLES.cluster;
  const day = titleOf(GAME_DAY_TITLES, scenario);
  const name = !day ? own : day.startsWith(own) ? day : `${own}: ${day}`;
  return `Leader Election Lab: ${name}`;
}
