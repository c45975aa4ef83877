// The Export tab's embed snippets, each option an embed page parameter (src/shared/params.ts). The frame
// fills its column's width (a fixed one would push a phone's page sideways), at its scene's reserved height.
import type { SceneEntry } from '../../shared/scenes';

export interface EmbedChoices {
  /** `inherit`: the element follows the docs page; an iframe cannot see it, so follows the system. */
  theme: 'system' | 'light' | 'dark' | 'inherit';
  autoplay: boolean;
  controls: 'minimal' | 'none';
}

export const DEFAULT_CHOICES: EmbedChoices = { theme: 'system', autoplay: false, controls: 'minimal' };

/** The parameters, in the order a reader expects them: what, which run, then how. */
function params(scene: SceneEntry, run: string, c: EmbedChoices): [string, string][] {
  return [
    ['scene', scene.id],
    ['run', run],
    ['autoplay', c.autoplay ? '1' : '0'],
    ['controls', c.controls],
    ...(c.theme === 'system' ? [] : [['theme', c.theme] as [string, string]]),
  ];
}

const escapeAttr = (v: string) => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

/** `heightPx`: the frame's height (embedHeightOf); `gameDay`: the title of the game day it shows, if any. */
export function embedSnippets(
  scene: SceneEntry,
  run: string,
  choices: EmbedChoices,
  base: string,
  heightPx = scene.embedHeightPx,
  gameDay: string | null = null,
) {
  const list = params(scene, run, choices);
  // The iframe cannot read the page around it, so its `inherit` is the system's.
  const query = list
    .filter(([k, v]) => !(k === 'theme' && v === 'inherit'))
    .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
    .join('&');
  // The frame's accessible name: the scene, and the game day it shows if any.
  const title = escapeAttr(`Leader Election Lab: the ${scene.name}${gameDay ? `, ${gameDay}` : ''}`);
  const attrs = list.map(([k, v]) => `${k}="${escapeAttr(v)}"`).join(' ');
  return {
    iframe: `<iframe src="${base}embed.html?${query}" width="100%" height="${heightPx}" style="border:0" title="${title}" loading="lazy"></iframe>`,
    element: `<script src="${base}leader-election-scene.js"></script>\n<leader-election-scene ${attrs}></leader-election-scene>`,
  };
}
