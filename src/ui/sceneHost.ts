// What a scene knows of the page that hosts it, to word its hints and choose its layout by: whether the
// reader has controls to act with (an embed has at most play and restart), and whether it is drawn compact.
import { createContext, useContext, type ComponentType } from 'react';
import type { SpacetimeFilter } from '../scenario/types';

export interface SceneHost {
  /** The reader can kill, pause or split from this page. */
  controls: boolean;
  /** Compact: a view sharing the first screen; full: the scene alone. */
  density: 'compact' | 'full';
  /** The node panel's actions: with it, a click on a node opens them in a menu beside it on the stage. */
  NodeActions?: ComponentType;
  /** What the game day's step on screen has the space-time diagram show (the step's own object). */
  spacetime?: SpacetimeFilter;
}

/** By default a scene alone, with none of the page's controls: an embed's, which provides no host of its own. */
export const SceneHostContext = createContext<SceneHost>({ controls: false, density: 'full' });

export function useSceneHost(): SceneHost {
  return useContext(SceneHostContext);
}
