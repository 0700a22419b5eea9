// app.js: the game page's wiring (token, polling, renderers, moves); no rules.

import { Poller, pollState, myTurn as isMyTurn, ApiError, sendMove, joinGame, newMoveId, errorDelay, myGames, rematch, errorText, getTournament, pushKey, putDevice, deleteDevice } from './api.js';
import { playerKey, pushOn, read, write, PUSH, pushState, registerWorker, keyBytes } from './player.js';
import { renderBoard, tileName, tileSVG, sameTile } from './render.js';
import { renderHand, attachInput, endsFor } from './input.js';
import { seatName, teamName, handEndText, closerOf, count, person, say, storyDeps, inviteDeps } from './log.js';
import { renderSeats, renderInfo, statusText, lastHandEnd, tickCountdowns, paused, el, pipSum } from './table.js';
import { getGame, putGame, forgetGame, summarize, takeFragment } from './mygames.js';
import { share } from './share.js';
import { t, has, list, loadLang, loadLater, langSwitch, onLangChange, currentLang } from './i18n.js';
import { when, left } from './clock.js';

const $ = (s) => document.querySelector(s);
const id = decodeURIComponent(location.pathname.split('/')[2] || '');
const inviteURL = (gid) => `${location.origin}/g/${encodeURIComponent(gid)}`;

let token = null;
let view = null;
let selectedTile = null;
let focusIndex = 0;
let moving = false;
let wasMyTurn = null;
let seenEnd = 0;
let summaryOpen = false;

const me = () => (view && view.you ? view.you.seat : null);
const myTurn = () => isMyTurn(view);

function banner(text) {
  const b = $('#banner');
  b.textContent = text || '';
  b.hidden = !text;
}

function prompt(text) { $('#prompt').textContent = text; }

function signalTurn() {
  const mine = myTurn();
  document.title = mine ? t('title.yourTurn') : t('title.status', { status: view ? statusText(view, me()) : t('title.game') });
  $('#favicon').href = mine ? '/assets/favicon-turn.svg' : '/assets/favicon.svg';
  // The fallback without push (with it, the service worker notified).
  if (mine && wasMyTurn === false && document.hidden && !pushOn() && 'Notification' in window && Notification.permission === 'granted') {
    try { new Notification(t('notify.yourTurn'), { body: statusText(view, me()), tag: 'tessera-' + id }); } catch (e) { /* not allowed here */ }
  }
  wasMyTurn = mine;
}

let fitAll = false; // the player asked to see the whole layout, small

/** boxOf: an element's size in whole CSS px, as drawBoard last drew for it (drawnBox). */
const boxOf = (el) => { const r = el.getBoundingClientRect(); return `${Math.round(r.width)}x${Math.round(r.height)}`; };
let drawnBox = '';

function drawBoard() {
  if (!view) return;
  const legal = view.you ? view.you.legal : [];
  const targets = selectedTile ? endsFor(legal, selectedTile) : [];
  const board = $('#board'), zoom = $('#zoom-btn');
  // An open summary keeps its hand shown.
  const end = summaryOpen && view.status !== 'finished' && view.lastHand;
  const shown = end ? { ...view, hand: { ...view.hand, number: end.number, board: end.board } } : view;
  board.dataset.hand = shown.hand ? shown.hand.number : '';
  drawnBox = boxOf(board);
  renderBoard(board, shown, end ? [] : targets, end ? null : selectedTile, { fitAll });
  zoom.hidden = !board.dataset.zoom;
  zoom.textContent = t(board.dataset.zoom === 'in' ? 'board.whole' : 'board.zoomIn');
}

