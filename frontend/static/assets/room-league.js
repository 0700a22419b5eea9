// room-league.js: /l/{id}, a league (its invite link /l/{id}#invite=<token>):
// its table by month, its games, its members, and for its admin the
// invite and the members' removal.

import { t, num, currentLang } from './i18n.js';
import { joinLeague, getLeague, previewLeague, newInvite, removeMember, putProfile, ApiError, errorText } from './api.js';
import { share } from './share.js';
import { qrSVG } from './qr.js';
import { playerKey, read, write } from './player.js';
import { ruleTitle } from './rules.js';
import { $, el, wordsIn, notFound, playerLink, invites, keepInvite, fragmentInvite, myPlayerId, NAME } from './room-common.js';

let league = null;
let leagueId = '';
let invite = ''; // the invite in the address, for a visitor not yet a member
let myPlayer = ''; // this device's player id ('' before a profile)
let preview = null; // the league as its invite shows it to a visitor

/** leagueLink is a league's invite link. */
export const leagueLink = (id, invite) => `${location.origin}/l/${encodeURIComponent(id)}#invite=${encodeURIComponent(invite)}`;

async function loadLeague(season) {
  try {
    league = await getLeague(playerKey(), leagueId, season);
    $('#league-join').hidden = true;
    drawLeague();
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) {
      if (invite) { // not a member yet: the invite's panel, with the league's name and who runs it
        $('#league').hidden = false;
        $('#league-join').hidden = false;
        $('#league-name').value = read(NAME) || '';
        try {
          preview = await previewLeague(leagueId, invite);
        } catch (err) {
          leagueMessage(err instanceof ApiError && err.status === 404 ? t('league.badInvite') : errorText(err));
        }
        drawLeague();
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
  if (!name) { leagueMessage(t('form.nameMissing')); $('#league-name').focus(); return; }
  try {
    write(NAME, name);
    await putProfile(playerKey(), name);
    await joinLeague(playerKey(), leagueId, invite);
    await loadLeague();
  } catch (e) {
    leagueMessage(e instanceof ApiError && e.status === 404 ? t('league.badInvite') : e instanceof ApiError && e.code === 'not_eligible' ? t('league.needName') : errorText(e));
  }
}

export function drawLeague() {
  if (!wordsIn()) return; // drawn again when they come (onLangChange)
  if (!league) {
    if (invite) drawInvite();
    return;
  }
  const l = league;
  $('#league').hidden = false;
  $('#league-body').hidden = false;
  $('#league-h').textContent = l.name;
  document.title = l.name + ' — Tessera';
  $('#league-facts').textContent = [ruleTitle(l.variant), t('league.memberCount', { n: l.members.length }), ...(l.hints ? [t('league.hintsOn')] : [])].join(' · ');
  const month = new Intl.DateTimeFormat(currentLang() === 'en' ? 'en-GB' : currentLang(), { month: 'long', year: 'numeric', timeZone: 'UTC' });
  const sel = $('#league-season');
  sel.replaceChildren(...l.seasons.map((s) => el('option', { value: s, text: month.format(new Date(s + '-01T00:00:00Z')) })));
  sel.value = l.season;
  const body = $('#league-table');
  body.replaceChildren();
  for (const r of l.table) {
    body.append(el('tr', {}, el('td', { text: num(r.rank) }), el('td', {}, playerLink(r.name, r.player)), el('td', { text: num(r.played) }),
      el('td', { text: num(r.won) }), el('td', { text: num(r.lost) }), el('td', { text: `${num(r.pointsFor)}–${num(r.pointsAgainst)}` }),
      el('td', { class: 'form', text: [...(r.form || '')].map((c) => t(c === 'W' ? 'league.w' : 'league.l')).join('') })));
  }
  $('#league-table-none').hidden = l.table.length > 0;
  const games = $('#league-games');
  games.replaceChildren();
  for (const g of l.games) {
    const names = g.names.map((n) => n || t('room.freeSeat')).join(', ');
    // A game with free seats waits for players (it said "being played":
    // issue 44); its link takes the seat.
    const free = g.names.filter((n) => !n).length;
    const what = g.status === 'finished' ? g.scores.join('–') : g.status === 'open' ? t('league.waitingSeats', { n: free }) : t('league.playing');
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
      b.addEventListener('click', () => askRemove(li, b, m));
      li.append(' ', b);
    }
    members.append(li);
  }
  $('#league-admin').hidden = !admin;
  const kept = invites()[l.id];
  $('#league-invite').hidden = !(admin && kept);
  if (admin && kept) {
    const link = leagueLink(l.id, kept);
    $('#league-link').value = link;
    $('#league-qr').replaceChildren(qrSVG(link, t('league.qr')));
  }
}


/** drawInvite shows the invite's panel: the league's name, who runs it, its size. */
function drawInvite() {
  if (!preview) { $('#league-h').textContent = t('league.title'); return; }
  $('#league-h').textContent = preview.name;
  document.title = preview.name + ' — Tessera';
  $('#league-invited').textContent = t('league.invitedBy', { admin: preview.adminName, name: preview.name });
  $('#league-facts').textContent = [ruleTitle(preview.variant), t('league.memberCount', { n: preview.memberCount })].join(' · ');
}

/** askRemove asks the admin to confirm removing member m (li holds the member, b the button that asked). */
function askRemove(li, b, m) {
  const ask = el('span', { class: 'confirm', role: 'group', 'aria-label': t('league.removeAsk', { name: m.name }) },
    el('span', { text: t('league.removeAsk', { name: m.name }) + ' ' }));
  const yes = el('button', { type: 'button', class: 'danger', text: t('league.removeYes') });
  const no = el('button', { type: 'button', text: t('league.removeNo') });
  yes.addEventListener('click', async () => {
    yes.disabled = true;
    try { await removeMember(playerKey(), league.id, m.player); await loadLeague(league.season); } catch (e) { leagueMessage(errorText(e)); }
  });
  no.addEventListener('click', () => { ask.replaceWith(b); b.focus(); });
  ask.append(yes, ' ', no);
  b.replaceWith(ask);
  no.focus();
}

/** newLeagueGame sets up a league game like any game: the start page, with the league's rule set. */
// The start page opens at its new game's form (#new-h: it was two or three
// screens down, below the inbox and the vacation; issue 44).
function newLeagueGame() {
  location.assign(`/?league=${encodeURIComponent(league.id)}#new-h`);
}

async function shareInvite() {
  await share($('#league-link').value, t('league.shareTitle', { name: league.name }), $('#league-share'));
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

/** startLeague loads and shows league id (a visitor with its invite: the join panel). */
export async function startLeague(id) {
  leagueId = id;
  invite = fragmentInvite();
  myPlayer = await myPlayerId();
  $('#league-join-btn').addEventListener('click', joinThisLeague);
  $('#league-season').addEventListener('change', () => loadLeague($('#league-season').value));
  $('#league-game').addEventListener('click', newLeagueGame);
  $('#league-rotate').addEventListener('click', rotate);
  $('#league-share').addEventListener('click', shareInvite);
  loadLeague();
}
