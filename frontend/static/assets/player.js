// player.js: the player key of this browser (API.md "Players") and its push
// notifications. One key per browser, drawn here with getRandomValues, is the
// token of every seat this browser takes, so a retried join never takes a
// second seat and the server can list the games on any device that has it.

const KEY = 'tessera.key';
/** PUSH: the endpoint this browser registered, when on (notify.js writes it). */
export const PUSH = 'tessera.push';
const KEY_FORMAT = /^[A-Za-z0-9_-]{22,64}$/;

function b64url(bytes) {
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function read(name) { try { return localStorage.getItem(name); } catch (e) { return null; } }
export function write(name, value) {
  try { if (value === null) localStorage.removeItem(name); else localStorage.setItem(name, value); } catch (e) { /* private mode */ }
}

let memoryKey = null; // when localStorage is unavailable, the key lives as long as the tab

/** playerKey: this browser's key, drawn on first use (256 bits). */
export function playerKey() {
  const k = read(KEY) || memoryKey;
  if (k && KEY_FORMAT.test(k)) return k;
  memoryKey = b64url(crypto.getRandomValues(new Uint8Array(32)));
  write(KEY, memoryKey);
  return memoryKey;
}

/** adoptKey takes the key of a player link (#key=...); false when it is not one. */
export function adoptKey(k) {
  if (!KEY_FORMAT.test(k)) return false;
  if (k !== read(KEY)) write(PUSH, null); // this device's registration was for the other key
  memoryKey = k;
  write(KEY, k);
  return true;
}

/** playerLink: the link that brings all of this key's games to another device. */
export function playerLink() { return `${location.origin}/#key=${playerKey()}`; }

// ---- push ---------------------------------------------------------------------

/** registerWorker registers sw.js (scope /); null where service workers are missing. */
export async function registerWorker() {
  if (!('serviceWorker' in navigator)) return null;
  try { return await navigator.serviceWorker.register('/sw.js', { scope: '/' }); } catch (e) { return null; }
}

/** pushOn: this browser registered a push device for its key. */
export function pushOn() { return !!read(PUSH) && 'Notification' in window && Notification.permission === 'granted'; }

/**
 * pushState is what "Notify me" shows: 'on', 'off', 'blocked' (permission
 * denied), 'install' (iOS: only an app added to the Home Screen gets pushes),
 * or 'unsupported'.
 */
export function pushState() {
  const ios = /iPad|iPhone|iPod/.test(navigator.userAgent) || (navigator.platform === 'MacIntel' && navigator.maxTouchPoints > 1);
  if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window)) {
    return ios ? 'install' : 'unsupported';
  }
  if (Notification.permission === 'denied') return 'blocked';
  return pushOn() ? 'on' : 'off';
}

export function keyBytes(b64) {
  const s = atob(b64.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(s, (c) => c.charCodeAt(0));
}
