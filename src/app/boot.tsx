// The lab page's second step (main.tsx is the first): React, then the lab's own code (the engine,
// its schemas, the scenario catalog, the scenes), loaded beside it and run in a later task; the
// first screen renders in slices (startTransition), the parts below it afterwards (Later.tsx).
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { loadCodec, needsCodec } from '../shared/codec';
import { SCENES } from '../shared/scenes';
import { StagedMount } from './Later';

/** Let the browser paint and handle input before the next step. */
function yieldToBrowser(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

export async function boot(): Promise<void> {
  // The scenes of the first screen load beside the lab's own code, not after it has rendered.
  for (const scene of SCENES) if (scene.labPlace !== 'tab') void scene.load().catch(() => undefined);
  // A run link is read as the lab starts, so its codec loads beside the lab; otherwise only when a
  // link is made. A game day's link loads that game day's file beside it too (and only that one).
  const [{ App }] = await Promise.all([
    import('./App'),
    needsCodec(window.location.search) ? loadCodec().catch(() => null) : null,
    import('../shared/link').then((m) => m.loadLinkScenario(window.location.search)),
  ]);
  await yieldToBrowser();
  const root = createRoot(document.getElementById('root') as HTMLElement);
  startTransition(() => {
    root.render(
      <StrictMode>
        <StagedMount.Provider value={true}>
          <App />
        </StagedMount.Provider>
      </StrictMode>,
    );
  });
}
