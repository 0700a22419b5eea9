// start.js: the start page. It builds a create request from the form (the
// server checks it) and lists the games this device has a seat in.

import { createGame, myGames, vacation, getLeague, ApiError, errorText } from './api.js';
import { allGames, getGame, putGame, summarize, hiddenGames, hideGame, unhideGame, isolate } from './mygames.js';
import { ruleTitle } from './rules.js';
import { playerKey, adoptKey, playerLink, pushOn, pushState } from './player.js';
import { notifyControl } from './pushctl.js';
import { syncPush } from './pushsync.js';
import { qrSVG } from './qr.js';
import { ago, left, day } from './clock.js';
import { LEVELS, TARGET, VARIANTS, ORDER, MIN_FINISHED } from './config.js';
import { t, loadLang, loadLater, langSwitch, onLangChange } from './i18n.js';

const $ = (s) => document.querySelector(s);
const form = $('#create');
let me = null; // the key's private profile, from GET /api/me (my games, below)

/** variantChoices: a radio per rule set the server offers ("2-4 players alone, block game"). */
function variantChoices() {
  $('#variants').append(...ORDER.map((v, i) => {
    const label = document.createElement('label');
    label.className = 'choice';
    label.innerHTML = `<input type="radio" name="variant"> <span><b></b> — <span class="what"></span></span>`;
    label.querySelector('input').value = v;
    label.querySelector('input').checked = i === 0;
    return label;
  }));
  paintVariants();
}

/** paintVariants writes each rule set's name and line in the page's language. */
function paintVariants() {
  const range = (ns) => (ns.length > 1 ? `${ns[0]}-${ns[ns.length - 1]}` : `${ns[0]}`);
  for (const input of $('#variants').querySelectorAll('input')) {
    const f = VARIANTS[input.value];
    const p = Object.values(f.pairs);
    const how = p.some((c) => c.length > 1) ? 'start.howEither' : p.every((c) => c[0]) ? 'start.howPairs' : 'start.howAlone';
    const label = input.closest('label');
    label.querySelector('b').textContent = ruleTitle(input.value);
    label.querySelector('.what').textContent = t(how, { players: range(f.players), kind: t(f.counts ? 'start.counts' : 'start.block') });
  }
}
variantChoices();

function variant() { return form.variant.value; }
function facts() { return VARIANTS[variant()]; }
/** players: the form's choice where the rule set offers one, else its only count. */
function players() { return facts().players.length > 1 ? Number(form.players.value) : facts().players[0]; }
/** pairsChoice: the pairs values the rules allow at this table. */
function pairsChoice() { return facts().pairs[String(players())] || [false]; }

function seatRows() {
  const box = $('#seats');
  const keep = {};
  for (const s of box.querySelectorAll('select')) keep[s.name] = s.value;
  const rows = [];
  for (let seat = 1; seat < players(); seat++) {
    const label = document.createElement('label');
    label.textContent = t(pairs() ? (seat === 2 ? 'start.seatPartner' : 'start.seatOpponent') : 'start.seat', { n: seat + 1 }) + ' ';
    const sel = document.createElement('select');
    sel.name = `seat${seat}`;
    sel.append(new Option(t('start.friend'), 'human'), ...LEVELS.map((l) => new Option(t('start.computer', { level: t('level.' + l) }), l)));
    if (keep[sel.name]) sel.value = keep[sel.name];
    if (form.rated.checked) { sel.value = 'human'; sel.disabled = true; } // a rated table has no computers
    label.append(sel);
    rows.push(label);
  }
  box.replaceChildren(...rows);
}

/** pairs: whether this table plays in pairs (the form's choice where there is one). */
function pairs() { const c = pairsChoice(); return c.length > 1 ? form.pairs.checked : c[0]; }