function drawHand() {
  const you = view.you;
  const hand = $('#hand');
  if (!you) { hand.replaceChildren(); return; }
  const sel = selectedTile ? you.tiles.findIndex((t) => t[0] === selectedTile[0] && t[1] === selectedTile[1]) : -1;
  focusIndex = Math.min(focusIndex, Math.max(0, you.tiles.length - 1));
  const hadFocus = hand.contains(document.activeElement);
  // Tiles are singled out (playable or dimmed) only when one is to be
  // played: not while others play, nor during the redeal question.
  renderHand(hand, you.tiles, moving ? [] : you.legal, sel, focusIndex, !moving && (!myTurn() || you.confirm));
  if (hadFocus && hand.children[focusIndex]) hand.children[focusIndex].focus({ preventScroll: true }); // a redraw never scrolls the page
}

function describePrompt() {
  if (!view.you) {
    prompt(t(view.status === 'open' ? 'prompt.takeSeat' : view.status === 'playing' ? 'prompt.full' : 'prompt.watching'));
    if (view.status === 'playing') {
      const a = document.createElement('a');
      a.href = '/';
      a.textContent = t('prompt.startOwn');
      $('#prompt').append(' ', a);
    }
    return;
  }
  if (view.status === 'open') { prompt(t('prompt.invite')); return; }
  if (view.status === 'finished') { prompt(statusText(view, me())); return; }
  if (paused(view)) { prompt(t('prompt.paused')); return; }
  if (view.you.confirm) { prompt(t('prompt.mayRedeal')); return; }
  if (!myTurn()) { prompt(t('prompt.waitingFor', { name: seatName(view, view.hand.turn ?? (view.hand.confirming || [])[0], null) })); return; }
  if (selectedTile) prompt(t(endsFor(view.you.legal, selectedTile).length > 1 ? 'prompt.chooseEnd' : 'prompt.confirmPlay', { tile: tileName(selectedTile) }));
  else prompt(t('prompt.yourTurn'));
}

// chunk: a module of its own, off the first load (docs/frontend.md),
// fetched at the first call, which comes with the first view drawn (after
// the game's GET); ready(module) makes what later calls answer (null until
// then; a failed fetch is asked for again at the next call).
function chunk(load, ready) {
  let got = null, asked = false;
  return () => {
    if (!asked) { asked = true; load().then((m) => { got = ready(m); }, () => { asked = false; }); }
    return got;
  };
}

// "Notify me": for a seat's page, asked for once the table is drawn.
const notifier = chunk(() => import('./notify.js'), (m) => {
  const n = m.make({ t, currentLang, onLangChange, pushKey, putDevice, deleteDevice, playerKey, read, write, PUSH, pushState, registerWorker, keyBytes });
  n.notifyControl($('#notify'), true);
  return n;
});

// Plays shown one by one: they come with later polls.
const replays = chunk(() => import('./replay.js'), (m) => m);

// The table talk: a seat's.
const talk = chunk(() => import('./chat.js'), (m) => {
  const c = m.mount($('#talk'), { t, id, token, name: (s) => seatName(view, s, me()), me, when, renderBoard });
  $('#talk').addEventListener('toggle', () => poller.schedule()); // open, it polls sooner
  c.update(view);
  return c;
});
function showTalk() {
  talk()?.update(view); // spectators too: the log's hint lines (coach.js)
}

// The log's lines and what a screen reader is told (story.js) are a chunk
// and their words are the page's second part (issue 44: the first load's
// budget): the table first, the log below it a moment later, once both
// are in, with the talk's hint marks drawn into it again.
const story = chunk(() => import('./story.js'), (m) => {
  const made = m.make(storyDeps());
  queueMicrotask(() => { if (view) { drawLog(made); showTalk(); } });
  return made;
});
function drawLog(s = story()) {
  if (s && has('log.deal')) s.renderLog($('#log'), view, me(), 60, seenSeq);
}

