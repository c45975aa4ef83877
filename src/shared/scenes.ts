// Every scene of the lab in one registry: its URL name, what people call it, how its code loads, what the
// export panel saves of it, an embed's height, where the lab shows it and which guided steps point at it. The
// lab, the embed page, the export panel, guided narration, URL parameters and the docs all read it, so a new
// scene is one folder under scenes/ and one entry here (in the lab's tab strip unless it says otherwise).
import type { ComponentType } from 'react';
import type { View } from '../scenario/types';
import type { Experiment } from '../engine/experiment';
import { watchCountsOf } from '../engine/algorithms/info';

/** One image the export panel can save: an element of the scene, found by selector. */
export interface ExportPart {
  /** In file names. */
  id: string;
  /** Reads after "Export the ...". */
  name: string;
  selector: string;
  /** HTML parts export as SVG through a foreignObject (sceneSvg.ts says why that matters). */
  html: boolean;
}

export interface SceneEntry {
  /** The scene's name in URLs (`scene=`) and its key everywhere else. */
  id: string;
  /** As a heading or a label: "Fencing chain". */
  title: string;
  /** In a sentence: "the fencing chain". */
  name: string;
  /** Other names `scene=` accepts. */
  aliases: readonly string[];
  /** The scene's component, loaded on first use (each scene is a chunk of its own). */
  load(): Promise<ComponentType>;
  exports: readonly ExportPart[];
  /**
   * Height of an embed 720 px wide: the scene's tallest content fits (embed-size.spec), reserved from the
   * start so the frame keeps one height; element.ts keeps a copy (a unit test holds them alike).
   */
  embedHeightPx: number;
  /** The frame's height for this run, where a run can show more than embedHeightPx holds. */
  embedHeightFor?(experiment: Experiment): number;
  /** The title for this run, where the scene shows another system's mechanism under its name. */
  titleFor?(experiment: Experiment): string;
  /** Where the lab shows it: a place on the first screen, or a tab below it. */
  labPlace: 'stage' | 'chain' | 'chart' | 'failover' | 'tab';
  /** A tab's scene loads once the page is idle, or when its tab opens: kept out of the first load. */
  tabLoads?: 'idle' | 'opened';
  /** The guided steps' `watch.view` values that point at this scene. */
  watch: readonly View[];
}

const ON_DEMAND_TAB = { labPlace: 'tab', tabLoads: 'opened' } as const;