let lastVariant = variant();
function sync() {
  // The table box holds the choices a rule set may offer: shown when any is offered.
  const choices = facts().players.length > 1 || facts().redeal.length > 1;
  $('#table-options').disabled = !choices;
  $('#table-options').hidden = !choices;
  form.pairs.disabled = pairsChoice().length < 2;
  if (form.pairs.disabled) form.pairs.checked = pairsChoice()[0];
  // The room: a rated table is listed, and only a rule set with a pool is
  // rated, by a key that has finished enough matches (told before the form
  // is sent, with how many are missing).
  syncRated();
  if (form.rated.checked) form.open.checked = true;
  form.redeal.disabled = facts().redeal.length < 2;
  if (variant() !== lastVariant || form.redeal.disabled) form.redeal.checked = facts().defaultRedeal;
  if (variant() !== lastVariant) {
    if (Number(form.target.value) === VARIANTS[lastVariant].target) form.target.value = facts().target;
    lastVariant = variant();
  }
  seatRows();
}

// A league game (/?league=<id>, from the league's page) is set up like any
// game, in the league's rule set; its seats are the members' (invite
// links) and computers.
const leagueId = new URLSearchParams(location.search).get('league');
let league = null; // the league as its member sees it, once read

async function loadLeague() {
  if (!leagueId) return;
  try {
    league = await getLeague(playerKey(), leagueId);
  } catch (e) {
    const err = $('#create-error');
    err.textContent = e instanceof ApiError && e.status === 404 ? t('league.notFound') : errorText(e);
    err.hidden = false;
    return;
  }
  for (const input of $('#variants').querySelectorAll('input')) {
    input.disabled = input.value !== league.variant;
    if (input.value === league.variant) input.checked = true;
  }
  form.open.checked = form.rated.checked = false;
  $('#room-options').hidden = $('#room-options').disabled = true; // a league's table is its members'
  sync();
  paintLeague();
}

/** paintLeague says, in the page's words, which league the game is for. */
function paintLeague() {
  if (!league) return;
  const note = $('#league-note');
  note.replaceChildren(t('start.leagueGame', { name: league.name }) + ' ');
  const back = document.createElement('a');
  back.href = `/l/${encodeURIComponent(league.id)}`;
  back.textContent = t('start.leagueBack');
  note.append(back);
  note.hidden = false;
  $('#new-h').textContent = t('start.newLeagueGame');
}

/** syncRated offers "Rated" where the rule set has a pool and the key has finished MIN_FINISHED matches. */
function syncRated() {
  const more = MIN_FINISHED - (me ? me.finished : 0);
  const hint = $('#rated-hint');
  hint.hidden = !(facts().rated && more > 0);
  hint.textContent = hint.hidden ? '' : t('room.eligibleIn', { n: more, min: MIN_FINISHED });
  form.rated.disabled = !facts().rated || more > 0;
  if (form.rated.disabled) form.rated.checked = false;
}

/** request builds the POST /api/games body from the form. */
export function request() {
  const req = { variant: variant(), name: form.name.value.trim(), target: Number(form.target.value), key: playerKey() };
  if (league) req.league = league.id;
  if (facts().players.length > 1) req.players = players();
  if (facts().redeal.length > 1) req.redeal = form.redeal.checked;
  if (pairsChoice().length > 1) req.pairs = form.pairs.checked;
  if (form.moveTime.value) req.moveTime = Number(form.moveTime.value);
  req.bots = [];
  for (const s of $('#seats').querySelectorAll('select')) {
    if (s.value !== 'human') req.bots.push({ seat: Number(s.name.slice(4)), level: s.value });
  }
  if (form.open.checked) {
    req.open = true;
    req.moveTime = req.moveTime || 86400; // strangers never wait for ever (API.md)
  }
  if (form.rated.checked) {
    req.rated = true;
    req.bots = [];
  }
  return req;
}

async function submit(ev) {
  ev.preventDefault();
  const err = $('#create-error');
  err.hidden = true;
  const req = request();
  const problem = !req.name ? t('form.nameMissing')
    : !(Number.isInteger(req.target) && req.target >= TARGET.min && req.target <= TARGET.max) ? t('start.targetRange', { min: TARGET.min, max: TARGET.max }) : '';
  if (problem) { err.textContent = problem; err.hidden = false; return; }
  const button = form.querySelector('button[type=submit]');
  button.disabled = true;
  try {
    const res = await createGame(req);
    putGame(res.game.id, { token: res.token, seat: res.seat, name: req.name, summary: summarize(res.game) });
    location.assign(`/g/${encodeURIComponent(res.game.id)}`);
  } catch (e) {
    err.textContent = e instanceof ApiError && e.code === 'not_eligible' ? t('room.notEligible') : e instanceof ApiError ? errorText(e) : t('error.network');
    err.hidden = false;
    button.disabled = false;
  }
}

