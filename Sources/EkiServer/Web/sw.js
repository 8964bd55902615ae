// The service worker of 降りつぶし: keeps the app shell (the page, its scripts and styles, Leaflet,
// the prefecture outlines, the icons) and the station snapshot (/api/snapshot) so that the map
// opens and draws with no network.
// - The page ("/") and the shell's files: network first (a fresh page brings a fresh CSRF token and
//   the current scripts), the cached copy when the network fails or takes longer than 4 s.
// - /api/snapshot: the cached copy at once, checked against the server in the background
//   (If-None-Match with its ETag: 304 keeps it, 200 replaces it); the network when none is kept.
// - /api/linework (the offline basemap's lines): network first, the cached copy offline.
// - Every other /api/ call, writes and other sites' requests (tiles): not touched.
'use strict';

const VERSION = 'v1';
const SHELL = `eki-shell-${VERSION}`;
const DATA = 'eki-data-v1';
const SHELL_FILES = [
  '/', '/app.css', '/lines.css', '/i18n.js', '/map.js', '/fold.js', '/visits.js', '/offline.js', '/pins.js',
  '/clusters.js', '/basemap.js', '/search.js', '/visitcards.js', '/station.js', '/app.js', '/lines.js', '/prefectures.geojson',
  '/favicon.svg', '/icon.svg', '/icon-192.png', '/icon-512.png', '/manifest.webmanifest', '/login.html', '/login.js',
  '/leaflet/leaflet.js', '/leaflet/leaflet.css',
];
const NETWORK_WAIT_MS = 4000;

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const shell = await caches.open(SHELL);
    // One file that cannot be had (the page before logging in) does not stop the others.
    await Promise.all(SHELL_FILES.map(async (path) => {
      try {
        const r = await fetch(path, { cache: 'reload', redirect: 'manual' });
        if (r.ok && r.type === 'basic') await shell.put(path, r);
      } catch (e) { /* offline while installing: kept at the next visit */ }
    }));
    try { await refreshSnapshot(await caches.open(DATA), null); } catch (e) { /* the page asks again */ }
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) if (name !== SHELL && name !== DATA) await caches.delete(name);
    await self.clients.claim();
  })());
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  const path = url.pathname;
  if (path === '/api/snapshot') { event.respondWith(snapshot(event)); return; }
  if (path === '/api/linework' && !url.search) { event.respondWith(networkFirst(request, DATA, path)); return; }
  if (path.startsWith('/api/')) return;
  if (path === '/' || path === '/index.html' || (request.mode === 'navigate' && path === '/')) {
    event.respondWith(networkFirst(request, SHELL, '/'));
    return;
  }
  if (SHELL_FILES.includes(path) || path.startsWith('/leaflet/')) event.respondWith(networkFirst(request, SHELL, path));
});

// The network's answer (kept when it is a plain 200 of this site), else the kept copy: when the
// fetch fails, or after NETWORK_WAIT_MS while a copy is kept.
async function networkFirst(request, cacheName, key) {
  const cache = await caches.open(cacheName);
  const network = fetch(request).then(async (r) => {
    if (r.ok && r.type === 'basic' && !r.redirected) await cache.put(key, r.clone());
    return r;
  });
  const kept = await cache.match(key);
  if (!kept) return network;
  let timer;
  const late = new Promise((resolve) => { timer = setTimeout(() => resolve(kept), NETWORK_WAIT_MS); });
  try {
    return await Promise.race([network, late]);
  } catch (e) {
    return kept;
  } finally {
    clearTimeout(timer);
  }
}

// The snapshot from the server: 304 keeps `kept`, 200 replaces it.
async function refreshSnapshot(cache, kept) {
  const headers = { Accept: 'application/json' };
  const etag = kept && kept.headers.get('ETag');
  if (etag) headers['If-None-Match'] = etag;
  const r = await fetch('/api/snapshot', { headers, cache: 'no-store' });
  if (r.status === 304 && kept) return kept;
  if (r.ok) {
    await cache.put('/api/snapshot', r.clone());
    return r;
  }
  return kept || r;
}

async function snapshot(event) {
  const cache = await caches.open(DATA);
  const kept = await cache.match('/api/snapshot');
  const fresh = refreshSnapshot(cache, kept);
  if (!kept) return fresh;
  event.waitUntil(fresh.catch(() => {}));
  return kept;
}
