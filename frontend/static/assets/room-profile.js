// room-profile.js: /p/{id}, a player's profile, with a small rating
// chart per pool and the trophy shelf.

import { t, num, currentLang } from './i18n.js';
import { playerProfile, ApiError, errorText, myGames, setListed, fileReport, exportMe, forgetMe } from './api.js';
import { POOLS, TROPHIES } from './config.js';
import { playerKey } from './player.js';
import { $, el, wordsIn, notFound } from './room-common.js';

let profile = null;
let profileId = '';
// me: the key's private profile (GET /api/me), null without one; asking:
// the confirmation shown ('block', 'report', 'forget'), '' none.
let me = null;
let asking = '';

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
  drawSafety();
}

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
  loadMe();
}

async function loadMe() {
  if (!playerKey()) return;
  try {
    me = (await myGames(playerKey())).player;
  } catch (e) {
    me = null;
  }
  drawSafety();
}

const button = (text, onClick, cls) => {
  const b = el('button', { type: 'button', text });
  if (cls) b.className = cls;
  b.addEventListener('click', onClick);
  return b;
};

/** act runs a request of the safety box and shows its outcome. */
async function act(run, done) {
  const note = $('#safety-note');
  note.textContent = '';
  try {
    const out = await run();
    if (out && out.id) me = out;
    asking = '';
    note.textContent = done || '';
  } catch (e) {
    note.textContent = errorText(e);
  }
  drawSafety();
}

// drawSafety: on another player's profile, mute, block and report
// (docs/blocking.md, docs/moderation.md); on your own, the players you
// muted or blocked and your data: download it, or have it forgotten
// (docs/forgetting.md). Only with a key that has a profile.
export function drawSafety() {
  const box = $('#safety');
  if (!profile || !me || !wordsIn()) { box.hidden = true; return; }
  box.hidden = false;
  const body = $('#safety-body');
  const key = playerKey();
  if (profile.id !== me.id) {
    const name = profile.name;
    $('#safety-h').textContent = t('safety.title');
    const muted = (me.muted || []).some((r) => r.player === profile.id);
    const blocked = (me.blocked || []).some((r) => r.player === profile.id);
    const parts = [
      button(t(muted ? 'safety.unmute' : 'safety.mute', { name }), () => act(() => setListed(key, 'mutes', profile.id, !muted), t(muted ? 'safety.unmuted' : 'safety.muted', { name }))),
      blocked ? button(t('safety.unblock', { name }), () => act(() => setListed(key, 'blocks', profile.id, false), t('safety.unblocked', { name })))
        : button(t('safety.block', { name }), () => { asking = 'block'; drawSafety(); }),
      button(t('safety.report', { name }), () => { asking = 'report'; drawSafety(); }),
    ];
    const more = [];
    if (asking === 'block') {
      more.push(el('div', { class: 'confirm-box' }, el('p', { text: t('safety.blockWhat', { name }) }),
        button(t('safety.blockYes', { name }), () => act(() => setListed(key, 'blocks', profile.id, true), t('safety.blocked', { name })), 'danger'),
        ' ', button(t('safety.cancel'), () => { asking = ''; drawSafety(); })));
    }
    if (asking === 'report') {
      const what = el('select', { id: 'report-what' },
        el('option', { value: 'name', text: t('safety.reportName') }), el('option', { value: 'player', text: t('safety.reportPlayer') }));
      const note = el('textarea', { id: 'report-note', maxlength: '500', rows: '3' });
      const form = el('form', { class: 'report-form' },
        el('label', { for: 'report-what', text: t('safety.reportWhat') }), what,
        el('label', { for: 'report-note', text: t('safety.reportNote') }), note,
        el('p', { class: 'muted', text: t('safety.reportHow') }),
        el('button', { type: 'submit', class: 'primary', text: t('safety.reportSend') }), ' ',
        button(t('safety.cancel'), () => { asking = ''; drawSafety(); }));
      form.addEventListener('submit', (ev) => {
        ev.preventDefault();
        const req = { player: profile.id, what: what.value };
        if (note.value.trim()) req.note = note.value.trim();
        act(() => fileReport(key, req), t('safety.reported'));
      });
      more.push(form);
    }
    body.replaceChildren(el('p', { class: 'safety-actions' }, ...parts), ...more);
    return;
  }
  // Your own profile.
  $('#safety-h').textContent = t('data.title');
  const lists = [];
  for (const [kind, items, undo] of [['mutes', me.muted || [], 'safety.unmute'], ['blocks', me.blocked || [], 'safety.unblock']]) {
    lists.push(el('h3', { text: t(kind === 'mutes' ? 'data.muted' : 'data.blocked') }));
    lists.push(items.length ? el('ul', {}, ...items.map((r) => el('li', {}, el('a', { href: `/p/${encodeURIComponent(r.player)}`, text: r.name }), ' ',
      button(t(undo, { name: r.name }), () => act(() => setListed(key, kind, r.player, false)))))) : el('p', { class: 'muted', text: t('data.none') }));
  }
  const download = button(t('data.export'), () => act(async () => {
    const data = await exportMe(key);
    const a = el('a', { href: URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' })), download: 'tessera-export.json' });
    a.click();
    URL.revokeObjectURL(a.href);
  }, t('data.exported')));
  const forget = asking === 'forget'
    ? el('div', { class: 'confirm-box' }, el('p', { text: t('data.forgetWhat') }),
      button(t('data.forgetYes'), () => act(async () => {
        await forgetMe(key);
        try { localStorage.clear(); } catch (e) { /* nothing kept here then */ }
        try { sessionStorage.setItem('tessera.forgotten', '1'); } catch (e) { /* the start page then says nothing */ }
        me = null;
        location.assign('/');
      }), 'danger'), ' ', button(t('safety.cancel'), () => { asking = ''; drawSafety(); }))
    : button(t('data.forget'), () => { asking = 'forget'; drawSafety(); }, 'danger');
  body.replaceChildren(...lists, el('h3', { text: t('data.yours') }), el('p', { class: 'muted', text: t('data.explain') }),
    el('p', {}, download), forget);
}