// ---- my games ------------------------------------------------------------------
// The list is the server's (GET /api/me, refreshed while the page is shown),
// plus seats this device took before it had a key. Hiding a game only hides
// it here; it can be shown again.

let serverGames = null; // the last /api/me answer's games, null before one
let serverLeagues = {}; // league id -> name, from the same answer
let serverTours = []; // the tournaments the key entered (where each stands), from the same answer
let showHidden = false;


/** entries merges the server's list with this device's older seats. */
function entries() {
  const local = allGames();
  const out = [];
  const listed = new Set();
  for (const g of serverGames || []) {
    listed.add(g.id);
    out.push({ id: g.id, seat: g.seat, variant: g.variant, status: g.status, yourTurn: g.yourTurn,
      names: g.names, scores: g.scores, deadline: g.deadline, updatedAt: g.updatedAt, league: g.league, tournament: g.tournament, vacations: g.vacations, away: g.away, paused: g.paused, previous: g.previous });
  }
  for (const [id, g] of Object.entries(local)) {
    const s = g.summary;
    if (listed.has(id) || !s || (serverGames && g.token === playerKey())) continue;
    out.push({ id, seat: g.seat, variant: s.variant, status: s.status, yourTurn: s.status === 'playing' && s.turn === g.seat,
      names: s.players, scores: s.scores, teams: s.teams, deadline: null, updatedAt: s.updatedAt });
  }
  // An inbox: the games where it is your turn first, then those waiting for
  // the others (or for players), then the finished ones; newest first in
  // each.
  const group = (e) => (e.yourTurn ? 0 : e.status === 'finished' ? 2 : 1);
  return out.sort((a, b) => group(a) - group(b) || Date.parse(b.updatedAt || 0) - Date.parse(a.updatedAt || 0));
}

function gameLine(e, hidden) {
  const li = document.createElement('li');
  li.dataset.game = e.id;
  if (e.yourTurn) li.classList.add('your-turn');
  const a = document.createElement('a');
  a.href = `/g/${encodeURIComponent(e.id)}`;
  const names = (e.names || []).map((n) => (n ? isolate(n) : t('mine.freeSeat')));
  const line = t('mine.with', { game: ruleTitle(e.variant), names: names.join(', ') });
  a.textContent = e.previous ? t('mine.rematch', { line }) : line;
  const p = document.createElement('p');
  p.className = 'game-state';
  // Paused (every person away) and a seat the computer plays for say so,
  // not "waiting for the others" (issue 26).
  const who = t(e.status === 'open' ? 'mine.open' : e.status === 'finished' ? 'mine.finished' : e.paused ? 'status.paused'
    : (e.away || [])[e.seat] ? 'mine.computer' : e.yourTurn ? 'mine.yourTurn' : 'mine.waiting');
  // Teams: one a seat, or seats 0 & 2 against 1 & 3 when there are two scores for four.
  const pairs = names.length === 4 && (e.scores || []).length === 2;
  const score = (e.scores || []).map((pts, k) => `${names.filter((_, i) => (pairs ? i % 2 : i) === k).join(t('team.join'))} ${pts}`).join(' · ');
  const bits = [score ? `${score} — ${who}` : who];
  if (e.yourTurn && e.deadline) bits.push(left(e.deadline));
  (e.vacations || []).forEach((v, i) => { if (v && i !== e.seat) bits.push(t('mine.vacation', { name: names[i], date: day(v) })); });
  if (e.updatedAt) bits.push(ago(e.updatedAt));
  p.textContent = bits.join(' · ');
  const toggle = document.createElement('button');
  toggle.type = 'button';
  toggle.className = 'link';
  toggle.textContent = t(hidden ? 'mine.show' : 'mine.hide');
  toggle.setAttribute('aria-label', t(hidden ? 'mine.showLabel' : 'mine.hideLabel'));
  toggle.addEventListener('click', () => {
    if (hidden) { unhideGame(e.id); renderHome(); return; }
    hideGame(e.id);
    renderHome();
    undo(e.id);
  });
  li.append(a, p);
  // The game's league or tournament (the room). A league the key is no
  // longer in (removed) is named without a link: its page would say so.
  const tour = e.tournament && serverTours.find((mt) => mt.id === e.tournament);
  const where = e.league && serverLeagues[e.league] ? [`/l/${encodeURIComponent(e.league)}`, t('mine.league', { name: serverLeagues[e.league] })]
    : tour ? [`/t/${encodeURIComponent(e.tournament)}`, tour.game === e.id ? t('mine.tournamentRound', { name: tour.name, n: tour.round }) : t('mine.tournamentOf', { name: tour.name })]
      : e.tournament ? [`/t/${encodeURIComponent(e.tournament)}`, t('mine.tournament')] : null;
  // A game still played that is not the current round's was decided at
  // its round's deadline (a round ends only when every table is decided).
  if (tour && e.status === 'playing' && (tour.game !== e.id || tour.points)) {
    li.append(Object.assign(document.createElement('span'), { className: 'game-where muted', textContent: t('mine.decided') }), ' ');
  }
  if (e.league && !serverLeagues[e.league]) li.append(Object.assign(document.createElement('span'), { className: 'game-where muted', textContent: t('mine.leagueGone') }), ' ');
  if (where) {
    const l = document.createElement('a');
    l.href = where[0];
    l.className = 'game-where';
    l.textContent = where[1];
    li.append(l, ' ');
  }
  li.append(toggle);
  return li;
}

