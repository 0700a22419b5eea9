// sw.js: the service worker (scope /). It shows the pushes the server sends
// (API.md "Notifications": {game, version, kind, title, body}), tells open
// pages of the game to poll at once (or hands them the view a watched
// page is pushed: kind "move", never a notification while a page shows
// the game), and opens or focuses the game on a click. It caches nothing: the pages are always fetched fresh.

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
    for (const p of pages) p.postMessage({ type: 'push', game: msg.game, version: msg.version, kind: msg.kind, view: msg.view, etag: msg.etag });
    if (msg.kind === 'move') {
      // A move pushed to a page that watches the game (docs/watch.md):
      // the page shows it; no notification and no sound.
      if (pages.some((p) => p.visibilityState === 'visible' && p.url.split('#')[0] === url)) return;
      // The watch outlived its page (closed without a word): end it, and
      // show the browser's required sign silently.
      const sub = await self.registration.pushManager.getSubscription();
      if (sub && msg.game) {
        await fetch('/api/games/' + encodeURIComponent(msg.game) + '/watch', {
          method: 'DELETE', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ endpoint: sub.endpoint }),
        }).catch(() => {});
      }
      await self.registration.showNotification(msg.title || 'Tessera', {
        body: msg.body || '', tag: 'game-' + msg.game, silent: true,
        icon: '/assets/icon-192.png', badge: '/assets/icon-192.png', data: { url },
      });
      return;
    }
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
