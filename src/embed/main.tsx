import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '../ui/theme.css';
import '../ui/base.css';
import './embed.css';
import { EmbedApp } from './EmbedApp';
import { loadCodec, needsCodec } from '../shared/codec';
import { loadLinkScenario } from '../shared/link';

function start(): void {
  createRoot(document.getElementById('root') as HTMLElement).render(
    <StrictMode>
      <EmbedApp />
    </StrictMode>,
  );
}

// A run link's codec, or a scenario's file, loads first; should either fail, the embed starts and says so.
const search = window.location.search;
void Promise.all([
  needsCodec(search) ? loadCodec().catch(() => null) : null,
  loadLinkScenario(search, 'embed'),
]).then(start, start);
