// room.js: the room, one page for three paths. /room: the open tables
// (Sala Libera and Classificata) to sit down at, the leaderboards, and a
// new league; /p/{id}: a player's profile, with a small rating chart per
// pool; /l/{id}: a league (its invite link /l/{id}#invite=<token>).

import { loadLang, langSwitch, onLangChange, t, num, currentLang } from './i18n.js';
import { lobby, leaderboard, playerProfile, joinGame, createGame, createLeague, joinLeague, getLeague, newInvite, removeMember, putProfile, myGames, createTournament, getTournament, enterTournament, startTournament, ApiError, errorText } from './api.js';
import { countdown, moveTimeText } from './clock.js';
import { qrSVG } from './qr.js';
import { playerKey, read, write } from './player.js';
import { putGame, summarize } from './mygames.js';
import { ORDER, POOLS } from './config.js';
import { ruleTitle } from './rules.js';

const $ = (s) => document.querySelector(s);
let missing = ''; // the catalog key of the "not found" state shown, if any

/** wordsIn: the catalog has arrived (t() is '' before): nothing is shown without its words. */
const wordsIn = () => t('nav.room') !== '';

/** notFound shows the page's own "not found" state, in its words. */
function notFound(key) {
  missing = key;
  if (!wordsIn()) return; // shown when the words come (draw)
  $('#missing').hidden = false;
  $('#missing-h').textContent = t(key);
  document.title = t(key) + ' — Tessera';
}
const NAME = 'tessera.name';
const profileId = (/^\/p\/([^/]+)$/.exec(location.pathname) || [])[1];
const leagueId = (/^\/l\/([^/]+)$/.exec(location.pathname) || [])[1];
const tourId = (/^\/t\/([^/]+)$/.exec(location.pathname) || [])[1];
const INVITES = 'tessera.invites'; // {leagueId: invite}: the admin's, to show the link again

function invites() { try { return JSON.parse(read(INVITES)) || {}; } catch (e) { return {}; } }
function keepInvite(id, invite) { write(INVITES, JSON.stringify({ ...invites(), [id]: invite })); }

