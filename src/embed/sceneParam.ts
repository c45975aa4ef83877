// Which scene an embed shows, read from its URL; an unknown name is reported, not guessed.
export const SCENES = {
  cluster: 'Cluster stage',
  chain: 'Fencing chain',
  'metric-line': 'leader_count chart',
  failover: 'Failover timeline',
} as const;

export type SceneName = keyof typeof SCENES;

const ALIASES: Record<string, SceneName> = {
  metric: 'metric-line',
  metricline: 'metric-line',
  stage: 'cluster',
};

export interface EmbedOptions {
  scene: SceneName;
  controls: 'minimal' | 'none';
  theme: 'light' | 'dark' | 'system';
  autoplay: boolean;
  /** Identifies this embed to its host page (for height messages). */
  id: string | null;
  problems: string[];
}

export function readEmbedOptions(search: string): EmbedOptions {
  const q = new URLSearchParams(search);
  const problems: string[] = [];
  const rawScene = (q.get('scene') ?? 'cluster').toLowerCase();
  let scene: SceneName = 'cluster';
  // Own keys only: `in` also finds what every object inherits, so "constructor" or "__proto__"
  // would pass as a scene name and blank the embed.
  if (Object.hasOwn(SCENES, rawScene)) scene = rawScene as SceneName;
  else if (Object.hasOwn(ALIASES, rawScene)) scene = ALIASES[rawScene];
  else problems.push(`"scene" must be one of ${Object.keys(SCENES).join(', ')} (got "${rawScene}")`);
  const rawControls = q.get('controls') ?? 'minimal';
  const controls = rawControls === 'none' ? 'none' : 'minimal';
  if (rawControls !== 'none' && rawControls !== 'minimal')
    problems.push(`"controls" must be minimal or none (got "${rawControls}")`);
  const rawTheme = q.get('theme') ?? 'system';
  const theme = rawTheme === 'light' || rawTheme === 'dark' ? rawTheme : 'system';
  if (!['light', 'dark', 'system'].includes(rawTheme))
    problems.push(`"theme" must be light, dark or system (got "${rawTheme}")`);
  const autoplay = q.get('autoplay') !== '0';
  return { scene, controls, theme, autoplay, id: q.get('id'), problems };
}
