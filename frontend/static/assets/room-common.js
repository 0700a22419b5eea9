// room-common.js: what the room's pages share (room.js picks the page):
// the DOM helpers, the "not found" state, a player's link, the name and
// the invites this device keeps.

import { t } from './i18n.js';
import { read, write, playerKey } from './player.js';
import { myGames } from './api.js';

export const $ = (s) => document.querySelector(s);
let missing = ''; // the catalog key of the "not found" state shown, if any

/** wordsIn: the catalog has arrived (t() is '' before): nothing is shown without its words. */
export const wordsIn = () => t('nav.room') !== '';

/** notFound shows the page's own "not found" state, in its words. */
export function notFound(key) {
  missing = key;
  if (!wordsIn()) return; // shown when the words come (drawMissing)
  $('#missing').hidden = false;
  $('#missing-h').textContent = t(key);
  document.title = t(key) + ' — Tessera';
}

/** drawMissing shows the "not found" state again in the words now in. */
export function drawMissing() { if (missing) notFound(missing); }

export const NAME = 'tessera.name';
const INVITES = 'tessera.invites'; // {id: invite}: a league's or tournament's maker's, to show the link again

export function invites() { try { return JSON.parse(read(INVITES)) || {}; } catch (e) { return {}; } }
export function keepInvite(id, invite) { write(INVITES, JSON.stringify({ ...invites(), [id]: invite })); }

/** fragmentInvite takes an invite from the address's fragment, and takes it out of the history. */
export function fragmentInvite() {
  const m = /(?:^#|&)invite=([^&]+)/.exec(location.hash);
  if (!m) return '';
  history.replaceState(null, '', location.pathname); // the invite stays out of the history
  return decodeURIComponent(m[1]);
}

export function el(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'text') e.textContent = v;
    else if (k === 'class') e.className = v;
    else e.setAttribute(k, v);
  }
  for (const k of kids) if (k !== null && k !== undefined) e.append(k);
  return e;
}

/** playerLink is a player's name linking to their profile (plain text without an id). */
export function playerLink(name, id) {
  return id ? el('a', { href: `/p/${encodeURIComponent(id)}`, text: name }) : el('span', { text: name });
}

/** myPlayerId is this device's key's public player id ('' before it has a profile). */
export async function myPlayerId() {
  try {
    const me = await myGames(playerKey());
    return me.player ? me.player.id : '';
  } catch (e) { return ''; } // no profile yet
}
