// coach.js: the table notes, hints and the look back at a hand (issue 35,
// docs/hints.md) for a seat, and the log's "asked for a hint" lines for
// every reader. It comes in the table talk's chunk (chat.js imports it),
// so it imports nothing the page's own bundle holds: the page hands it
// its words (t), the game, the token and how to name a seat.

/** make is an element with a class and a text (the talk's chunk's one helper: chat.js too). */
export const make = (tag, cls, text) => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
};

/** request calls the API with a seat's token: its JSON, or an Error named by the answer's code ('failed' without one). */
export async function request(token, method, path, body) {
  const r = await fetch(path, {
    method, body: body && JSON.stringify(body),
    headers: { Authorization: 'Bearer ' + token, ...(body ? { 'Content-Type': 'application/json' } : {}) },
  });
  const data = await r.json().catch(() => null);
  if (!r.ok) throw new Error((data && data.error && data.error.code) || 'failed');
  return data;
}
const button = (text, onClick) => {
  const b = make('button', '', text);
  b.type = 'button';
  b.addEventListener('click', onClick);
  return b;
};

/** choosing reports whether the seat must choose a play now, among two at least (one play is no choice: no hint; issue 44). */
export const choosing = (view) => !!(view && view.you && view.status === 'playing' && view.hand && view.hand.phase === 'play' &&
  view.hand.turn === view.you.seat && view.you.legal.length > 1);

/** reviewable is the hand a look back can show: the last that ended (0: none). */
export function reviewable(view) {
  if (!view || !view.you || !view.hand) return 0;
  if (view.status === 'finished') return view.hand.number;
  return Array.isArray(view.hints) ? view.hand.number - 1 : 0;
}

/** costliest orders a look back's plays, the costliest first: the chance to win given up, then points. */
export function costliest(plays) {
  const cost = (p) => [p.best.win - p.played.win, p.best.points - p.played.points];
  return plays.map((p) => ({ ...p, cost: cost(p) }))
    .filter((p) => p.cost[0] > 0.005 || p.cost[1] > 0.5)
    .sort((a, b) => b.cost[0] - a.cost[0] || b.cost[1] - a.cost[1]);
}

/** hintLines puts "asked for a hint" lines into the log list (newest first), after the line of the event each was asked at. */
export function hintLines(list, view, say) {
  for (const li of list.querySelectorAll('.ev-hint')) li.remove();
  for (const h of view.hints || []) {
    const at = list.querySelector(`[data-seq="${h.seq}"]`);
    const text = say(h.seat);
    if (at && text) at.before(make('li', 'ev-hint', text)); // newest first: after the event, above its line
  }
}