// The hand's and the match's end (summary.js: the summary dialog, the
// score sheet, the trophies' link) are a chunk (issue 44: the first load
// was 5 bytes under its budget): asked for at the first drawing, it draws
// what waited for it when it comes, as if it had been there (endsBefore:
// the view before the first drawing that waited, 'none' for the first).
let endsBefore;
const ends = chunk(() => import('./summary.js'), (m) => {
  const made = m.make({ t, list, seatName, teamName, handEndText, closerOf, count, person, say, tileSVG, tileName, renderBoard, el, pipSum, lastHandEnd, statusText });
  document.addEventListener('keydown', (ev) => made.trapKeys(ev, $('#summary'), closeSummary));
  queueMicrotask(() => {
    const before = endsBefore;
    endsBefore = undefined;
    if (!view) return;
    drawSheet();
    showFinished();
    showSummary(before === 'none' ? undefined : before);
  });
  return made;
});
function drawSheet() {
  const e = ends();
  if (e) e.renderSheet($('#sheet-wrap'), $('#sheet'), view, me());
  else $('#sheet-wrap').hidden = true;
}

function show(v, force) {
  if (view && v.id === view.id && v.version < view.version) return; // an older answer arriving late
  // Watching follows the view: a seat taken or the match over (watch.js).
  queueMicrotask(() => watch.on());
  // The same version for the same seat is the same view: redrawing it would
  // only risk swallowing a tap that is under way.
  const same = view && v.id === view.id && v.version === view.version && (v.you ? v.you.seat : null) === me();
  if (same && !force) {
    if (v.chat !== view.chat || v.hints + '' != view.hints + '') { view = v; showTalk(); } // new talk or hints only (hints: the count shows)
    return;
  }
  const before = view;
  const replay = replays();
  if (replay) replay.finish();
  view = v;
  if (selectedTile && (!view.you || !endsFor(view.you.legal, selectedTile).length)) selectedTile = null;
  if (token) putGame(id, { seat: me(), summary: summarize(view) });
  $('#status').textContent = statusText(view, me());
  document.body.dataset.status = view.status;
  document.body.dataset.variant = view.variant;
  document.body.dataset.version = view.version;
  document.body.dataset.turn = myTurn() ? 'mine' : view.status === 'playing' ? 'other' : '';
  renderSeats($('#table'), view, me());
  tick();
  renderInfo($('#board-info'), view, me());
  drawBoard();
  if (replay) replay.replay($('#board'), $('#table'), replay.newPlays(before, view));
  drawHand();
  describePrompt();
  $('#confirm').hidden = !(view.you && view.you.confirm) || moving;
  // A first visit on this device: what happened since the deal is new.
  if (!before && seenSeq === Infinity && token) seenSeq = lastDeal(view);
  drawLog();
  drawSheet();
  // Others' moves since the view before are told to screen readers (not
  // the game as it was when the page opened).
  if (before && before.id === view.id && before.log.length && story()) {
    const said = story().announcement(view, me(), before.log[before.log.length - 1].seq);
    if (said) $('#announce').textContent = said;
  }
  markSeen();
  showAway();
  showFinished();
  showJoin();
  showShare(before);
  showSummary(before);
  showTalk();
  showTournament(before);
  // A league's game leads back to its league (issue 44).
  $('#league-box').hidden = !view.league;
  if (view.league) $('#league-back').href = '/l/' + encodeURIComponent(view.league);
  signalTurn();
}

// A tournament game tells its story (tourline.js): the tournament is read
// when the page opens, when the game's status changes and once its
// round's deadline has passed (a public GET, not on every poll).
let tour = null, tourAt = 0, tl = null;
async function showTournament(before) {
  if (!view.tournament) { $('#tour-box').hidden = true; return; }
  tl = tl || await import('./tourline.js'); // a chunk: only tournament games need it
  const mine = tour && tl.tableOf(tour, view.id);
  const stale = !tour || (before && before.status !== view.status) || (mine && !mine.table.points && Date.parse(mine.deadline) <= Date.now() && Date.now() - tourAt > 60000);
  if (stale) {
    tourAt = Date.now();
    try { tour = await getTournament(view.tournament); } catch (e) { return; }
  }
  drawTournament();
}
function drawTournament() {
  // Its words come in the page's second part (drawn again then).
  const mine = tl && tour && has('tour.gameOf') && tl.tableOf(tour, view.id);
  $('#tour-box').hidden = !mine;
  if (!mine) return;
  const names = mine.table.players.map((p) => (tour.entries.find((e) => e.player === p) || {}).name || '');
  $('#tour-line').textContent = tl.tourLine(tour, mine, names, view.status === 'finished', { t, left });
}

