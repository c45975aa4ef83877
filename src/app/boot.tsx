// The lab page's second step (main.tsx is the first): React, then the lab's own code, loaded beside it and
// run in a later task; the first screen renders in slices (startTransition), the rest after (Later.tsx).
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { loadCodec, needsCodec } from '../shared/codec';
import { SCENES } from '../shared/scenes';
import { StagedMount } from './Later';

function yieldToBrowser(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

export async function boot(): Promise<void> {
  // The scenes of the first screen load beside the lab's own code, not after it has rendered.
  for (const scene of SCENES) if (scene.labPlace !== 'tab') void scene.load().catch(() => undefined);
  // A run link's codec, or a game day link's one file, loads beside the lab, as the lab reads it at start.
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