export const SCENES = [
  {
    id: 'cluster',
    title: 'Cluster stage',
    name: 'cluster stage',
    aliases: ['stage'],
    load: () => import('../../scenes/ClusterScene/ClusterScene').then((m) => m.ClusterScene),
    exports: [{ id: 'cluster', name: 'cluster stage', selector: '.cluster-svg', html: false }],
    embedHeightPx: 800,
    labPlace: 'stage',
    watch: ['cluster', 'storage'],
  },
  {
    id: 'chain',
    title: 'Fencing chain',
    name: 'fencing chain',
    aliases: [],
    load: () => import('../../scenes/ChainScene/ChainScene').then((m) => m.ChainScene),
    exports: [
      { id: 'chain', name: 'fencing chain', selector: '.chain-scene', html: true },
      { id: 'lease-ring', name: 'lease ring', selector: '.chain-ring', html: false },
    ],
    embedHeightPx: 760,
    labPlace: 'chain',
    watch: ['chain'],
  },
  {
    id: 'metric-line',
    title: 'leader_count chart',
    name: 'leader_count chart',
    aliases: ['metric', 'metricline', 'chart'],
    load: () => import('../../scenes/MetricLineScene/MetricLineScene').then((m) => m.MetricLineScene),
    exports: [{ id: 'leader-count', name: 'leader_count chart', selector: '.metric-svg', html: false }],
    embedHeightPx: 720,
    // ZooKeeper's chart has a fifth panel (watch notifications), and a figure more in its header.
    embedHeightFor: (e: Experiment) => (watchCountsOf(e) ? 820 : 720),
    labPlace: 'chart',
    watch: ['metric'],
  },
  {
    id: 'failover',
    title: 'Failover timeline',
    name: 'failover timeline',
    aliases: [],
    load: () =>
      import('../../scenes/FailoverTimelineScene/FailoverTimelineScene').then((m) => m.FailoverTimelineScene),
    exports: [{ id: 'failover', name: 'failover timeline', selector: '.failover-scene', html: true }],
    embedHeightPx: 420,
    // Beside the chart: its phases are what the chart's time without a leader is made of.
    labPlace: 'failover',
    watch: ['failover'],
  },
  {
    id: 'znodes',
    title: 'Znode queue',
    // etcd's election has keys with create revisions, not znodes.
    titleFor: (e: Experiment) => (e.algorithm === 'etcd-election' ? 'Election keys' : 'Znode queue'),
    name: 'znode queue',
    aliases: ['queue', 'znode-queue'],
    load: () => import('../../scenes/ZnodeQueueScene/ZnodeQueueScene').then((m) => m.ZnodeQueueScene),
    exports: [{ id: 'znodes', name: 'znode queue', selector: '.znode-queue', html: true }],
    embedHeightPx: 640,
    ...ON_DEMAND_TAB,
    watch: ['queue'],
  },
  {
    id: 'leaderless',
    title: "Don't have a leader",
    name: 'leaderless comparison',
    aliases: ['partition', 'no-leader'],
    load: () => import('../../scenes/LeaderlessScene/LeaderlessScene').then((m) => m.LeaderlessScene),
    exports: [{ id: 'leaderless', name: 'leaderless comparison', selector: '.leaderless-scene', html: true }],
    embedHeightPx: 900,
    ...ON_DEMAND_TAB,
    watch: ['leaderless'],
  },
  {
    id: 'spacetime',
    title: 'Space-time diagram',
    name: 'space-time diagram',
    aliases: ['lamport', 'space-time'],
    load: () => import('../../scenes/SpaceTimeScene/SpaceTimeScene').then((m) => m.SpaceTimeScene),
    exports: [{ id: 'spacetime', name: 'space-time diagram', selector: '.spacetime-svg', html: false }],
    // With its key above the diagram; a setup with services (an API server, an ensemble, sentinels)
    // has more lanes and more words in its key: 1043 px with Redis Sentinel's or Pacemaker's.
    embedHeightPx: 1050,
    ...ON_DEMAND_TAB,
    watch: [],
  },
] as const satisfies readonly SceneEntry[];

export type SceneId = (typeof SCENES)[number]['id'];

/** A step caption's room above the scene before the embed knows the game day's words: 4 lines at 720 px. */
export const EMBED_CAPTION_PX = 100;

/**
 * A caption's height above the scene at 720 px: its lines (the embed sets about 85 characters a line there;
 * 80 leaves room for long words), 21 px each, with "Game day, step N of M: " before it, and space under it.
 */
export function captionPx(caption: string): number {
  return 16 + Math.ceil((caption.length + 24) / 80) * 21;
}

/** The height an embed of `scene` reserves for this run: the scene's, plus its game day's longest caption. */
export function embedHeightOf(
  scene: SceneEntry,
  experiment: Experiment,
  captions: readonly string[] = [],
): number {
  const caption = captions.reduce((most, c) => Math.max(most, captionPx(c)), 0);
  return (scene.embedHeightFor?.(experiment) ?? scene.embedHeightPx) + caption;
}

/** An embed's name: the scene and its game day, once (a game day named after its scene is not named twice). */
export function embedName(scene: SceneEntry, gameDayTitle: string | null): string {
  if (!gameDayTitle) return scene.title;
  return gameDayTitle.startsWith(scene.title) ? gameDayTitle : `${scene.title}: ${gameDayTitle}`;
}

/** The scene's title for this run (its tab, its heading). */
export function sceneTitle(scene: SceneEntry, experiment: Experiment): string {
  return scene.titleFor?.(experiment) ?? scene.title;
}

export function sceneById(id: SceneId): SceneEntry {
  return SCENES.find((s) => s.id === id) as SceneEntry;
}

/** The scene a guided step's `watch.view` points at, if it is a scene. */
export function sceneWatching(view: View): SceneEntry | undefined {
  return (SCENES as readonly SceneEntry[]).find((s) => s.watch.includes(view));
}

/** Every image the export panel offers, scene by scene. */
export const EXPORT_PARTS: readonly ExportPart[] = (SCENES as readonly SceneEntry[]).flatMap(
  (s) => s.exports,
);