function showSummary(before) {
  const sm = ends();
  if (!sm) { if (endsBefore === undefined) endsBefore = before || 'none'; return; }
  const end = lastHandEnd(view);
  const finished = view.status === 'finished';
  const seq = end ? end.e.seq : 0;
  // Opened after the next hand's first play: that result is old news
  // here (the log and the sheet keep it); it pops up only on a device
  // that sees it come, or opens the game before anyone played on (#26).
  if (!before && !finished && seq > seenEnd && view.log.some((e) => e.seq > seq && e.type === 'play')) seenEnd = seq;
  if (summaryOpen || (end && seq > seenEnd) || (finished && seenEnd !== Infinity)) {
    if (!end && !finished) return;
    const opening = !summaryOpen;
    sm.renderSummary($('#summary'), view, me(), { onClose: closeSummary, onNewMatch: view.you ? newMatch : null,
      onLookBack: view.you && token ? (hand) => { closeSummary(); talk()?.lookBack(hand); } : null });
    $('#summary').hidden = false;
    summaryOpen = true;
    if (opening) { drawBoard(); $('#summary-close').focus({ preventScroll: true }); }
  }
}

function closeSummary() {
  const end = lastHandEnd(view);
  seenEnd = view.status === 'finished' ? Infinity : (end ? end.e.seq : 0);
  if (token && seenEnd !== Infinity) putGame(id, { seenEnd });
  $('#summary').hidden = true;
  summaryOpen = false;
  drawBoard();
  if (view.you && myTurn()) input.focusTile(focusIndex);
}

// ---- moves

async function send(move) {
  if (moving) return;
  moving = true;
  // A move chosen on an end target gives the focus back to the hand (the
  // target is gone once the tile lies there).
  const fromBoard = $('#board').contains(document.activeElement);
  selectedTile = null;
  drawHand();
  $('#confirm').hidden = true;
  $('#hand').setAttribute('aria-busy', 'true');
  document.body.dataset.busy = 'true';
  prompt(t('prompt.sending'));
  const done = () => {
    $('#hand').removeAttribute('aria-busy');
    delete document.body.dataset.busy;
    // (Unless the move ended the hand: then the summary dialog has it.)
    if (fromBoard && !summaryOpen && view && view.you && view.you.tiles.length) input.focusTile(Math.min(focusIndex, view.you.tiles.length - 1));
  };
  try {
    // device: this page's push endpoint, when it watches: it is not
    // pushed the move it gets the answer to (issue 45).
    const { data: v, etag } = await sendMove(id, token, { ...move, version: view.version, moveId: newMoveId(), device: watch.w?.endpoint || undefined },
      (n, ms) => banner(t('banner.retryMove', { n: Math.round(ms / 1000) })));
    banner('');
    moving = false;
    show(v);
    // Others are to play now: the next poll is timed again, with the
    // answer's ETag (a 304 until someone else moves).
    poller.moved(etag);
    tellOtherTabs();
    done();
  } catch (e) {
    moving = false;
    done();
    if (e instanceof ApiError && e.code === 'stale_version' && e.game) {
      show(e.game);
      prompt(t('prompt.stale'));
    } else if (e instanceof ApiError) {
      show(view, true);
      prompt(errorText(e));
      poller.now();
    } else {
      banner(t('banner.moveNotSent'));
      show(view, true);
    }
  }
}

