// Offline support for the built site (registered by src/app/offline.ts, production builds only).
//
// Files under assets/ have a content hash in their name, so they never change: cache first.
// Everything else (the pages, the favicon, the embed script with its stable name) is network
// first with the cache as the fallback, so a new deploy shows up on the next visit while a
// visit without a network still opens the lab. Nothing here ever asks another origin.
//
// The cache name carries the build's version (the `v` query the page registers this file with);
// a new build installs a new worker, which precaches the new shell and deletes older caches.

const PREFIX = 'leader-election-lab-';
const CACHE = PREFIX + (new URL(self.location.href).searchParams.get('v') || 'unversioned');
const SCOPE = self.registration.scope;
const SHELL = ['./', './embed.html', './favicon.svg'];
/** A bound on the crawl below: the built site has a few dozen files. */
const MAX_PRECACHE = 200;

self.addEventListener('install', (event) => {
  event.waitUntil(precache().then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(keys.filter((k) => k.startsWith(PREFIX) && k !== CACHE).map((k) => caches.delete(k))),
      )
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' || !request.url.startsWith(SCOPE)) return;
  const url = new URL(request.url);
  if (url.pathname.endsWith('/sw.js')) return;
  if (url.href.startsWith(SCOPE + 'assets/')) event.respondWith(cacheFirst(request));
  else event.respondWith(networkFirst(request));
});

// ignoreVary: servers add `Vary: Origin`, and a module script's request carries an Origin header
// that the precache's fetch did not, so an exact match would miss files that are the same.
async function cacheFirst(request) {
  const cached = await caches.match(request, { ignoreVary: true });
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) (await caches.open(CACHE)).put(request, response.clone());
  return response;
}

async function networkFirst(request) {
  const page = request.mode === 'navigate';
  // A page is stored once per path: its query (?run=..., ?scenario=...) is read by the page itself.
  const key = page ? request.url.split('?')[0].split('#')[0] : request;
  try {
    const response = await fetch(request);
    if (response.ok) (await caches.open(CACHE)).put(key, response.clone());
    return response;
  } catch (error) {
    const cached = await caches.match(key, { ignoreSearch: page, ignoreVary: true });
    if (cached) return cached;
    if (page) {
      const shell = await caches.match(SCOPE, { ignoreVary: true });
      if (shell) return shell;
    }
    throw error;
  }
}

/** Fetch the pages and every same-site file they (and their scripts and styles) refer to. */
async function precache() {
  const cache = await caches.open(CACHE);
  const shell = SHELL.map((path) => new URL(path, SCOPE).href);
  const queue = [...shell];
  const seen = new Set(queue);
  while (queue.length) {
    const url = queue.shift();
    const isShell = shell.includes(url);
    let response;
    try {
      response = await fetch(url, { cache: 'no-cache' });
    } catch (error) {
      if (url === shell[0]) throw error; // without the page itself there is nothing to keep
      continue;
    }
    const type = response.headers.get('content-type') || '';
    // A file that does not exist can come back as the page (servers with a fallback to
    // index.html): only the shell may be HTML.
    if (!response.ok || (!isShell && type.includes('html'))) {
      if (url === shell[0]) throw new Error(`cannot keep ${url} offline: ${response.status}`);
      continue;
    }
    const kind = type.includes('html')
      ? 'html'
      : type.includes('css')
        ? 'css'
        : type.includes('javascript')
          ? 'js'
          : '';
    const text = kind ? await response.clone().text() : '';
    await cache.put(url, response);
    for (const ref of references(text, kind, url)) {
      if (seen.size >= MAX_PRECACHE) break;
      if (!seen.has(ref)) {
        seen.add(ref);
        queue.push(ref);
      }
    }
  }
}

const STATIC_FILE = String.raw`[\w./-]+\.(?:js|css|svg|png|webp|woff2?)`;
const PATTERNS = {
  // Pages: scripts, styles, preloads, icons.
  html: new RegExp(String.raw`(?:src|href)="(\.?\.?/?${STATIC_FILE})"`, 'g'),
  // Stylesheets: fonts and images.
  css: new RegExp(String.raw`url\(\s*['"]?(${STATIC_FILE})`, 'g'),
  // Scripts: chunks loaded later, named relative to the script or from the site root.
  js: new RegExp(String.raw`["'\x60]((?:\.{1,2}/|assets/)${STATIC_FILE})["'\x60]`, 'g'),
  // Scripts: workers, named by their file alone, next to the script: new URL("w.js", import.meta.url).
  jsBare: new RegExp(String.raw`new URL\(\s*["'\x60]([\w.-]+\.js)["'\x60]\s*,\s*import\.meta\.url`, 'g'),
};

/** Same-site files named in a page, script or stylesheet, as absolute URLs inside the scope. */
function references(text, kind, base) {
  if (!kind) return [];
  const found = [];
  const matches = [
    ...text.matchAll(PATTERNS[kind]),
    ...(kind === 'js' ? text.matchAll(PATTERNS.jsBare) : []),
  ];
  for (const match of matches) {
    const raw = match[1];
    const url = new URL(raw, kind === 'js' && raw.startsWith('assets/') ? SCOPE : base);
    if (url.href.startsWith(SCOPE) && !url.pathname.endsWith('/sw.js')) found.push(url.href);
  }
  return found;
}
