// sw.js: the service worker (scope /). It shows the pushes the server sends
// (API.md "Notifications": {game, version, kind, title, body}), tells open
// pages of the game to poll at once, and opens or focuses the game on a
// click. It caches nothing: the pages are always fetched fresh.

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

function gameURL(id) {
  return new URL('/g/' + encodeURIComponent(id || ''), self.location.origin).href;
}

self.addEventListener('push', (event) => {
  let msg = {};
  try { msg = event.data ? event.data.json() : {}; } catch (e) { msg = {}; }
  const url = gameURL(msg.game);
  event.waitUntil((async () => {
    const pages = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
    for (const p of pages) p.postMessage({ type: 'push', game: msg.game, version: msg.version, kind: msg.kind });
    await self.registration.showNotification(msg.title || 'Tessera', {
      body: msg.body || '',
      tag: msg.game ? 'game-' + msg.game : 'tessera',
      renotify: true,
      icon: '/assets/icon-192.png',
      badge: '/assets/icon-192.png',
      data: { url },
    });
  })());
});

/** openGame focuses a page already showing the notification's game, or opens one. */
async function openGame(data) {
  const url = (data && data.url) || gameURL('');
  const pages = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  for (const p of pages) {
    if (p.url.split('#')[0] === url && 'focus' in p) return p.focus();
  }
  return self.clients.openWindow(url);
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  event.waitUntil(openGame(event.notification.data));
});
