// The pad's service worker (issue 35, item 3; served as /pad-sw.js by dashboard/record/pad_app.py,
// scope /pad): the pad's page and its files open from the device when the network or the server
// is gone, a reload included.
//
// - It keeps only the shell's files (SHELL: the page, pad.js, the styles, the manifest, the
//   icons), in a cache named by their version; a new version of any of them is a new worker
//   (the server names the version in this file), which takes over at once and drops the old
//   cache.
// - Each is answered network first (the newest when the server answers), from the cache when
//   the network fails, answers an error, or is slower than WAIT_MS while a copy is kept here.
//   After a failure the cache answers at once for DOWN_MS (the network still asked, to refresh
//   the copy), so a page's files do not each wait in turn.
// - Anything else, /api/... above all, is never answered or kept here: the pad's document and
//   its taps always go to the server, which alone judges them (pad.js keeps its queue and the
//   pad's document on the device itself, in localStorage).
const VERSION = '__VERSION__';
const CACHE = 'bragbook-pad-' + VERSION;
const SHELL = __SHELL__;
const PAGE = SHELL[0];
const WAIT_MS = 700;
const DOWN_MS = 5000;
let downUntil = 0;

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll(SHELL.map((path) => new Request(path, { cache: 'reload' })));
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith('bragbook-pad-') && name !== CACHE) await caches.delete(name);
    }
    if (self.registration.navigationPreload) await self.registration.navigationPreload.enable();
    await self.clients.claim();
  })());
});

function shellPath(request) {
  // The path kept for this request ('/pad' for the page whatever its query), or null.
  if (request.method !== 'GET') return null;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return null;
  if (request.mode === 'navigate') return url.pathname === PAGE ? PAGE : null;
  return SHELL.includes(url.pathname) ? url.pathname : null;
}

self.addEventListener('fetch', (event) => {
  const path = shellPath(event.request);
  if (!path) return;  // the network's, never kept here (/api/... above all)
  event.respondWith(answer(event, path));
});

async function fromNetwork(event, path, cache) {
  const preloaded = event.request.mode === 'navigate' ? await event.preloadResponse : undefined;
  const r = preloaded || await fetch(path, { cache: 'no-store', credentials: 'same-origin' });
  if (!r.ok) throw new Error(String(r.status));
  await cache.put(path, r.clone());
  return r;
}

async function answer(event, path) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(path);
  const fresh = fromNetwork(event, path, cache);
  event.waitUntil(fresh.then(() => { downUntil = 0; }, () => { downUntil = Date.now() + DOWN_MS; }));
  if (!kept) return fresh;
  if (!self.navigator.onLine || Date.now() < downUntil) return kept;
  return new Promise((resolve) => {
    const timer = setTimeout(() => { downUntil = Date.now() + DOWN_MS; resolve(kept); }, WAIT_MS);
    fresh.then((r) => { clearTimeout(timer); resolve(r); },
      () => { clearTimeout(timer); resolve(kept); });
  });
}