function choose(i) {
  if (!view || !view.you || moving) return;
  const tile = view.you.tiles[i];
  focusIndex = i;
  const ends = endsFor(view.you.legal, tile);
  if (!ends.length) { prompt(myTurn() ? t('prompt.noFit', { tile: tileName(tile) }) : t('prompt.notYourTurn')); return; }
  // One place for it: played at once with a mouse; on a touch screen,
  // where a slip of the thumb is easy, the first tap shows where it goes
  // and a second (the tile again, or that place) plays it (issue 26).
  if (ends.length === 1 && (!touch.matches || (selectedTile && sameTile(selectedTile, tile)))) { send({ type: 'play', tile, end: ends[0] }); return; }
  selectedTile = tile;
  drawHand();
  drawBoard();
  describePrompt();
  input.focusFirstTarget();
}

const touch = matchMedia('(pointer: coarse)');

function select(i) {
  if (!view || !view.you) return;
  selectedTile = view.you.tiles[i];
  drawHand();
  drawBoard();
}

function play(end) {
  if (!selectedTile || moving) return;
  if (!endsFor(view.you.legal, selectedTile).includes(end)) return;
  send({ type: 'play', tile: selectedTile, end });
}

function cancel() {
  selectedTile = null;
  drawHand();
  drawBoard();
  describePrompt();
  input.focusTile(focusIndex);
}

// ---- seats and sharing

// The join form and the rematch (seat.js) are a chunk: the form shows
// once it comes (a moment after the table).
const seats = chunk(() => import('./seat.js'), (m) => {
  const made = m.make({ t, $, id, joinGame, rematch, playerKey, putGame, summarize, errorText, ApiError, inviteDeps: inviteDeps(),
    joined: (res) => {
      token = res.token;
      poller.setToken(token);
      show(res.game);
      tellOtherTabs();
      poller.now();
    },
    failed: () => poller.now() });
  queueMicrotask(() => { if (view) made.showJoin(view, token); });
  return made;
});
function showJoin() {
  seats()?.showJoin(view, token);
}

function showShare(before) {
  $('#invite-link').value = inviteURL(id);
  // A seat held by this browser's player key has no link of its own: the
  // key opens every game, and its link is on the start page.
  const keyed = token && token === playerKey();
  $('#private-share').hidden = !token || keyed;
  $('#key-share').hidden = !keyed;
  $('#private-link').value = token && !keyed ? `${inviteURL(id)}#seat=${token}` : '';
  $('#notify').hidden = !token || view.status === 'finished';
  if (!$('#notify').hidden) notifier();
  // The creator waiting for friends sees the invite link straight away.
  if (!before && token && view.status === 'open') toggleMenu(true);
}

function toggleMenu(open) {
  const m = $('#menu');
  m.hidden = open === undefined ? !m.hidden : !open;
  $('#menu-btn').setAttribute('aria-expanded', String(!m.hidden));
}


function newMatch() {
  seats()?.newMatch(view, token);
}

// ---- away and back

function showFinished() {
  const box = $('#finished-box');
  box.hidden = !(view.you && view.status === 'finished');
  $('#rematch-btn').textContent = t(view.next ? 'rematch.go' : 'rematch.play');
  // The trophies this seat earned in the match, a link to its shelf.
  const won = ends()?.wonLink(view, me());
  $('#won').hidden = !won || box.hidden;
  $('#won').replaceChildren(won || '');
}

// "Take my seat back" shows while the computer plays for this seat; "let
// the computer play for me" is in the menu and above the log (issue 26:
// reachable without opening Share), out of the hand's way.
function showAway() {
  const mine = view.you && view.status === 'playing' ? view.seats[me()] : null;
  $('#away').hidden = !(mine && mine.away);
  $('#away-share').hidden = $('#away-offer').hidden = !(mine && !mine.away);
  $('#away-note').textContent = mine && mine.away ? t('away.note') : '';
}

// ---- what happened since this browser last looked

