// room-tour.js: /t/{id}, a tournament: its standings, its rounds and
// their deadlines, and entering, withdrawing and starting it.

import { t, num, list } from './i18n.js';
import { getTournament, enterTournament, startTournament, putProfile, ApiError, errorText } from './api.js';
import { countdown, left, day, moveTimeText } from './clock.js';
import { share } from './share.js';
import { playerKey, read, write } from './player.js';
import { ruleTitle } from './rules.js';
import { $, el, wordsIn, notFound, playerLink, invites, fragmentInvite, myPlayerId, NAME } from './room-common.js';

let tour = null;
let tourId = '';
let tourInvite = '';
let myPlayer = '';

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

export function drawTour() {
  if (!tour) return;
  if (!wordsIn()) return; // drawn again when they come (onLangChange)
  const tr = tour;
  $('#tournament').hidden = false;
  $('#tour-h').textContent = tr.name;
  document.title = tr.name + ' — Tessera';
  const status = tr.status === 'playing' ? t('tour.round', { n: tr.round, of: tr.rounds }) : t('tour.status.' + tr.status);
  // What a player needs to know before entering (issue 44): the rounds,
  // the target, the time per turn and per round.
  const o = tr.options;
  $('#tour-facts').textContent = [t('tour.' + tr.format), ruleTitle(tr.variant), t('tour.roundsOf', { n: tr.rounds }), t('room.target', { n: o.target }),
    moveTimeText(o.moveTime), t('tour.roundDays', { n: Math.round(o.roundTime / 86400) }), t('tour.entries', { n: tr.entries.length, size: tr.size }), status].join(' · ');
  // The end says who won.
  const first = tr.status === 'finished' && tr.entries.find((e) => e.rank === 1);
  $('#tour-winner').hidden = !first;
  if (first) $('#tour-winner').textContent = t('tour.winner', { name: first.name });
  const last = tr.pairings[tr.pairings.length - 1];
  const dl = $('#tour-deadline');
  dl.textContent = tr.status === 'playing' && last ? t('tour.deadline', { left: countdown(last.deadline, tr.options.roundTime).text }) : '';
  const names = {};
  for (const e of tr.entries) names[e.player] = e.name;
  const entered = tr.entries.some((e) => e.player === myPlayer);
  $('#tour-enter').hidden = !(tr.status === 'entries' && !entered);
  // A newcomer from the link (no name yet) writes it here and enters in
  // one tap (issue 44: the page asked for a name it had no field for).
  const row = $('#tour-name-row');
  const wasHidden = row.hidden;
  row.hidden = !(tr.status === 'entries' && !entered && !myPlayer);
  if (wasHidden && !row.hidden) $('#tour-name').value = read(NAME) || '';
  $('#tour-withdraw').hidden = !(tr.status === 'entries' && entered);
  $('#tour-start').hidden = !(tr.status === 'entries' && myPlayer === tr.creator);
  const invite = invites()[tr.id];
  $('#tour-invite').hidden = !(myPlayer === tr.creator && invite && !tr.listed && tr.status === 'entries');
  if (invite) $('#tour-link').value = `${location.origin}/t/${encodeURIComponent(tr.id)}#invite=${encodeURIComponent(invite)}`;
  drawYou(tr, names);
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

/**
 * drawYou answers an entrant's questions at the top of the page: what do
 * I play now, until when, and what has been decided (issue 33). Nothing
 * for a visitor who is not entered.
 */
function drawYou(tr, names) {
  const box = $('#tour-you');
  const me = tr.entries.find((e) => e.player === myPlayer);
  const go = $('#tour-you-go');
  go.hidden = true;
  box.hidden = !me || tr.status === 'entries';
  if (box.hidden) return;
  const line = $('#tour-you-line');
  if (tr.status === 'finished') {
    line.textContent = t('tour.you.finished', { rank: num(me.rank), count: num(tr.entries.length), n: me.points });
    return;
  }
  const r = tr.pairings[tr.pairings.length - 1];
  const tb = r && r.tables.find((x) => x.players.includes(myPlayer));
  if (!tb) { // entered, and the round has no table for them: cannot happen after the start (no withdrawing)
    box.hidden = true;
    return;
  }
  const then = t(r.round >= tr.rounds ? 'tour.you.lastRound' : 'tour.you.nextRound', { date: day(r.deadline) });
  if (!tb.game) {
    line.textContent = t('tour.you.bye', { round: r.round }) + ' ' + then;
  } else if (tb.points) { // its game ended (a deadline would have begun the next round)
    line.textContent = t('tour.you.decided', { round: r.round, n: tb.points[tb.players.indexOf(myPlayer)] }) + ' ' + then;
  } else {
    const others = tb.players.filter((p) => p !== myPlayer).map((p) => names[p] || p);
    line.textContent = t('tour.you.play', { round: r.round, who: list(others), date: day(r.deadline), left: left(r.deadline) });
    $('#tour-you-game').href = `/g/${encodeURIComponent(tb.game)}`;
    go.hidden = false;
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

/** startTour loads and shows tournament id, and keeps its deadline's countdown current. */
export async function startTour(id) {
  tourId = id;
  tourInvite = fragmentInvite();
  myPlayer = await myPlayerId();
  $('#tour-enter').addEventListener('click', () => {
    const name = $('#tour-name').value.trim();
    if (!myPlayer && !name) { tourMessage(t('form.nameMissing')); $('#tour-name').focus(); return; }
    tourAction(async () => {
      if (!myPlayer) {
        write(NAME, name);
        myPlayer = (await putProfile(playerKey(), name)).id;
      }
      await enterTournament(playerKey(), tourId, tourInvite || invites()[tourId]);
    });
  });
  $('#tour-withdraw').addEventListener('click', () => tourAction(() => enterTournament(playerKey(), tourId, '', true)));
  $('#tour-start').addEventListener('click', () => tourAction(() => startTournament(playerKey(), tourId)));
  // Its link, shared (the invite's when this device made an unlisted one).
  $('#tour-share').addEventListener('click', () => {
    const invite = invites()[tourId];
    const url = `${location.origin}/t/${encodeURIComponent(tourId)}` + (invite && tour && !tour.listed ? `#invite=${encodeURIComponent(invite)}` : '');
    share(url, t('tour.shareTitle', { name: tour ? tour.name : '' }), $('#tour-share'));
  });
  await loadTour();
  setInterval(() => { if (tour && tour.status === 'playing') drawTour(); }, 30000);
}
