import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '../ui/theme.css';
import '../app/app.css';
import './embed.css';
import { EmbedApp } from './EmbedApp';

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <EmbedApp />
  </StrictMode>,
);
