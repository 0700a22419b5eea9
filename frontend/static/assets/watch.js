// watch.js: a game page in view, with push on, watches its game (issue 34,
// docs/watch.md): PUT /api/games/{id}/watch with this device's push
// endpoint, so every move of the game is pushed to it with the seat's
// view (sw.js hands it to the page) and the page polls only as a safety
// net. Renewed while the page is in view, ended when it is hidden.

// No import of api.js: this is a chunk of its own (frontend/build.mjs).
const SECOND = 1000;

/** unpackView undoes the server's packing of a pushed view (gzip, base64). */
export async function unpackView(b64) {
  const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Response(stream).json();
}

/** renewAt: when a watch that lasts until (ms) is renewed, from now (ms): at three quarters of its lease. */
export function renewAt(until, now) {
  return now + Math.max(60 * SECOND, (until - now) * 0.75);
}

/** canUnpack: the browser can read a pushed view (else the page reads the game). */
export const canUnpack = typeof DecompressionStream === 'function';

async function endpointOf() {
  if (!('serviceWorker' in navigator)) return null;
  const reg = await navigator.serviceWorker.getRegistration();
  const sub = reg && reg.pushManager ? await reg.pushManager.getSubscription() : null;
  return sub ? sub.endpoint : null;
}

/**
 * follow gives the game page's watch stub (app.js) its watcher: the game
 * is watched while the page is in view with push on, holds a seat and the
 * match is not over. ctx: {id, token(), view(), poller, push()}.
 */
export function follow(stub, ctx) {
  stub.unpack = canUnpack ? unpackView : null;
  stub.w = new Watch(ctx.id, {
    token: ctx.token,
    want: () => { const v = ctx.view(); return !document.hidden && ctx.push() && !!v && !!v.you && v.status !== 'finished'; },
    onChange: (w) => { stub.watched = w; ctx.poller.schedule(); },
  });
  stub.w.sync();
}

/**
 * Watch keeps game id watched while want() holds: sync() after any change
 * of it, off() when the page goes. token() is the seat's token;
 * onChange(watched) tells the poller.
 */
export class Watch {
  constructor(id, { token, want, onChange }) {
    Object.assign(this, { id, token, want, onChange, watched: false, timer: null, endpoint: null, busy: false });
  }

  path() { return `/api/games/${encodeURIComponent(this.id)}/watch`; }

  /**
   * sync starts or ends the watch when want() changed; after a refused or
   * failed start it waits 10 minutes (a view comes with every poll).
   */
  sync() {
    if (this.want() !== this.watched && !(this.want() && Date.now() - (this.failedAt || 0) < 10 * 60 * SECOND)) this.on();
  }

  set(w) {
    if (w === this.watched) return;
    this.watched = w;
    this.onChange(w);
  }

  /** on starts or renews the watch when wanted, and ends it when not. */
  async on() {
    if (!this.want() || !this.token() || !canUnpack) { this.off(); return; }
    if (this.busy) return;
    this.busy = true;
    try {
      this.endpoint = this.endpoint || await endpointOf();
      if (!this.endpoint) return;
      const res = await fetch(this.path(), {
        method: 'PUT', credentials: 'omit', cache: 'no-store',
        headers: { 'Content-Type': 'application/json', Authorization: 'Bearer ' + this.token() },
        body: JSON.stringify({ endpoint: this.endpoint }),
      });
      if (!res.ok) { this.failedAt = Date.now(); this.set(false); return; }
      const { until } = await res.json();
      this.set(true);
      // Renewed at three quarters of the lease, while wanted.
      clearTimeout(this.timer);
      const now = Date.now();
      this.timer = setTimeout(() => this.on(), renewAt(Date.parse(until), now) - now);
    } catch (e) {
      this.failedAt = Date.now();
      this.set(false);
    } finally {
      this.busy = false;
    }
  }

  /** off ends the watch (the page is hidden or going): one request that outlives the page. */
  off() {
    clearTimeout(this.timer);
    this.timer = null;
    if (!this.watched) return;
    this.set(false);
    if (!this.endpoint) return;
    fetch(this.path(), {
      method: 'DELETE', keepalive: true, credentials: 'omit',
      headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ endpoint: this.endpoint }),
    }).catch(() => {});
  }
}
