// chat.js: the table talk (API.md "Chat") for a seat: the messages, a line
// to write (reactions only at an open table) and the six reactions. The
// game page loads it once its first drawing is done, as a chunk of its own
// (docs/frontend.md), so it imports nothing: the page hands it its words
// (t), the game, the seat's token, how to name a seat and say a time.
// The table notes and hints come with it (coach.js), and the log's hint
// lines, for every reader: the page mounts it for spectators too (no
// token: no talk).

import { mount as mountCoach, make, request } from './coach.js';
import './talk.css'; // its rules, adopted as it loads (build.mjs)

export const REACTIONS = ['thumbs-up', 'well-played', 'good-game', 'oops', 'hurry', 'thanks'];

/** mount fills box (a <details>) and returns {update(view)}: call it with each view. */
export function mount(box, { t, id, token, name, me, when, renderBoard }) {
  const coach = mountCoach(box, { t, id, token, name, lang: () => document.documentElement.lang, renderBoard });
  let view = null, seen = 0, read = 0, asking = false, pending = null;
  let msgs = [];
  const sum = make('summary');
  const list = make('ol', 'log talk');
  const reacts = make('div', 'reactions');
  const form = make('form', 'talk-form');
  const label = make('label');
  const words = make('span');
  const input = make('input');
  input.name = 'text';
  input.maxLength = 280;
  input.autocomplete = 'off';
  label.append(words, ' ', input);
  const send = make('button');
  send.type = 'submit';
  form.append(label, ' ', send);
  const note = make('p', 'muted');
  note.setAttribute('role', 'status');
  box.append(sum, list, reacts, form, note);

  const call = (method, body, query = '') => request(token, method, `/api/games/${encodeURIComponent(id)}/chat${query}`, body);

  async function fetchNew() {
    if (asking) return;
    asking = true;
    try {
      const d = await call('GET', null, `?after=${seen}`);
      for (const m of d.messages) if (m.seq > seen) { msgs.push(m); seen = m.seq; }
      msgs = msgs.slice(-200);
    } catch (e) {
      note.textContent = t('chat.failed');
    }
    asking = false;
    render();
    if (view && view.chat > seen) fetchNew();
  }

  async function post(body) {
    // A retry of the same message keeps its messageId: sent at most once.
    if (!pending || JSON.stringify(pending.body) !== JSON.stringify(body)) pending = { body, messageId: `${Date.now()}-${Math.random().toString(36).slice(2)}` };
    try {
      const d = await call('POST', { ...body, messageId: pending.messageId });
      pending = null;
      note.textContent = '';
      if (body.text) input.value = '';
      if (d.message.seq === seen + 1) { msgs.push(d.message); seen = d.message.seq; read = seen; }
      render();
      fetchNew();
    } catch (e) {
      note.textContent = t(e.message === 'limit_reached' ? 'chat.limit' : e.message === 'not_eligible' ? 'chat.reactionsOnly' : 'chat.failed');
    }
  }

  // The messages this device reported ("game:seq", the last 300): after a
  // reload they say "Reported", not "Report" again (issue 43).
  const REPORTED = 'tessera.reported';
  const reported = () => { try { return JSON.parse(localStorage.getItem(REPORTED)) || []; } catch (e) { return []; } };
  async function report(b, m, pid) {
    if (!b.dataset.sure) { b.dataset.sure = '1'; b.textContent = t('chat.reportSure'); return; }
    try {
      await request(token, 'POST', '/api/reports', { player: pid, what: 'message', game: id, seq: m.seq });
      note.textContent = t('chat.reported');
      try { localStorage.setItem(REPORTED, JSON.stringify([...reported(), `${id}:${m.seq}`].slice(-300))); } catch (e) { /* this page still knows */ }
      b.replaceWith(make('span', 'muted', t('chat.reportedShort')));
    } catch (e) {
      note.textContent = t(e.message === 'not_eligible' ? 'chat.reportNeedsName' : 'chat.failed');
    }
  }

  // Mute where the talk is (issue 43; also on the player's profile, where
  // it is undone): their messages leave this list now, and the server
  // leaves them out of every read after.
  async function mute(pid, who) {
    try {
      await request(token, 'PUT', `/api/me/mutes/${encodeURIComponent(pid)}`);
      msgs = msgs.filter((m) => (view.seats[m.seat] || {}).player !== pid);
      note.textContent = t('chat.muted', { name: who });
      render();
    } catch (e) {
      note.textContent = t(e.message === 'not_eligible' ? 'chat.reportNeedsName' : 'chat.failed');
    }
  }

  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    if (input.value.trim()) post({ text: input.value });
  });
  box.addEventListener('toggle', () => { if (box.open) { read = seen; render(); } });

  function render() {
    if (!view) return;
    box.hidden = false;
    if (box.open) read = seen;
    const unread = msgs.filter((m) => m.seq > read && m.seat !== me()).length;
    sum.textContent = unread ? t('chat.titleNew', { n: unread }) : t('chat.title');
    list.replaceChildren(...msgs.map((m) => {
      const li = make('li');
      const at = make('time', '', when(m.at)); // as the log says times
      at.dateTime = m.at;
      li.append(at, ' ', make('b', '', `${name(m.seat)}: `), m.deleted ? t('chat.deleted') : m.text != null ? m.text : t('chat.r.' + m.reaction));
      // Another player's message may be reported (docs/moderation.md):
      // a first tap asks, a second sends; the player may be muted.
      const pid = (view.seats[m.seat] || {}).player;
      if (pid && m.seat !== me() && !m.deleted) {
        let b;
        if (reported().includes(`${id}:${m.seq}`)) b = make('span', 'muted', t('chat.reportedShort'));
        else {
          b = make('button', 'link report', t('chat.report'));
          b.type = 'button';
          b.addEventListener('click', () => report(b, m, pid));
        }
        const mb = make('button', 'link mute', t('chat.mute'));
        mb.type = 'button';
        mb.addEventListener('click', () => mute(pid, name(m.seat)));
        li.append(' ', b, ' ', mb);
      }
      return li;
    }));
    reacts.replaceChildren(...REACTIONS.map((r) => {
      const b = make('button', '', t('chat.r.' + r));
      b.type = 'button';
      b.addEventListener('click', () => post({ reaction: r }));
      return b;
    }));
    form.hidden = view.open; // an open table talks with reactions only
    words.textContent = t('chat.message');
    send.textContent = t('chat.send');
    if (view.open) note.textContent = note.textContent || t('chat.reactionsOnly');
  }

  return {
    lookBack: (hand) => coach.lookBack(hand),
    update(v) {
      coach.update(v);
      if (!token || !v.you) return;
      view = v;
      if (v.chat > seen) fetchNew();
      else render();
    },
  };
}
