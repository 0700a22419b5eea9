// seat.js: taking a seat and the next match: the invitation's join form
// (a visitor at an open table) and the rematch. A chunk of the game page
// (issue 44: the first load's budget), asked for at the first drawing; it
// imports nothing the page's bundle holds (that would pull a shared chunk
// into the first load): make gets what it uses from the page.

import './seat.css'; // its rules, adopted as it loads (build.mjs)
import { inviteText } from './invite.js';

/**
 * make returns {showJoin(view, token), newMatch(view, token)} and handles
 * the join form's submit. joined(res, name) is the page's part of a seat
 * taken (its token, its view); failed() polls again; inviteDeps is
 * log.js's inviteDeps().
 */
export function make({ t, $, id, joinGame, rematch, playerKey, putGame, summarize, errorText, ApiError, inviteDeps, joined, failed }) {
  const { invitation, seated } = inviteText(inviteDeps);
  function showJoin(view, token) {
    const canJoin = !token && view.status === 'open';
    $('#join').hidden = !canJoin;
    if (!canJoin) return;
    const you = $('#join-form').name; // the name this device gave last (issue 44)
    try { if (!you.value) you.value = localStorage.getItem('tessera.name') || ''; } catch (e) { /* private mode */ }
    $('#join-what').textContent = invitation(view);
    $('#join-who').textContent = seated(view);
    const sel = $('#join-form select[name=seat]');
    const free = view.seats.filter((s) => !s.taken).map((s) => s.seat);
    const want = sel.value;
    sel.replaceChildren(new Option(t('join.anySeat'), ''), ...free.map((s) => new Option(t('seat.n', { n: s + 1 }), String(s))));
    if (free.map(String).includes(want)) sel.value = want;
  }

  async function join(ev) {
    ev.preventDefault();
    const form = ev.target;
    const err = $('#join-error');
    err.hidden = true;
    const name = form.name.value.trim();
    if (!name) { err.textContent = t('form.nameMissing'); err.hidden = false; return; }
    const seat = form.seat.value === '' ? undefined : Number(form.seat.value);
    try {
      const res = await joinGame(id, name, seat, playerKey());
      putGame(id, { token: res.token, seat: res.seat, name });
      try { localStorage.setItem('tessera.name', name); } catch (e) { /* private mode */ }
      joined(res);
    } catch (e) {
      err.textContent = e instanceof ApiError ? errorText(e) : t('error.network');
      err.hidden = false;
      failed();
    }
  }
  $('#join-form').addEventListener('submit', join);

  // The rematch: the same players (the same tokens, so the same keys), the
  // same computers; the first to ask starts it for everyone.
  async function newMatch(view, token) {
    const slot = $('#new-match-slot') || $('#rematch-slot');
    if (view.next) { location.assign(`/g/${encodeURIComponent(view.next)}`); return; }
    if (slot) slot.textContent = t('rematch.starting');
    try {
      const res = await rematch(id, token);
      putGame(res.game.id, { token: res.token, seat: res.seat, summary: summarize(res.game) });
      location.assign(`/g/${encodeURIComponent(res.game.id)}`);
    } catch (e) {
      if (slot) slot.textContent = e instanceof ApiError ? errorText(e) : t('error.network');
    }
  }

  return { showJoin, newMatch };
}