/** undo offers, for a while, to bring a game just hidden back. */
function undo(id) {
  const box = $('#hidden-note');
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'link';
  b.textContent = t('mine.undo');
  b.addEventListener('click', () => { unhideGame(id); box.replaceChildren(); renderHome(); });
  box.replaceChildren(t('mine.hidden') + ' ', b);
  setTimeout(() => { if (box.contains(b)) box.replaceChildren(); }, 10000);
}

// linkItem is a line of the inbox that is one link: a round the player
// sits out, a league game waiting for players.
function linkItem(href, text) {
  const li = document.createElement('li');
  li.className = 'bye';
  const a = document.createElement('a');
  a.href = href;
  a.textContent = text;
  li.append(a);
  return li;
}

// League games waiting for a seat (issue 44: a member's home said nothing
// of the game a friend set up for the league): each league of the key is
// read when the home first draws and then at most every 5 minutes, not on
// every read of /api/me; a game the key sits in is already a line of the
// inbox, and renderHome leaves it out of these.
let leagueWaits = [], leaguesReadAt = 0;
async function readLeagueWaits() {
  if (Date.now() - leaguesReadAt < 5 * 60 * 1000) return;
  leaguesReadAt = Date.now();
  const found = [];
  for (const [id, name] of Object.entries(serverLeagues).slice(0, 5)) {
    try {
      for (const g of (await getLeague(playerKey(), id)).games) {
        if (g.status === 'open') found.push({ id: g.id, league: name, who: g.names.filter((n) => n).join(', ') });
      }
    } catch (e) { /* that league is not shown this time */ }
  }
  leagueWaits = found;
  renderHome();
}

function renderHome() {
  const hidden = hiddenGames();
  const all = entries();
  const shown = all.filter((e) => !hidden.has(e.id));
  const hiddenHere = all.filter((e) => hidden.has(e.id));
  const waits = leagueWaits.filter((w) => !all.some((e) => e.id === w.id));
  $('#no-games').hidden = shown.length > 0 || waits.length > 0;
  $('#my-games').replaceChildren(...waits.map((w) => linkItem(`/g/${encodeURIComponent(w.id)}`, t('mine.leagueWait', w))),
    ...serverTours.filter((mt) => mt.bye).map((mt) => linkItem(`/t/${encodeURIComponent(mt.id)}`,
      t(mt.round >= mt.rounds ? 'tour.byeLineLast' : 'tour.byeLine', { name: mt.name, n: mt.round, date: day(mt.deadline) }))),
    ...shown.map((e) => gameLine(e, false)), ...(showHidden ? hiddenHere.map((e) => gameLine(e, true)) : []));
  // How many games wait for you: beside the heading, in the tab's title
  // and on the app's icon where the platform has a badge.
  const turns = shown.filter((e) => e.yourTurn).length;
  $('#turn-count').textContent = turns ? t('mine.toPlay', { n: turns }) : '';
  document.title = turns ? t('start.titleTurns', { n: turns }) : t('start.title');
  if (navigator.setAppBadge) (turns ? navigator.setAppBadge(turns) : navigator.clearAppBadge()).catch(() => {});
  const toggle = $('#show-hidden');
  toggle.hidden = hiddenHere.length === 0;
  toggle.textContent = showHidden ? t('mine.hideHidden') : t('mine.showHidden', { n: hiddenHere.length });
  toggle.setAttribute('aria-expanded', String(showHidden));
  renderVacation();
}

