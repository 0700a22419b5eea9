// player.js: the player key of this browser (API.md "Players") and its push
// notifications. One key per browser, drawn here with getRandomValues, is the
// token of every seat this browser takes, so a retried join never takes a
// second seat and the server can list the games on any device that has it.

import { pushKey, putDevice, deleteDevice } from './api.js';
import { t, currentLang, onLangChange } from './i18n.js';

const KEY = 'tessera.key';
const PUSH = 'tessera.push'; // the endpoint this browser registered, when on
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

/** enablePush asks permission (call it from a click), subscribes and registers; returns the new state. */
export async function enablePush() {
  if (pushState() === 'unsupported' || pushState() === 'install') return pushState();
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return pushState();
  // From the permission on, at most PUSH_WAIT: a browser whose push
  // service does not answer (no network to it, a blocked service) would
  // otherwise leave the button waiting for ever (issue 26).
  let timer;
  const late = new Promise((_, no) => { timer = setTimeout(() => no(new Error('slow')), PUSH_WAIT); });
  try {
    return await Promise.race([late, (async () => {
      const vapid = await pushKey();
      if (!vapid) return 'unsupported';
      const reg = (await registerWorker()) && (await navigator.serviceWorker.ready);
      if (!reg) return 'unsupported';
      let sub = await reg.pushManager.getSubscription();
      if (!sub) sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(vapid) });
      const json = typeof sub.toJSON === 'function' ? sub.toJSON() : sub;
      await putDevice(playerKey(), { endpoint: json.endpoint, expirationTime: json.expirationTime ?? null, keys: json.keys, lang: currentLang() });
      write(PUSH, json.endpoint);
      return 'on';
    })()]);
  } finally {
    clearTimeout(timer);
  }
}

/** PUSH_WAIT is how long "Notify me" waits for the push service. */
export const PUSH_WAIT = 10000;

/**
 * pushLanguage registers this device again in the page's language when
 * push is on, so that its push texts follow a switch of language.
 */
export async function pushLanguage() {
  if (pushState() !== 'on') return;
  const reg = 'serviceWorker' in navigator ? await navigator.serviceWorker.getRegistration('/') : null;
  const sub = reg && reg.pushManager ? await reg.pushManager.getSubscription() : null;
  if (!sub) return;
  const json = typeof sub.toJSON === 'function' ? sub.toJSON() : sub;
  await putDevice(playerKey(), { endpoint: json.endpoint, expirationTime: json.expirationTime ?? null, keys: json.keys, lang: currentLang() });
}

/** disablePush forgets this device on the server and unsubscribes. */
export async function disablePush() {
  const endpoint = read(PUSH);
  write(PUSH, null);
  if (endpoint) await deleteDevice(playerKey(), endpoint).catch(() => {});
  const reg = 'serviceWorker' in navigator ? await navigator.serviceWorker.getRegistration('/') : null;
  const sub = reg && reg.pushManager ? await reg.pushManager.getSubscription() : null;
  if (sub) await sub.unsubscribe().catch(() => {});
  return pushState();
}

/** pushText is what the page says of each state (push.on, push.off, ...). */
export const pushText = (state) => t('push.' + state);

/**
 * notifyControl fills box with the "Notify me" control: a button that turns
 * push on (asking permission only on this click) or off, and a line that
 * says the state.
 */
export function notifyControl(box) {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'link notify';
  const text = document.createElement('p');
  text.className = 'muted notify-state';
  let state = pushState();
  const paint = () => {
    box.dataset.state = state;
    text.textContent = pushText(state);
    text.title = pushText(state); // whole where a phone held sideways cuts it to one line
    button.hidden = state !== 'on' && state !== 'off';
    button.textContent = t(state === 'on' ? 'push.turnOff' : 'push.turnOn');
  };
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      state = state === 'on' ? await disablePush() : await enablePush();
      paint();
    } catch (e) {
      paint();
      text.textContent = t(e && e.message === 'slow' ? 'push.slow' : 'push.failed');
    }
    button.disabled = false;
  });
  box.replaceChildren(button, text);
  paint();
  onLangChange((lang, switched) => { paint(); if (switched) pushLanguage().catch(() => {}); });
  registerWorker();
}
