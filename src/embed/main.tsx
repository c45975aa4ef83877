import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '../ui/theme.css';
import '../app/app.css';
import './embed.css';
import { EmbedApp } from './EmbedApp';
import { loadCodec, needsCodec } from '../shared/codec';

function start(): void {
  createRoot(document.getElementById('root') as HTMLElement).render(
    <StrictMode>
      <EmbedApp />
    </StrictMode>,
  );
}

// An embed of a run link reads the run as it starts, so the link codec loads first; an embed of a
// scenario never needs it. Should the codec fail to load, the embed still starts and says the run
// could not be read.
if (needsCodec(window.location.search)) void loadCodec().then(start, start);
else start();
