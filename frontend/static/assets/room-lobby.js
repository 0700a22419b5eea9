// room-lobby.js: /room, the open tables (Sala Libera and Classificata)
// to sit down at, the listed tournaments, the leaderboards, and the forms
// for a new league and a new tournament.

import { t, num } from './i18n.js';
import { lobby, leaderboard, joinGame, createLeague, createTournament, putProfile, myGames, ApiError, errorText } from './api.js';
import { moveTimeText } from './clock.js';
import { playerKey, read, write } from './player.js';
import { putGame, summarize } from './mygames.js';
import { ORDER, POOLS, VARIANTS, FORMATS } from './config.js';
import { ruleTitle } from './rules.js';
import { $, el, wordsIn, playerLink, keepInvite, NAME } from './room-common.js';

let tables = null; // the last lobby answer

async function loadTables() {
  try {
    // With the key: a table of a player it blocked, or who blocked it, is
    // left out (docs/blocking.md).
    tables = await lobby({ variant: $('#f-variant').value, rated: $('#f-rated').value }, playerKey());
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
      // Ratings are written as on the table: plain, or provisional (fewer than 10 rated matches).
      if (g.rated && s.rating !== null) facts.push(s.provisional ? t('rating.provisional', { rating: s.rating }) : String(s.rating));
      if (s.reliability !== null) facts.push(t('room.reliability', { n: s.reliability }));
      seats.append(el('li', {}, who, facts.length ? el('span', { class: 'muted', text: ' · ' + facts.join(' · ') }) : null));
    }
    const o = g.options;
    const what = [ruleTitle(g.variant), t('room.players', { n: o.players }), t('room.target', { n: o.target }), moveTimeText(o.moveTime)];
    if (o.pairs) what.splice(2, 0, t('room.pairs'));
    const sit = el('button', { type: 'button', class: 'primary', text: t('room.sit') });
    sit.addEventListener('click', () => sitDown(g.id, sit, g.rated));
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

async function sitDown(id, button, rated) {
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
    // not_eligible: at a rated table, the matches to finish first; at any
    // other, a block or a suspension, never said which (docs/blocking.md).
    const refused = rated ? t('room.notEligible') : t('room.cannotSit');
    showError(e instanceof ApiError && e.code === 'not_eligible' ? refused : errorText(e));
    if (e instanceof ApiError && (e.code === 'game_full' || e.code === 'not_found')) loadTables();
  }
}

// The leaderboards.

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

/**
 * named sets the key's profile name from a form's "Your name" (a new
 * player has none, and a league or a tournament needs one): false, with
 * the form's message, when it is empty.
 */
async function named(form, box) {
  const have = await profileName; // '' for a key without a profile
  const you = form.you.value.trim() || have;
  if (!you) { box.textContent = t('form.nameMissing'); box.hidden = false; form.you.focus(); return false; }
  write(NAME, you);
  if (you !== have) await putProfile(playerKey(), you);
  return true;
}

/** profileName is the key's profile name ('' without one), read once as /room opens. */
let profileName = Promise.resolve('');

async function submitLeague(ev) {
  ev.preventDefault();
  const form = $('#league-form');
  const box = $('#league-error');
  box.hidden = true;
  const name = form.name.value.trim();
  if (!name) { box.textContent = t('league.nameMissing'); box.hidden = false; return; }
  try {
    if (!await named(form, box)) return;
    const res = await createLeague(playerKey(), name, form.variant.value, form.hints.checked);
    keepInvite(res.league.id, res.invite);
    location.assign(`/l/${encodeURIComponent(res.league.id)}`);
  } catch (e) {
    box.textContent = e instanceof ApiError && e.code === 'not_eligible' ? t('league.needName') : errorText(e);
    box.hidden = false;
  }
}

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
  if (VARIANTS[req.variant].players.length === 1) delete req.players; // the rule set seats one count: the server's default
  if (!req.name) { box.textContent = t('league.nameMissing'); box.hidden = false; return; }
  try {
    if (!await named(f, box)) return;
    const res = await createTournament(playerKey(), req);
    keepInvite(res.tournament.id, res.invite);
    location.assign(`/t/${encodeURIComponent(res.tournament.id)}`);
  } catch (e) {
    box.textContent = e instanceof ApiError && e.code === 'not_eligible' ? t('league.needName') : errorText(e);
    box.hidden = false;
  }
}

/** drawLobby draws /room in the words now in. */
export function drawLobby() {
  for (const sel of [$('#league-variant'), $('#tour-variant')]) {
    const chosen = sel.value;
    sel.replaceChildren(...ORDER.map((n) => el('option', { value: n, text: ruleTitle(n) })));
    if (chosen) sel.value = chosen;
  }
  const formats = $('#tour-form').format;
  const format = formats.value;
  formats.replaceChildren(...FORMATS.map((f) => el('option', { value: f, text: t('tour.' + f) })));
  if (format) formats.value = format;
  document.title = t('room.title');
  fillSelects();
  drawTables();
  drawBoard();
}

/** startLobby shows /room and loads its lists. */
export function startLobby() {
  $('#new-league').hidden = false;
  $('#new-tour').hidden = false;
  $('#tours').hidden = false;
  $('#league-form').addEventListener('submit', submitLeague);
  $('#tour-form').addEventListener('submit', submitTour);
  $('#tables').hidden = false;
  $('#boards').hidden = false;
  for (const input of [$('#name'), $('#league-form').you, $('#tour-form').you]) input.value = read(NAME) || '';
  profileName = myGames(playerKey()).then((me) => (me.player ? me.player.name : ''), () => '');
  profileName.then((name) => {
    for (const input of [$('#league-form').you, $('#tour-form').you]) if (!input.value) input.value = name;
  });
  $('#f-variant').addEventListener('change', loadTables);
  $('#f-rated').addEventListener('change', loadTables);
  $('#f-pool').addEventListener('change', loadBoard);
  fillSelects();
  loadTables();
  loadBoard();
}
