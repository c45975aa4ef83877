import { resolve } from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// BASE lets the static site live under any sub-path (e.g. a project page). Three entries: the
// lab page, the embed page (one scene per frame), and the custom element's script, which keeps
// a stable name so docs can load it with one script tag.
export default defineConfig({
  base: process.env.BASE ?? './',
  plugins: [react()],
  build: {
    target: 'es2022',
    // Every supported browser has modulepreload; the polyfill would only add code to the entry.
    modulePreload: { polyfill: false },
    sourcemap: false,
    rollupOptions: {
      input: {
        main: resolve(import.meta.dirname, 'index.html'),
        embed: resolve(import.meta.dirname, 'embed.html'),
        element: resolve(import.meta.dirname, 'src/embed/element.ts'),
      },
      output: {
        entryFileNames: (chunk) => (chunk.name === 'element' ? 'leader-election-scene.js' : 'assets/[name]-[hash].js'),
        // React in a chunk named for it: the lab page loads it first, on its own.
        codeSplitting: {
          groups: [{ name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ }],
        },
      },
    },
  },
  server: { port: 5173 },
  preview: { port: 4173, strictPort: true },
});