function el(tag, attrs = {}, ...kids) {
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

// ---- /room: the open tables

let tables = null; // the last lobby answer

async function loadTables() {
  try {
    tables = await lobby({ variant: $('#f-variant').value, rated: $('#f-rated').value });
    drawTables();
  } catch (e) {
    showError(errorText(e));
  }
}

function showError(text) {
  const box = $('#room-error');
  box.textContent = text;
  box.hidden = !text;
}

function drawTables() {
  if (!tables) return;
  if (!wordsIn()) return; // drawn again when they come (onLangChange)
  const list = $('#lobby');
  list.replaceChildren();
  for (const g of tables.games) {
    const seats = el('ul', { class: 'seats-list' });
    for (const s of g.seats) {
      const who = s.taken ? playerLink(s.name, s.player) : el('span', { class: 'muted', text: t('room.freeSeat') });
      const facts = [];
      if (g.rated && s.rating !== null) facts.push(String(s.rating)); // ratings are written plain, as on the table
      if (s.reliability !== null) facts.push(t('room.reliability', { n: s.reliability }));
      seats.append(el('li', {}, who, facts.length ? el('span', { class: 'muted', text: ' · ' + facts.join(' · ') }) : null));
    }
    const o = g.options;
    const what = [ruleTitle(g.variant), t('room.players', { n: o.players }), t('room.target', { n: o.target }), moveTimeText(o.moveTime)];
    if (o.pairs) what.splice(2, 0, t('room.pairs'));
    const sit = el('button', { type: 'button', class: 'primary', text: t('room.sit') });
    sit.addEventListener('click', () => sitDown(g.id, sit));
    list.append(el('li', { 'data-game': g.id },
      el('p', {}, el('strong', { text: what.join(' · ') }), g.rated ? el('span', { class: 'badge', text: t('room.ratedBadge') }) : null),
      seats, sit));
  }
  $('#lobby-empty').hidden = tables.games.length > 0;
  const tours = $('#tour-list');
  tours.replaceChildren();
  for (const tr of tables.tournaments || []) {
    tours.append(el('li', {}, el('a', { href: `/t/${encodeURIComponent(tr.id)}`, text: tr.name }),
      el('span', { class: 'muted', text: ' · ' + [t('tour.' + tr.format), ruleTitle(tr.variant), t('tour.entries', { n: tr.entries, size: tr.size })].join(' · ') })));
  }
  $('#tour-none').hidden = (tables.tournaments || []).length > 0;
}

async function sitDown(id, button) {
  const name = $('#name').value.trim();
  showError('');
  if (!name) {
    showError(t('form.nameMissing'));
    $('#name').focus();
    return;
  }
  write(NAME, name);
  button.disabled = true;
  try {
    const res = await joinGame(id, name, null, playerKey());
    putGame(id, { token: res.token, seat: res.seat, name, summary: summarize(res.game) });
    location.assign(`/g/${encodeURIComponent(id)}`);
  } catch (e) {
    button.disabled = false;
    showError(e instanceof ApiError && e.code === 'not_eligible' ? t('room.notEligible') : errorText(e));
    if (e instanceof ApiError && (e.code === 'game_full' || e.code === 'not_found')) loadTables();
  }
}

// ---- /room: the leaderboards

let board = null;

async function loadBoard() {
  try {
    board = await leaderboard($('#f-pool').value);
    drawBoard();
  } catch (e) {
    showError(errorText(e));
  }
}

function drawBoard() {
  if (!board) return;
  if (!wordsIn()) return; // drawn again when they come (onLangChange)
  const body = $('#board');
  body.replaceChildren();
  for (const p of board.players) {
    body.append(el('tr', {}, el('td', { text: num(p.rank) }), el('td', {}, playerLink(p.name, p.player)),
      el('td', { text: String(p.rating) }), el('td', { text: num(p.games) }), el('td', { text: num(p.wins) })));
  }
  $('#board-empty').hidden = board.players.length > 0;
}

function fillSelects() {
  const v = $('#f-variant');
  const chosen = v.value;
  v.replaceChildren(el('option', { value: '', text: t('room.any') }), ...ORDER.map((n) => el('option', { value: n, text: ruleTitle(n) })));
  v.value = chosen;
  const p = $('#f-pool');
  const pool = p.value || POOLS[0];
  p.replaceChildren(...POOLS.map((n) => el('option', { value: n, text: t('pool.' + n) })));
  p.value = pool;
}

// ---- /p/{id}: a profile

let profile = null;

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

function drawProfile() {
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
      el('p', {}, el('strong', { text: head.join(': ') }), el('span', { class: 'muted', text: ' · ' + t('profile.games', { n: r.games, wins: num(r.wins) }) }),
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

// ---- /room: a new league

async function submitLeague(ev) {
  ev.preventDefault();
  const form = $('#league-form');
  const box = $('#league-error');
  box.hidden = true;
  const name = form.name.value.trim();
  if (!name) { box.textContent = t('league.nameMissing'); box.hidden = false; return; }
  try {
    const res = await createLeague(playerKey(), name, form.variant.value);
    keepInvite(res.league.id, res.invite);
    location.assign(`/l/${encodeURIComponent(res.league.id)}`);
  } catch (e) {
    box.textContent = e instanceof ApiError && e.code === 'not_eligible' ? t('league.needName') : errorText(e);
    box.hidden = false;
  }
}

// ---- /l/{id}: a league

let league = null;
let fragmentInvite = '';

/** leagueLink is a league's invite link. */
export const leagueLink = (id, invite) => `${location.origin}/l/${encodeURIComponent(id)}#invite=${encodeURIComponent(invite)}`;

async function loadLeague(season) {
  try {
    league = await getLeague(playerKey(), leagueId, season);
    $('#league-join').hidden = true;
    drawLeague();
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) {
      if (fragmentInvite) { // not a member yet: the invite's panel
        $('#league').hidden = false;
        $('#league-join').hidden = false;
        $('#league-h').textContent = t('league.title');
        $('#league-name').value = read(NAME) || '';
        return;
      }
      notFound('league.notFound');
      return;
    }
    leagueMessage(errorText(e));
  }
}

function leagueMessage(text) {
  const box = $('#league-msg');
  box.textContent = text;
  box.hidden = !text;
  $('#league').hidden = false;
}

async function joinThisLeague() {
  const name = $('#league-name').value.trim();
  leagueMessage('');
  try {
    if (name) {
      write(NAME, name);
      await putProfile(playerKey(), name);
    }
    await joinLeague(playerKey(), leagueId, fragmentInvite);
    await loadLeague();
  } catch (e) {
    leagueMessage(e instanceof ApiError && e.status === 404 ? t('league.badInvite') : e instanceof ApiError && e.code === 'not_eligible' ? t('league.needName') : errorText(e));
  }
}

function drawLeague() {
  if (!league) return;
  if (!wordsIn()) return; // drawn again when they come (onLangChange)
  const l = league;
  $('#league').hidden = false;
  $('#league-body').hidden = false;
  $('#league-h').textContent = l.name;
  document.title = l.name + ' — Tessera';
  $('#league-facts').textContent = [ruleTitle(l.variant), t('league.memberCount', { n: l.members.length })].join(' · ');
  const month = new Intl.DateTimeFormat(currentLang() === 'en' ? 'en-GB' : currentLang(), { month: 'long', year: 'numeric', timeZone: 'UTC' });
  const sel = $('#league-season');
  sel.replaceChildren(...l.seasons.map((s) => el('option', { value: s, text: month.format(new Date(s + '-01T00:00:00Z')) })));
  sel.value = l.season;
  const body = $('#league-table');
  body.replaceChildren();
  for (const r of l.table) {
    body.append(el('tr', {}, el('td', { text: num(r.rank) }), el('td', {}, playerLink(r.name, r.player)), el('td', { text: num(r.played) }),
      el('td', { text: num(r.won) }), el('td', { text: num(r.lost) }), el('td', { text: `${num(r.pointsFor)}–${num(r.pointsAgainst)}` }),
      el('td', { text: [...(r.form || '')].map((c) => t(c === 'W' ? 'league.w' : 'league.l')).join(' ') })));
  }
  $('#league-table-none').hidden = l.table.length > 0;
  const games = $('#league-games');
  games.replaceChildren();
  for (const g of l.games) {
    const names = g.names.map((n) => n || t('room.freeSeat')).join(', ');
    const what = g.status === 'finished' ? g.scores.join('–') : t('league.playing');
    games.append(el('li', {}, el('a', { href: `/g/${encodeURIComponent(g.id)}`, text: names }), el('span', { class: 'muted', text: ' · ' + what })));
  }
  const me = (l.members.find((m) => m.player === myPlayer) || {}).player;
  const admin = me && me === l.admin;
  const members = $('#league-members');
  members.replaceChildren();
  for (const m of l.members) {
    const li = el('li', {}, playerLink(m.name, m.player), m.player === l.admin ? el('span', { class: 'muted', text: ' · ' + t('league.admin') }) : null);
    if (admin && m.player !== l.admin) {
      const b = el('button', { type: 'button', class: 'link', text: t('league.remove') });
      b.setAttribute('aria-label', t('league.removeWho', { name: m.name }));
      b.addEventListener('click', async () => {
        try { await removeMember(playerKey(), l.id, m.player); await loadLeague(l.season); } catch (e) { leagueMessage(errorText(e)); }
      });
      li.append(' ', b);
    }
    members.append(li);
  }
  $('#league-admin').hidden = !admin;
  const invite = invites()[l.id];
  $('#league-invite').hidden = !(admin && invite);
  if (admin && invite) {
    const link = leagueLink(l.id, invite);
    $('#league-link').value = link;
    $('#league-qr').replaceChildren(qrSVG(link, t('league.qr')));
  }
}

let myPlayer = '';

async function newLeagueGame() {
  const name = read(NAME) || (league.members.find((m) => m.player === myPlayer) || {}).name || 'Player';
  try {
    const res = await createGame({ variant: league.variant, name, key: playerKey(), league: league.id });
    putGame(res.game.id, { token: res.token, seat: res.seat, name, summary: summarize(res.game) });
    location.assign(`/g/${encodeURIComponent(res.game.id)}`);
  } catch (e) {
    leagueMessage(errorText(e));
  }
}

async function rotate() {
  try {
    const res = await newInvite(playerKey(), league.id);
    keepInvite(league.id, res.invite);
    drawLeague();
  } catch (e) {
    leagueMessage(errorText(e));
  }
}

async function startLeague() {
  const m = /(?:^#|&)invite=([^&]+)/.exec(location.hash);
  if (m) {
    fragmentInvite = decodeURIComponent(m[1]);
    history.replaceState(null, '', location.pathname); // the invite stays out of the history
  }
  try {
    const me = await myGames(playerKey());
    myPlayer = me.player ? me.player.id : '';
  } catch (e) { /* no profile yet */ }
  $('#league-join-btn').addEventListener('click', joinThisLeague);
  $('#league-season').addEventListener('change', () => loadLeague($('#league-season').value));
  $('#league-game').addEventListener('click', newLeagueGame);
  $('#league-rotate').addEventListener('click', rotate);
  loadLeague();
}

// ---- /room: a new tournament

async function submitTour(ev) {
  ev.preventDefault();
  const f = $('#tour-form');
  const box = $('#tour-error');
  box.hidden = true;
  const req = {
    name: f.name.value.trim(), format: f.format.value, variant: f.variant.value, players: Number(f.players.value),
    target: Number(f.target.value), moveTime: 86400, roundTime: Number(f.roundDays.value) * 86400,
    size: Number(f.size.value), listed: f.listed.checked, rated: f.rated.checked,
  };
  if (req.format === 'swiss') req.rounds = Number(f.rounds.value);
  if (req.variant === 'partnership') delete req.players;
  if (!req.name) { box.textContent = t('league.nameMissing'); box.hidden = false; return; }
  try {
    const res = await createTournament(playerKey(), req);
    keepInvite(res.tournament.id, res.invite);
    location.assign(`/t/${encodeURIComponent(res.tournament.id)}`);
  } catch (e) {
    box.textContent = e instanceof ApiError && e.code === 'not_eligible' ? t('league.needName') : errorText(e);
    box.hidden = false;
  }
}

// ---- /t/{id}: a tournament

let tour = null;
let tourInvite = '';

async function loadTour() {
  try {
    tour = await getTournament(tourId);
    drawTour();
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) {
      notFound('tour.notFound');
      return;
    }
    tourMessage(errorText(e));
  }
}

function tourMessage(text) {
  const box = $('#tour-msg');
  box.textContent = text;
  box.hidden = !text;
  $('#tournament').hidden = false;
}

function drawTour() {
  if (!tour) return;
  if (!wordsIn()) return; // drawn again when they come (onLangChange)
  const tr = tour;
  $('#tournament').hidden = false;
  $('#tour-h').textContent = tr.name;
  document.title = tr.name + ' — Tessera';
  const status = tr.status === 'playing' ? t('tour.round', { n: tr.round, of: tr.rounds }) : t('tour.status.' + tr.status);
  $('#tour-facts').textContent = [t('tour.' + tr.format), ruleTitle(tr.variant), t('tour.entries', { n: tr.entries.length, size: tr.size }), status].join(' · ');
  const last = tr.pairings[tr.pairings.length - 1];
  const dl = $('#tour-deadline');
  dl.textContent = tr.status === 'playing' && last ? t('tour.deadline', { left: countdown(last.deadline, tr.options.roundTime).text }) : '';
  const names = {};
  for (const e of tr.entries) names[e.player] = e.name;
  const entered = tr.entries.some((e) => e.player === myPlayer);
  $('#tour-enter').hidden = !(tr.status === 'entries' && !entered);
  $('#tour-withdraw').hidden = !(tr.status === 'entries' && entered);
  $('#tour-start').hidden = !(tr.status === 'entries' && myPlayer === tr.creator);
  const invite = invites()[tr.id];
  $('#tour-invite').hidden = !(myPlayer === tr.creator && invite && !tr.listed && tr.status === 'entries');
  if (invite) $('#tour-link').value = `${location.origin}/t/${encodeURIComponent(tr.id)}#invite=${encodeURIComponent(invite)}`;
  const body = $('#tour-table');
  body.replaceChildren();
  for (const e of tr.entries) {
    body.append(el('tr', {}, el('td', { text: num(e.rank) }), el('td', {}, playerLink(e.name, e.player)), el('td', { text: num(e.points) }), el('td', { text: num(e.buchholz) })));
  }
  const rounds = $('#tour-rounds');
  rounds.replaceChildren();
  for (const r of [...tr.pairings].reverse()) {
    const list = el('ul', { class: 'games' });
    for (const tb of r.tables) {
      const who = tb.players.map((p, i) => (names[p] || p) + (tb.points ? ` (${tb.points[i]})` : '')).join(' – ');
      list.append(el('li', {}, tb.game ? el('a', { href: `/g/${encodeURIComponent(tb.game)}`, text: who }) : el('span', { text: who + ' · ' + t('tour.bye') })));
    }
    rounds.append(el('h2', { text: t('tour.roundTitle', { n: r.round }) }), list);
  }
}

async function tourAction(f) {
  tourMessage('');
  try {
    await f();
    await loadTour();
  } catch (e) {
    tourMessage(e instanceof ApiError && e.code === 'not_eligible' ? t(tour && tour.status === 'entries' && myPlayer === tour.creator && tour.entries.length < 2 ? 'tour.fewEntrants' : 'league.needName')
      : e instanceof ApiError && e.code === 'limit_reached' ? t('tour.closed') : errorText(e));
  }
}

async function startTour() {
  const m = /(?:^#|&)invite=([^&]+)/.exec(location.hash);
  if (m) {
    tourInvite = decodeURIComponent(m[1]);
    history.replaceState(null, '', location.pathname);
  }
  try {
    const me = await myGames(playerKey());
    myPlayer = me.player ? me.player.id : '';
  } catch (e) { /* no profile yet */ }
  $('#tour-enter').addEventListener('click', () => tourAction(() => enterTournament(playerKey(), tourId, tourInvite || invites()[tourId])));
  $('#tour-withdraw').addEventListener('click', () => tourAction(() => enterTournament(playerKey(), tourId, '', true)));
  $('#tour-start').addEventListener('click', () => tourAction(() => startTournament(playerKey(), tourId)));
  await loadTour();
  setInterval(() => { if (tour && tour.status === 'playing') drawTour(); }, 30000);
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

// ---- all

function draw() {
  if (missing) notFound(missing);
  if (tourId) {
    drawTour();
    return;
  }
  if (profileId) {
    drawProfile();
    return;
  }
  if (leagueId) {
    if (!league && fragmentInvite) $('#league-h').textContent = t('league.title');
    drawLeague();
    return;
  }
  for (const sel of [$('#league-variant'), $('#tour-variant')]) {
    const chosen = sel.value;
    sel.replaceChildren(...ORDER.map((n) => el('option', { value: n, text: ruleTitle(n) })));
    if (chosen) sel.value = chosen;
  }
  document.title = t('room.title');
  fillSelects();
  drawTables();
  drawBoard();
}

function start() {
  langSwitch($('#lang'));
  onLangChange(draw);
  if (profileId) {
    loadProfile();
  } else if (leagueId) {
    startLeague();
  } else if (tourId) {
    startTour();
  } else {
    $('#new-league').hidden = false;
    $('#new-tour').hidden = false;
    $('#tours').hidden = false;
    $('#league-form').addEventListener('submit', submitLeague);
    $('#tour-form').addEventListener('submit', submitTour);
    $('#tables').hidden = false;
    $('#boards').hidden = false;
    $('#name').value = read(NAME) || '';
    $('#f-variant').addEventListener('change', loadTables);
    $('#f-rated').addEventListener('change', loadTables);
    $('#f-pool').addEventListener('change', loadBoard);
    fillSelects();
    loadTables();
    loadBoard();
  }
  loadLang(undefined, 'room').catch(() => draw());
}

if (typeof document !== 'undefined' && document.querySelector('#lobby')) start();
