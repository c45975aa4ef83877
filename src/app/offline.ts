// The built site works offline: a service worker (public/sw.js) keeps the page and its files. Only
// production builds register it; in development it would serve stale modules.

/** Register the worker, versioned by this chunk's hash: a new build gets a new cache, the same keeps it. */
export function registerOffline(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const chunk = new URL(import.meta.url).pathname.split('/').pop() ?? '';
  const version = chunk.replace(/\.js$/, '') || 'unversioned';
  const register = () => {
    navigator.serviceWorker
      .register(new URL(`./sw.js?v=${encodeURIComponent(version)}`, document.baseURI), { scope: './' })
      .catch(() => {
        // Offline use is an extra: without a worker (private mode, a file:// page) the lab still runs.
      });
  };
  // After load, so installing (which fetches the whole site once) never competes with the page.
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
