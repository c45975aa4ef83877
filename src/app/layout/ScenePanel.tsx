// A scene in its panel: an error boundary of its own, and a gate that stops it following the lab while
// the panel is out of view (scrolled away, or a hidden tab).
import { Suspense, useEffect, useRef, type ReactNode } from 'react';
import { LabGate } from '../../store/LabGate';
import type { SceneEntry } from '../../shared/scenes';
import { sceneView } from '../../shared/SceneView';
import { SceneBoundary } from '../../ui/SceneBoundary';
import { pulse } from '../../ui/pointAt';

export function ScenePanel({
  scene,
  area,
  watched = false,
  after,
}: {
  scene: SceneEntry;
  /** Its place on the first screen (a grid area), if it has one. */
  area?: string;
  /** A guided step asks the reader to watch it (outlined). */
  watched?: boolean;
  /** Shown under the scene, outside its gate (it follows the lab even while the scene is out of view). */
  after?: ReactNode;
}) {
  const panel = useRef<HTMLDivElement>(null);
  const View = sceneView(scene);
  // A step that now names this view draws the eye to it once.
  useEffect(() => {
    if (watched) pulse(panel.current);
  }, [watched]);
  return (
    <div
      className={`panel scene-panel${area ? ` area-${area}` : ''}`}
      data-scene={scene.id}
      data-watched={watched ? '' : undefined}
      id={`view-${scene.id}`}
      ref={panel}
    >
      <LabGate watch={panel}>
        <SceneBoundary name={scene.name}>
          <Suspense fallback={<p className="scene-loading hint">Loading the {scene.name}…</p>}>
            <View />
          </Suspense>
        </SceneBoundary>
      </LabGate>
      {after}
    </div>
  );
}