let seenSeq = Infinity; // the last event this browser showed (Infinity: mark nothing)
const lastDeal = (v) => { const d = v.log.filter((e) => e.type === 'deal').pop(); return d ? d.seq : Infinity; };
function markSeen() {
  if (!view || !token || document.hidden) return;
  const last = view.log.length ? view.log[view.log.length - 1].seq : 0;
  putGame(id, { seenSeq: last });
}

// Our other tabs of this game poll at once after our move.
const tabs = 'BroadcastChannel' in window ? new BroadcastChannel('tessera') : null;
function tellOtherTabs() { if (tabs && view) tabs.postMessage({ id, version: view.version }); }
if (tabs) tabs.onmessage = (ev) => { if (ev.data && ev.data.id === id && (!view || ev.data.version > view.version)) poller.now(true); };

// ---- start

takeFragment(id);
const saved = getGame(id);
token = saved ? saved.token || null : null;
seenEnd = saved && saved.seenEnd ? saved.seenEnd : 0;
seenSeq = saved && saved.seenSeq ? saved.seenSeq : Infinity;

const input = attachInput($('#hand'), $('#board'), {
  choose, select, play, cancel, focusIndex: (i) => { focusIndex = i; },
});

let notFound = false;
const poller = new Poller(id, {
  token,
  // A view that comes before the words waits for them, then the next poll
  // is timed again on it (the poller timed it on the view before).
  onView: (v) => { if (wordsIn) show(v); else words.then(() => { show(v); poller.schedule(); }); },
  state: () => pollState(view, { push: pushOn(), talking: $('#talk').open, watched: watch.watched }),
  onError: (e, failures) => { if (wordsIn) pollError(e, failures); else words.then(() => pollError(e, failures)); },
});

function pollError(e, failures) {
  if (failures > 0) { banner(t('banner.retryPoll', { n: Math.round(errorDelay(failures) / 1000) })); return; }
  if (failures === 0) { banner(''); return; }
  if (e instanceof ApiError && e.status === 401) {
    forgetGame(id);
    token = null;
    poller.setToken(null);
    banner(t('banner.seatGone'));
    poller.now();
  } else if (e instanceof ApiError && e.status === 404) {
    notFound = true;
    $('#status').textContent = t('status.notFound');
    prompt(t('prompt.notFound'));
    poller.stop();
  } else banner(errorText(e));
}

