// start.js: the start page. It builds a create request from the form (the
// server checks it) and lists the games this device has a seat in.

import { createGame, readGame, ApiError } from './api.js';
import { allGames, putGame, forgetGame, summarize } from './mygames.js';
import { LEVELS, TARGET, VARIANTS } from './config.js';

const $ = (s) => document.querySelector(s);
const form = $('#create');

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
    const partner = pairs() ? (seat === 2 ? ' (your partner)' : ' (opponent)') : '';
    label.textContent = `Seat ${seat + 1}${partner} `;
    const sel = document.createElement('select');
    sel.name = `seat${seat}`;
    sel.append(new Option('A friend (invite link)', 'human'), ...LEVELS.map((l) => new Option(`Computer (${l})`, l)));
    if (keep[sel.name]) sel.value = keep[sel.name];
    label.append(sel);
    rows.push(label);
  }
  box.replaceChildren(...rows);
}

/** pairs: whether this table plays in pairs (the form's choice where there is one). */
function pairs() { const c = pairsChoice(); return c.length > 1 ? form.pairs.checked : c[0]; }

let lastVariant = variant();
function sync() {
  // The Five Up box holds the choices a rule set may offer: shown when any is offered.
  const choices = facts().players.length > 1 || facts().redeal.length > 1;
  $('#fiveup-options').disabled = !choices;
  $('#fiveup-options').hidden = !choices;
  form.pairs.disabled = pairsChoice().length < 2;
  if (form.pairs.disabled) form.pairs.checked = pairsChoice()[0];
  form.redeal.disabled = facts().redeal.length < 2;
  if (variant() !== lastVariant) {
    if (Number(form.target.value) === VARIANTS[lastVariant].target) form.target.value = facts().target;
    lastVariant = variant();
  }
  seatRows();
}

/** request builds the POST /api/games body from the form. */
export function request() {
  const req = { variant: variant(), name: form.name.value.trim(), target: Number(form.target.value) };
  if (facts().players.length > 1) req.players = players();
  if (facts().redeal.length > 1) req.redeal = form.redeal.checked;
  if (pairsChoice().length > 1) req.pairs = form.pairs.checked;
  req.bots = [];
  for (const s of $('#seats').querySelectorAll('select')) {
    if (s.value !== 'human') req.bots.push({ seat: Number(s.name.slice(4)), level: s.value });
  }
  return req;
}

async function submit(ev) {
  ev.preventDefault();
  const err = $('#create-error');
  err.hidden = true;
  const req = request();
  const problem = !req.name ? 'Please enter your name.'
    : !(Number.isInteger(req.target) && req.target >= TARGET.min && req.target <= TARGET.max) ? `The target must be a whole number from ${TARGET.min} to ${TARGET.max}.` : '';
  if (problem) { err.textContent = problem; err.hidden = false; return; }
  const button = form.querySelector('button[type=submit]');
  button.disabled = true;
  try {
    const res = await createGame(req);
    putGame(res.game.id, { token: res.token, seat: res.seat, name: req.name, summary: summarize(res.game) });
    location.assign(`/g/${encodeURIComponent(res.game.id)}`);
  } catch (e) {
    err.textContent = e instanceof ApiError ? e.message : 'Could not reach the server. Try again in a moment.';
    err.hidden = false;
    button.disabled = false;
  }
}

// ---- my games ------------------------------------------------------------------

function gameLine(id, g) {
  const s = g.summary;
  const li = document.createElement('li');
  li.dataset.game = id;
  const a = document.createElement('a');
  a.href = `/g/${encodeURIComponent(id)}`;
  a.textContent = s ? (s.variant === 'partnership' ? 'Partnership' : 'Five Up') + ' with ' + s.players.map((p) => p || '(free seat)').join(', ') : id;
  li.append(a);
  const p = document.createElement('p');
  p.className = 'game-state';
  if (s) {
    const teams = [...new Set(s.teams)];
    const score = teams.map((t) => `${s.players.filter((_, i) => s.teams[i] === t).join(' & ')} ${s.scores[t] ?? 0}`).join(' · ');
    let who = '';
    if (s.status === 'open') who = 'waiting for players';
    else if (s.status === 'finished') who = 'finished';
    else if (s.turn === g.seat) { who = 'your turn'; li.classList.add('your-turn'); }
    else if (s.turn !== null && s.turn !== undefined) who = `${s.players[s.turn]}'s turn`;
    p.textContent = `${score} (to ${s.target}) — ${who}`;
  }
  const forget = document.createElement('button');
  forget.type = 'button';
  forget.className = 'link';
  forget.textContent = 'Forget';
  forget.setAttribute('aria-label', 'Forget this game on this device');
  forget.addEventListener('click', () => { forgetGame(id); listGames(); });
  li.append(p, forget);
  return li;
}

function listGames() {
  const games = Object.entries(allGames()).sort((a, b) => (b[1].savedAt || 0) - (a[1].savedAt || 0));
  $('#no-games').hidden = games.length > 0;
  $('#my-games').replaceChildren(...games.map(([id, g]) => gameLine(id, g)));
  return games;
}

async function refreshGames(games) {
  for (const [id, g] of games.slice(0, 20)) {
    try {
      const r = await readGame(id, g.token);
      if (r.data) putGame(id, { summary: summarize(r.data), seat: r.data.you ? r.data.you.seat : g.seat });
    } catch (e) {
      if (e instanceof ApiError && (e.status === 404)) forgetGame(id);
    }
  }
  listGames();
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
sync();
refreshGames(listGames());
