// The lab page starts in steps, each its own task, so that a slow phone's main thread is never
// held for long: index.html already shows the header (painted before any script runs); this
// module brings React; the lab's own code (the engine, its schemas, the scenario catalog, the
// scenes) loads beside it and runs in a later task; the first screen renders in slices
// (startTransition), and the parts below it mount afterwards (Later.tsx).
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '../ui/theme.css';
import './app.css';
import { StagedMount } from './Later';
import { registerOffline } from './offline';

/** Let the browser paint and handle input before the next step. */
function yieldToBrowser(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

async function start(): Promise<void> {
  const { App } = await import('./App');
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

void start();
registerOffline();