// ---- vacation (API.md "Vacation"): taken and ended from the inbox

function renderVacation() {
  const box = $('#vacation');
  box.hidden = $('#my-profile').hidden = !me;
  if (!me) return;
  $('#my-profile').href = '/p/' + encodeURIComponent(me.id); // lists and data (docs/forgetting.md)
  const v = me.vacation;
  $('#vac-state').textContent = v.until ? t('vac.on', { date: day(v.until) }) : t('vac.budget', { n: v.budgetDays });
  $('#vac-take').hidden = $('#vac-begun').hidden = !!v.until;
  $('#vac-days').max = v.budgetDays;
  $('#vac-btn').textContent = t(v.until ? 'vac.end' : 'vac.take');
  $('#vac-btn').disabled = !v.until && v.budgetDays < 1;
  const sig = JSON.stringify(myEmail) + pushState();
  if (sig !== emailSig) { emailSig = sig; emailChunk().then((e) => e.draw($('#email-box'), myEmail, pushState())); }
}

// ---- the email digest (docs/email.md): its settings and its links' landing, a chunk

let emailer = null, myEmail = null, emailSig = '';
function emailChunk() {
  return emailer || (emailer = import('./email.js').then((m) => m.make({ t, playerKey, loadLater, refresh: () => refreshHome() })));
}
const mailLink = new URLSearchParams(location.search);
if (mailLink.has('confirm') || mailLink.has('unsubscribe')) {
  emailChunk().then((e) => e.land($('#email-box'), mailLink));
  history.replaceState(null, '', location.pathname + location.hash);
}

$('#vacation').addEventListener('submit', async (ev) => {
  ev.preventDefault();
  try {
    me = await vacation(playerKey(), me.vacation.until ? 0 : Number($('#vac-days').value));
    await refreshHome();
  } catch (e) {
    $('#vac-state').textContent = errorText(e);
  }
});

async function refreshHome() {
  try {
    const ans = await myGames(playerKey());
    serverGames = ans.games;
    me = ans.player;
    myEmail = ans.email || null;
    syncRated();
    serverLeagues = Object.fromEntries((ans.leagues || []).map((l) => [l.id, l.name]));
    serverTours = ans.tournaments || [];
    for (const g of serverGames) {
      const saved = getGame(g.id);
      if (!saved || saved.token !== playerKey()) putGame(g.id, { token: playerKey(), seat: g.seat });
    }
    $('#home-error').hidden = true;
    readLeagueWaits();
  } catch (e) {
    $('#home-error').hidden = false;
  }
  renderHome();
}

// The inbox in view reads /api/me every 30 s; with push on every 5
// minutes, since each push (a turn, an end, a round: sw.js tells the open
// pages) reads it at once (issue 34: 12 reads an hour instead of 120).
const HOME_POLL = 30 * 1000, HOME_POLL_PUSH = 5 * 60 * 1000;
let homeTimer = null;
function scheduleHome() {
  clearTimeout(homeTimer);
  if (!document.hidden) homeTimer = setTimeout(async () => { await refreshHome(); scheduleHome(); }, pushOn() ? HOME_POLL_PUSH : HOME_POLL);
}
// A move pushed to a game page that watches its game (kind "move") goes
// to that page, which is in view: the inbox beside it waits for its
// next read (issue 45: it read /api/me on every move of a watched game).
if ('serviceWorker' in navigator) {
  navigator.serviceWorker.addEventListener('message', (ev) => { const d = ev.data; if (d && d.type === 'push' && d.kind !== 'move' && !document.hidden) refreshHome().then(scheduleHome); });
}

