// A registry scene as a component: its code loads on first use (React.lazy), once per page, lab or embed.
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { SceneEntry } from './scenes';

const views = new Map<string, LazyExoticComponent<ComponentType>>();

export function sceneView(scene: SceneEntry): LazyExoticComponent<ComponentType> {
  let view = views.get(scene.id);
  if (!view) {
    view = lazy(() => scene.load().then((c) => ({ default: c })));
    views.set(scene.id, view);
  }
  return view;
}