$('#menu-btn').addEventListener('click', () => toggleMenu());
document.addEventListener('keydown', (ev) => { if (ev.key === 'Escape' && !$('#menu').hidden) { toggleMenu(false); $('#menu-btn').focus(); } });
document.addEventListener('click', (ev) => {
  if (!$('#menu').hidden && !ev.target.closest('#menu, #menu-btn')) toggleMenu(false);
});
$('#share-invite').addEventListener('click', (ev) => share(inviteURL(id), t('share.inviteTitle'), ev.target));
$('#share-private').addEventListener('click', (ev) => share(`${inviteURL(id)}#seat=${token}`, t('share.seatTitle'), ev.target, { private: true }));
registerWorker(); // sw.js on every page of the site, as the start page does
// A push for this game (sw.js tells its open pages) means: poll now.
if ('serviceWorker' in navigator) {
  // A watched page's push brings the view (issue 34): no read then.
  navigator.serviceWorker.addEventListener('message', async ({ data: d }) => {
    // A hidden page reads nothing for a push (issue 45): it polls as it
    // comes back in view (wake, below), and the notification told the player.
    if (!d || d.type !== 'push' || d.game !== id || (view && d.version <= view.version) || document.hidden) return;
    const v = d.view && d.etag && watch.unpack ? await watch.unpack(d.view).catch(() => null) : null;
    // Else poll now, without the ETag (an eventual read may not have it yet).
    if (v) poller.got(v, d.etag); else poller.now(true);
  });
}
// While in view with push on and a seat, the page watches the game: every
// move is pushed to it with its view, and it polls only as a safety net.
// watch.js comes only for a page with push on (the game page's budget):
// follow() gives this its watcher (w) and unpack; on() is called after
// every view and visibility change (the watcher acts only on a change).
const watch = {
  watched: false, unpack: null, w: null, m: null,
  on() {
    if (this.w) this.w.sync();
    else if (!this.m && pushOn() && view && view.you) this.m = import('./watch.js').then((m) => m.follow(this, { id, token: () => token, view: () => view, poller, push: pushOn }));
  },
  off() { if (this.w) this.w.off(); },
};
document.addEventListener('visibilitychange', () => watch.on());
window.addEventListener('pagehide', () => watch.off());
$('#redeal-btn').addEventListener('click', () => send({ type: 'redeal' }));
$('#away-btn').addEventListener('click', () => { toggleMenu(false); send({ type: 'away' }); });
$('#away-link').addEventListener('click', () => send({ type: 'away' }));
$('#back-btn').addEventListener('click', () => send({ type: 'back' }));
$('#rematch-btn').addEventListener('click', () => newMatch());
// The seats' countdowns: again when their text changes (every second in
// their last two minutes, else at most every half minute).
let tickTimer = null;
function tick() {
  clearTimeout(tickTimer);
  const next = tickCountdowns($('#table'));
  if (next !== Infinity) tickTimer = setTimeout(tick, next);
}
$('#keep-btn').addEventListener('click', () => send({ type: 'keep' }));
$('#zoom-btn').addEventListener('click', () => { fitAll = !fitAll; drawBoard(); });
document.addEventListener('visibilitychange', () => { if (!document.hidden) poller.wake(); else poller.schedule(); });
// A seat link pasted into a tab that already shows this game: its seat,
// and the address bar and history clean again (takeFragment).
window.addEventListener('hashchange', () => {
  takeFragment(id);
  const saved = getGame(id);
  if (saved && saved.token && saved.token !== token) {
    token = saved.token;
    poller.setToken(token);
    poller.now();
  }
});
window.addEventListener('focus', () => poller.wake());
window.addEventListener('online', () => poller.wake());
// The board is drawn for its box's size: drawn again when that box
// changes, whatever changed it (the window, a scrollbar that came, a
// panel beside it), so its tiles never shrink under 28 px.
let resizeTimer = null;
new ResizeObserver(() => {
  if (boxOf($('#board')) === drawnBox) return;
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(drawBoard, 100);
}).observe($('#board'));
// The table fills the screen below what stands above it (the header, a
// banner, a tournament's or a league's line), so the hand is never pushed
// below the fold: its top, a CSS variable the table's height reads.
const placeTable = () => document.documentElement.style.setProperty('--table-top', `${Math.round($('#table').getBoundingClientRect().top + scrollY)}px`);
const above = new ResizeObserver(placeTable);
for (const el of document.querySelectorAll('.bar, #banner, #tour-box, #league-box')) above.observe(el);

// Opened on a device that does not remember a seat here: the player key
// may hold one (its games are the server's to list).
async function start() {
  if (!token) {
    try {
      const mine = (await myGames(playerKey())).games.find((g) => g.id === id);
      if (mine) {
        token = playerKey();
        putGame(id, { token, seat: mine.seat });
        poller.setToken(token);
      }
    } catch (e) { /* watch; the poll reports trouble */ }
  }
  poller.now();
}

// The words first (the catalog and the game are fetched side by side: a
// view that comes first waits for the words, see onView above).
let wordsIn = false;
const words = loadLang(undefined, 'game', true).catch(() => {}).then(() => { wordsIn = true; });
langSwitch($('#lang'));
onLangChange(() => {
  if (view) show(view, true);
  else if (notFound || !id) { $('#status').textContent = t('status.notFound'); prompt(t('prompt.notFound')); }
});
if (!id) { notFound = true; } else start();
// The second part of the words (menus, dialogs, errors) once the first is
// in; what was drawn without it is drawn again (onLangChange above).
words.then(() => loadLater()).catch(() => {});