/** mount adds the notes box after box (the talk's) and returns {update(view), lookBack(hand)}. */
export function mount(box, { t, id, token, name, lang, renderBoard }) {
  const details = make('details', 'log-details coach');
  details.id = 'coach';
  details.hidden = true;
  const sum = make('summary');
  const notes = make('div', 'coach-notes');
  const hint = make('div', 'coach-hint');
  const back = make('div', 'coach-back');
  const note = make('p', 'muted');
  note.setAttribute('role', 'status');
  details.append(sum, notes, hint, back, note);
  box.after(details);
  let view = null, notesAt = -1, advice = null, adviceAt = -1, review = null;
  const pct = () => new Intl.NumberFormat(lang(), { style: 'percent' });
  const pts = () => new Intl.NumberFormat(lang(), { maximumFractionDigits: 1, signDisplay: 'exceptZero' });
  const tileText = (tl) => `${tl[0]}–${tl[1]}`;
  const playText = (p) => t('coach.play', { tile: tileText(p.tile), where: t(p.end === 'lead' ? 'coach.lead' : 'where.' + p.end), points: pts().format(p.points), win: pct().format(p.win) });

  const call = (method, path, hand) => request(token, method, `/api/games/${encodeURIComponent(id)}/${path}${hand ? '?hand=' + hand : ''}`);

  async function loadNotes() {
    const v = view;
    if (!details.open || !v || v.status !== 'playing' || notesAt === v.version) return;
    notesAt = v.version;
    try {
      const n = await call('GET', 'notes');
      if (view !== v) return;
      const table = make('table', 'coach-out');
      const head = make('tr');
      const row = make('tr');
      head.append(make('th', '', t('coach.number')));
      row.append(make('th', '', t('coach.outCount')));
      n.out.forEach((c, num) => { head.append(make('td', '', String(num))); row.append(make('td', '', String(c))); });
      table.append(head, row);
      const lacks = make('ul');
      n.lacks.forEach((nums, s) => { if (nums.length) lacks.append(make('li', '', t('coach.lacks', { name: name(s), nums: nums.join(', ') }))); });
      if (!lacks.children.length) lacks.append(make('li', '', t('coach.lacksNone')));
      notes.replaceChildren(make('p', '', t('coach.outTitle')), table, make('p', '', t('coach.pips', { n: n.pips })), lacks);
    } catch (e) {
      notesAt = -1;
      notes.replaceChildren(make('p', 'muted', t('coach.failed')));
    }
  }

  async function ask() {
    const v = view;
    note.textContent = '';
    try {
      advice = await call('POST', 'hint');
      adviceAt = v.version;
      // The mark the server made, in the view the page holds (its next
      // poll brings the same): the log says it at once.
      const seq = v.log.length ? v.log[v.log.length - 1].seq : 0;
      if (!v.hints.some((h) => h.seat === v.you.seat && h.seq === seq)) v.hints = [...v.hints, { seat: v.you.seat, seq }];
      marks();
    } catch (e) {
      note.textContent = t(e.message === 'not_eligible' ? 'coach.notHere' : 'coach.failed');
    }
    render();
  }

  // A look back's line with the board it talks about (issue 44): the
  // layout the play was made on, small, before the sentence.
  function reviewLine(v, hand, p) {
    const line = make('div', 'coach-play');
    if (p.board && renderBoard) {
      const box = make('div', 'board coach-board');
      box.setAttribute('role', 'img');
      box.setAttribute('aria-label', t('coach.boardThen', { tile: tileText(p.played.tile) }));
      line.append(box);
      queueMicrotask(() => renderBoard(box, { variant: v.variant, hand: { number: hand, board: p.board }, log: [] }, [], null, { fitAll: true }));
    }
    line.append(make('p', '', t('coach.reviewPlay', { played: playText(p.played), best: playText(p.best) })));
    return line;
  }

  async function lookBack(hand) {
    note.textContent = '';
    try {
      review = await call('GET', 'review', hand);
    } catch (e) {
      note.textContent = t('coach.failed');
    }
    render();
  }

  function render() {
    const v = view;
    const seat = !!(v && v.you && token);
    details.hidden = !seat;
    if (!seat) return;
    sum.textContent = t(Array.isArray(v.hints) ? 'coach.title' : 'coach.titleNotes');
    if (v.status !== 'playing') notes.replaceChildren();
    // A hint: asked for this decision, or the button to ask.
    if (adviceAt !== v.version) advice = null;
    if (Array.isArray(v.hints) && choosing(v)) {
      if (advice) {
        const ol = make('ol', 'coach-plays');
        for (const p of [...advice.plays].sort((a, b) => b.win - a.win || b.points - a.points)) {
          const best = p.tile[0] === advice.best.tile[0] && p.tile[1] === advice.best.tile[1] && p.end === advice.best.end;
          const li = make('li', best ? 'coach-best' : '', playText(p));
          if (best) li.prepend(make('b', '', t('coach.best') + ': '));
          ol.append(li);
        }
        hint.replaceChildren(ol, make('p', 'muted', t('coach.howRead')));
      } else {
        hint.replaceChildren(button(t('coach.hint'), ask), make('p', 'muted', t('coach.hintNote')));
      }
    } else hint.replaceChildren();
    // The expert's tile, marked in the hand as well (issue 44).
    const bestTile = advice && v.you.tiles.findIndex((x) => (x[0] === advice.best.tile[0] && x[1] === advice.best.tile[1]) || (x[0] === advice.best.tile[1] && x[1] === advice.best.tile[0]));
    for (const b of document.querySelectorAll('#hand .hand-tile')) b.classList.toggle('advised', advice != null && Number(b.dataset.index) === bestTile);
    // The look back at the last hand that ended.
    const hand = reviewable(v);
    if (review && review.hand !== hand) review = null;
    if (review) {
      const worst = costliest(review.plays).slice(0, 3);
      back.replaceChildren(make('p', 'coach-back-title', t('coach.reviewOf', { n: review.hand })), ...(worst.length
        ? worst.map((p) => reviewLine(v, review.hand, p))
        : [make('p', '', t('coach.reviewGood'))]));
    } else if (hand > 0) {
      back.replaceChildren(button(t('coach.review', { n: hand }), () => lookBack(hand)));
    } else back.replaceChildren();
  }

  details.addEventListener('toggle', () => { loadNotes(); render(); });

  function marks() {
    const v = view, log = document.getElementById('log');
    if (log) hintLines(log, v, (s) => (v.you && s === v.you.seat ? t('coach.askedYou') : t('coach.asked', { name: name(s) })));
  }

  return {
    update(v) {
      view = v;
      marks();
      render();
      loadNotes();
    },
    // From the hand's summary (issue 44: the look back was only inside
    // the closed box): the box opens at it.
    lookBack(hand) {
      details.open = true;
      lookBack(hand).then(() => back.scrollIntoView({ block: 'nearest' }));
    },
  };
}
