// The I/O test app's service worker: /api/cached is answered from here,
// as a cache would answer it (the response says fromServiceWorker).
self.addEventListener('install', function () { self.skipWaiting(); });
self.addEventListener('activate', function (e) {
  e.waitUntil(self.clients.claim());
});
self.addEventListener('fetch', function (e) {
  if (new URL(e.request.url).pathname === '/api/cached')
    e.respondWith(new Response('{"cached": true}'));
});
