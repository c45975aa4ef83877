import { resolve } from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { scenarioIndex } from './scripts/scenario-index.ts';

// The built pages run only their own scripts and styles, from their own origin: no inline or
// remote script can run, and nothing loads from another origin. Each directive, and why:
//   default-src 'self'   anything not named below (fonts, media, manifest, frames, workers) from
//                        this site only
//   script-src 'self'    the site's own script files; no inline script, no eval
//   style-src 'self' 'unsafe-inline'
//                        the site's stylesheets, and styles written inline. The page itself needs
//                        no inline style (React, motion and the export write styles through the
//                        DOM's style object, which a policy does not restrict), but an exported
//                        SVG carries its computed styles in style attributes and its ::before and
//                        ::after rules in a <style>, and a page of the site that reads an export
//                        back (DOMParser documents take the page's policy) must see them. Styles
//                        cannot run script.
//   img-src 'self' data: the favicon, and the PNG export, which draws the scene's SVG from a
//                        data: URL onto a canvas
//   object-src 'none'    no plugins
//   base-uri 'self'      no injected <base> can point relative URLs elsewhere
//   form-action 'self'   forms (the dialogs' close buttons) submit nowhere else
// connect-src and worker-src fall back to default-src: the service worker and its fetches are
// this site's. Only in the build: the dev server's hot reload needs inline scripts and styles.
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
].join('; ');

function contentSecurityPolicy(): Plugin {
  return {
    name: 'content-security-policy',
    apply: 'build',
    transformIndexHtml: () => [
      {
        tag: 'meta',
        attrs: { 'http-equiv': 'Content-Security-Policy', content: CONTENT_SECURITY_POLICY },
        injectTo: 'head-prepend',
      },
    ],
  };
}

// The modules every page and embed loads as it starts: the engine (not an algorithm's rules, which
// load per run, nor the services and candidates only some algorithms have), the store, the link's
// reading and the scene registry. Nothing here may be needed only later or only by some pages:
// a module in this chunk is fetched by all of them. `npm run bench:load` measures the result.
const CORE = [
  /\/src\/engine\/(?!monitor)\w+\.ts$/,
  /\/src\/engine\/algorithms\/(index|info|describe|kit)\.ts$/,
  /\/src\/store\/(labStore|labEngine|pauseEnds|backend|clock|context|format|held|share)\.tsx?$/,
  /\/src\/shared\/(params|link|scenes|codec|SceneView|theme)\.tsx?$/,
  /\/src\/scenario\/(conditions|claims|types)\.ts$/,
  /\/src\/ui\/(SceneBoundary|sceneHost|linearScale)\.tsx?$/,
  /\/node_modules\/zustand\//,
];
const inCore = (id: string) => CORE.some((re) => re.test(id.replaceAll('\\', '/')));

// BASE lets the static site live under any sub-path (e.g. a project page). Three entries: the
// lab page, the embed page (one scene per frame), and the custom element's script, which keeps
// a stable name so docs can load it with one script tag.
export default defineConfig({
  base: process.env.BASE ?? './',
  plugins: [react(), contentSecurityPolicy(), scenarioIndex(import.meta.dirname)],
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
        entryFileNames: (chunk) =>
          chunk.name === 'element' ? 'leader-election-scene.js' : 'assets/[name]-[hash].js',
        // React in a chunk named for it: the lab page loads it first, on its own. The lab's core
        // in one chunk too (CORE): what the lab page and every embed run from the start, which
        // would otherwise be a dozen small chunks, each compressed alone.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            { name: 'core', test: inCore },
          ],
        },
      },
    },
  },
  server: { port: 5173 },
  preview: { port: 4173, strictPort: true },
});