// ---- the player link -----------------------------------------------------------

function showPlayerLink() {
  const box = $('#player-link-box');
  const open = box.hidden;
  box.hidden = !open;
  $('#player-link-btn').setAttribute('aria-expanded', String(open));
  if (!open) return;
  const link = playerLink();
  $('#player-link').value = link;
  $('#player-qr').replaceChildren(qrSVG(link, t('link.qr')));
}

async function copyPlayerLink(ev) {
  const b = ev.target;
  const old = b.textContent;
  try {
    await navigator.clipboard.writeText($('#player-link').value);
    b.textContent = t('share.copied');
  } catch (e) {
    $('#player-link').type = 'text';
    $('#player-link').select();
    b.textContent = t('share.select');
  }
  setTimeout(() => { b.textContent = old; }, 2500);
}

/** takeKeyFragment adopts a player link's key (#key=...) and takes it out of the address bar. */
function takeKeyFragment() {
  const m = /(?:^#|&)key=([^&]+)/.exec(location.hash);
  let note = '';
  if (m) { // out of the address bar; another fragment (#new-h: the form) stays
    note = adoptKey(decodeURIComponent(m[1])) ? 'link.worked' : 'link.invalid';
    history.replaceState(null, '', location.pathname + location.search);
  }
  try { // the profile page's forget me came here: say it is done (once)
    if (!note && sessionStorage.getItem('tessera.forgotten')) note = 'data.forgottenDone';
    sessionStorage.removeItem('tessera.forgotten');
  } catch (e) { /* no session storage: nothing to say */ }
  if (note) { $('#key-note').dataset.i18n = note; $('#key-note').textContent = t(note); $('#key-note').hidden = false; }
}

// The form's numbers come from the server's facts, not from the HTML.
form.target.min = TARGET.min;
form.target.max = TARGET.max;
form.target.value = facts().target;
if (facts().players.length > 1) {
  form.players.replaceChildren(...facts().players.map((n) => new Option(String(n), String(n), false, n === facts().defaultPlayers)));
}
form.redeal.checked = facts().defaultRedeal;

form.addEventListener('change', (ev) => { if (!ev.target.closest('#seats')) sync(); });
form.addEventListener('submit', submit);
// The name last used here (the form remembers it).
const NAME = 'tessera.name';
try { if (!form.name.value) form.name.value = localStorage.getItem(NAME) || ''; } catch (e) { /* private mode */ }
form.addEventListener('submit', () => { try { if (form.name.value.trim()) localStorage.setItem(NAME, form.name.value.trim()); } catch (e) { /* private mode */ } });
sync();
takeKeyFragment();
$('#show-hidden').addEventListener('click', () => { showHidden = !showHidden; renderHome(); });
$('#player-link-btn').addEventListener('click', showPlayerLink);
$('#copy-player-link').addEventListener('click', copyPlayerLink);
notifyControl($('#notify-home'));
syncPush().catch(() => {});
document.addEventListener('visibilitychange', () => { if (!document.hidden) refreshHome().then(scheduleHome); });
langSwitch($('#lang'));
// Whenever the words change (loaded, or switched), what the page drew is
// drawn again in them.
function redraw() {
  paintVariants();
  syncRated();
  paintLeague();
  seatRows();
  renderHome();
  if (!$('#player-link-box').hidden) $('#player-qr').replaceChildren(qrSVG($('#player-link').value, t('link.qr')));
  if (emailer) emailer.then((e) => e.redraw());
}
onLangChange(redraw);
// The page's words, then its lists: nothing is drawn in a language that is
// about to change (the form's static text is in the HTML, in English, until
// the catalog arrives). Loaded, the words redraw the page (onLangChange);
// when they cannot be read, it is drawn as it is.
loadLang(undefined, 'start', true).catch(redraw).then(() => Promise.all([loadLeague(), refreshHome().then(scheduleHome)]));
