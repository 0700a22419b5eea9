// room-profile.js: /p/{id}, a player's profile, with a small rating
// chart per pool and the trophy shelf.

import { t, num, currentLang } from './i18n.js';
import { playerProfile, ApiError, errorText } from './api.js';
import { POOLS } from './config.js';
import { $, el, wordsIn, notFound } from './room-common.js';

let profile = null;
let profileId = '';

/** chart draws a rating history as a small SVG line (null for fewer than two points). */
export function chart(history, label) {
  if (!history || history.length < 2) return null;
  const w = 240, h = 60, pad = 4;
  const lo = Math.min(...history), hi = Math.max(...history);
  const span = Math.max(hi - lo, 1);
  const pts = history.map((r, i) => `${(pad + (i * (w - 2 * pad)) / (history.length - 1)).toFixed(1)},${(h - pad - ((r - lo) * (h - 2 * pad)) / span).toFixed(1)}`);
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', `0 0 ${w} ${h}`);
  svg.setAttribute('class', 'rating-chart');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', label);
  const line = document.createElementNS(ns, 'polyline');
  line.setAttribute('points', pts.join(' '));
  line.setAttribute('fill', 'none');
  line.setAttribute('stroke', 'currentColor');
  line.setAttribute('stroke-width', '2');
  svg.append(line);
  return svg;
}

async function loadProfile() {
  try {
    profile = await playerProfile(profileId);
    drawProfile();
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) {
      $('#profile').hidden = true;
      notFound('profile.notFound');
      return;
    }
    $('#profile').hidden = false;
    $('#profile-facts').textContent = errorText(e);
  }
}

export function drawProfile() {
  if (!profile) return;
  if (!wordsIn()) return; // drawn again when they come (onLangChange)
  const p = profile;
  $('#profile').hidden = false;
  $('#profile-h').textContent = p.name;
  document.title = p.name + ' — Tessera';
  const since = new Intl.DateTimeFormat(currentLang() === 'en' ? 'en-GB' : currentLang(), { dateStyle: 'long' }).format(new Date(p.since));
  const facts = [t('profile.since', { date: since }), t('profile.finished', { n: p.finished })];
  if (p.reliability !== null) facts.push(t('profile.reliability', { n: p.reliability }));
  $('#profile-facts').textContent = facts.join(' · ');
  const box = $('#ratings');
  box.replaceChildren();
  for (const pool of POOLS) {
    const r = p.ratings[pool];
    if (!r) continue;
    const head = [t('pool.' + pool), r.rating + (r.provisional ? ' ' + t('profile.provisionalMark') : '')];
    box.append(el('div', { class: 'rating' },
      el('p', {}, el('strong', { text: head.join(': ') }), el('span', { class: 'muted', text: ' · ' + t('profile.games', { n: r.games }) + ' · ' + t('profile.wins', { n: r.wins }) }),
        r.provisional ? el('span', { class: 'muted', text: ' · ' + t('profile.provisional') }) : null),
      chart(r.history, t('profile.chart', { pool: t('pool.' + pool), from: r.history[0], to: r.history[r.history.length - 1] }))));
  }
  $('#ratings-none').hidden = Object.keys(p.ratings).length > 0;
  drawTrophies(p);
  const recent = $('#recent');
  recent.replaceChildren();
  for (const m of p.recent) {
    const change = `${m.before} → ${m.after}`;
    recent.append(el('li', {}, el('a', { href: `/g/${encodeURIComponent(m.game)}`, text: t('pool.' + m.pool) }),
      el('span', { text: ' · ' + t('profile.place', { n: m.rank }) + ' · ' + change })));
  }
}

// TROPHIES: every trophy, in API.md's order (the shelf shows those not
// yet earned too).
const TROPHIES = ['first-match', 'ten-matches', 'hundred-matches', 'domino', 'thirty', 'four-arms', 'clean-sweep',
  'comeback', 'five-in-a-row', 'on-time', 'league-champion', 'tournament-winner'];

/** badge draws a trophy's medal (SVG): filled when earned. */
export function badge(earned) {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('class', 'badge-icon' + (earned ? ' earned' : ''));
  svg.setAttribute('aria-hidden', 'true');
  const ribbon = document.createElementNS(ns, 'path');
  ribbon.setAttribute('d', 'M7 2h4l2 6h-4zM13 2h4l-2 6h-4z');
  const medal = document.createElementNS(ns, 'circle');
  medal.setAttribute('cx', '12');
  medal.setAttribute('cy', '15');
  medal.setAttribute('r', '7');
  svg.append(ribbon, medal);
  return svg;
}

function drawTrophies(p) {
  const got = {};
  for (const tr of p.trophies || []) got[tr.id] = tr;
  const date = new Intl.DateTimeFormat(currentLang() === 'en' ? 'en-GB' : currentLang(), { dateStyle: 'medium' });
  const shelf = $('#trophies');
  shelf.replaceChildren();
  for (const id of TROPHIES) {
    const tr = got[id];
    const when = tr ? ' · ' + t('profile.earned', { date: date.format(new Date(tr.at)) }) : ' · ' + t('profile.notYet');
    shelf.append(el('li', { class: tr ? 'earned' : 'muted' }, badge(!!tr), el('strong', { text: t('trophy.' + id) }),
      el('span', { text: ' — ' + t('trophyHow.' + id) + when })));
  }
}

/** startProfile loads and shows profile id. */
export function startProfile(id) {
  profileId = id;
  loadProfile();
}
