import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// BASE lets the static site live under any sub-path (e.g. a project page).
export default defineConfig({
  base: process.env.BASE ?? './',
  plugins: [react()],
  build: { target: 'es2022', sourcemap: false },
  server: { port: 5173 },
  preview: { port: 4173, strictPort: true },
});
