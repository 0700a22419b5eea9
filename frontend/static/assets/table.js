// table.js: the seats around the table, the status line and the scores
// (the hand-end / match-end summary and the score sheet are summary.js, a
// chunk). It reads the view; it decides nothing.

import { countdown, nextTick, day } from './clock.js';
import { seatName, teamName, count, isolate, person, say } from './log.js';
import { t, list } from './i18n.js';
import { RULES } from './rules.js';

/** Whether the rule set turns clockwise (else the next seat is on the right). */
export function clockwise(view) { return (RULES[view.variant] || {}).clockwise !== false; }

/**
 * seatPositions places the seats around the table, the reader (or seat 0
 * for a spectator) at the bottom, the next player in turn order on the
 * left when the table turns clockwise and on the right otherwise.
 */
export function seatPositions(n, me, cw) {
  const order = { 2: ['top'], 3: ['left', 'right'], 4: ['left', 'top', 'right'] }[n] || [];
  const mirror = { left: 'right', right: 'left', top: 'top' };
  const pos = { [me]: 'bottom' };
  for (let k = 1; k < n; k++) pos[(me + k) % n] = cw ? order[k - 1] : mirror[order[k - 1]];
  return pos;
}

const pairs = (view) => view.options.pairs;

export function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function seatCard(view, s, me) {
  const hand = view.hand;
  const card = el('div', 'seat');
  card.dataset.seat = s.seat;
  if (hand && hand.turn === s.seat) card.classList.add('turn');
  if (s.seat === me) card.classList.add('me');
  if (pairs(view)) card.classList.add('team-' + s.team);
  const name = el('div', 'name', s.taken ? seatName(view, s.seat, me) : t('seat.free'));
  if (s.seat === me) name.textContent = t('seat.you', { name: isolate(s.name) });
  if (s.player) { // the player's profile (the room)
    const a = el('a', '', name.textContent);
    a.href = '/p/' + s.player;
    name.replaceChildren(a);
  }
  card.append(name);
  const info = [];
  // A rated game: the rating when seated, and after the match its change.
  // A provisional rating (fewer than 10 rated matches) says so, as the profile does.
  if (s.rating != null) {
    const r = s.provisional ? t('rating.provisional', { rating: s.rating }) : String(s.rating);
    info.push(s.ratingAfter != null ? r + ' → ' + s.ratingAfter : r);
  }
  if (view.status !== 'open' || s.taken) info.push(t('seat.tiles', { n: s.tiles }));
  if (s.bot) info.push(t('seat.bot', { level: t('level.' + s.bot) }));
  card.append(el('div', 'meta', info.join(' · ')));
  const score = view.scores[s.team] ?? 0;
  const sc = el('div', 'score', t(pairs(view) ? 'seat.scoreTeam' : 'seat.score', { score, target: view.options.target }));
  card.append(sc);
  if (s.away) card.append(el('div', 'flag away', t('seat.away')));
  // Its key is on vacation (API.md): its clock stops in a friendly game,
  // runs in a rated or a tournament game; the seat says which.
  const clock = view.options.moveTime ? (view.rated || view.tournament ? 'seat.vacationRuns' : 'seat.vacationStops') : 'seat.vacation';
  const vac = s.vacation ? t(clock, { date: day(s.vacation) }) : '';
  if (vac) card.append(el('div', 'flag away', vac));
  if (hand && hand.turn === s.seat) card.append(el('div', 'flag', t(s.seat === me ? 'seat.yourTurn' : 'seat.toPlay')));
  if (hand && hand.deadline && (hand.turn === s.seat || (hand.confirming || []).includes(s.seat)) && !s.away) {
    const c = el('div', 'countdown');
    c.dataset.deadline = hand.deadline;
    c.dataset.moveTime = view.options.moveTime || 0;
    paintCountdown(c);
    card.append(c);
  }
  if (hand && hand.phase === 'confirm' && (hand.confirming || []).includes(s.seat)) card.append(el('div', 'flag', t('seat.redeal')));
  let label = t('seat.label', { name: s.taken ? seatName(view, s.seat, me) : t('seat.free'), n: s.tiles, score, target: view.options.target });
  if (s.away) label += t('seat.labelAway');
  if (vac) label += ', ' + vac;
  if (hand && hand.turn === s.seat) label += t('seat.labelToPlay');
  card.setAttribute('aria-label', label);
  card.setAttribute('role', 'group');
  return card;
}

/** renderSeats fills the four seat slots of the table. */
export function renderSeats(root, view, me) {
  const pos = seatPositions(view.seats.length, me ?? 0, clockwise(view));
  for (const slot of root.querySelectorAll('.seat-slot')) slot.replaceChildren();
  for (const s of view.seats) {
    const slot = root.querySelector(`.seat-slot[data-pos="${pos[s.seat]}"]`);
    if (slot) slot.append(seatCard(view, s, me));
  }
  root.dataset.direction = clockwise(view) ? 'clockwise' : 'counterclockwise';
}

/** seriesText: "Ana & Carlo lead 3–2" over a chain of rematches; "" before one ends. */
export function seriesText(view, me) {
  const s = view.series;
  if (!s || !s.matches) return '';
  const teams = s.wins.map((w, t) => [w, t]).sort((a, b) => b[0] - a[0]);
  const [best, second] = [teams[0], teams[1] || [0, -1]];
  const score = teams.map(([w]) => w).join('–');
  if (best[0] === second[0]) return t('series.level', { score, n: s.matches });
  return say('series.leads', person(view, best[1], me), { name: teamName(view, best[1], me), score });
}

function paintCountdown(c, now = Date.now()) {
  const d = countdown(c.dataset.deadline, Number(c.dataset.moveTime), now);
  c.textContent = d.text;
  c.classList.toggle('urgent', d.urgent);
}

/**
 * tickCountdowns brings the shown deadlines up to date and returns the ms
 * until one of them changes again (Infinity: none shown).
 */
export function tickCountdowns(root, now = Date.now()) {
  let next = Infinity;
  for (const c of root.querySelectorAll('.countdown[data-deadline]')) {
    paintCountdown(c, now);
    next = Math.min(next, nextTick(c.dataset.deadline, now));
  }
  return next;
}

/** paused: a game being played whose every person is away waits (API.md "Clocks"). */
export function paused(view) {
  const people = view.seats.filter((s) => s.taken && !s.bot);
  return view.status === 'playing' && people.length > 0 && people.every((s) => s.away);
}

/** statusText: one line saying who is to act. */
export function statusText(view, me) {
  if (view.status === 'open') {
    const free = view.seats.filter((s) => !s.taken).length;
    return t('status.waiting', { n: free });
  }
  if (view.status === 'finished') {
    return say('status.over', person(view, view.winner, me), { team: teamName(view, view.winner, me) });
  }
  if (paused(view)) return t('status.paused');
  const h = view.hand;
  if (h.phase === 'confirm') {
    if (view.you && view.you.confirm) return t('status.yourChoice');
    const names = (h.confirming || []).map((s) => seatName(view, s, me));
    return t('status.mayRedeal', { names: list(names), n: names.length });
  }
  if (h.turn === me) return t('status.yourTurn');
  return t('status.turnOf', { name: seatName(view, h.turn, me) });
}

/** countSum writes the count's terms as a sum: "6 + 2 + 1 + 0 + 6 = 15". */
export function countSum(terms) {
  return `${terms.join(' + ')} = ${terms.reduce((a, b) => a + b, 0)}`;
}

let showSum = false; // the player tapped the count open

/** renderInfo: hand number, count, boneyard and team scores above the board. */
export function renderInfo(elInfo, view, me) {
  const parts = [];
  const h = view.hand;
  if (h) {
    parts.push(['hand', h.number]);
    if (h.board && h.board.count !== null && h.board.count !== undefined) parts.push(['count', h.board.count]);
    if (view.seats.length < 4) parts.push(['boneyard', h.boneyard]);
  }
  parts.push(['target', view.options.target]);
  const series = seriesText(view, me);
  if (series) parts.push(['series', series]);
  const row = parts.map(([k, v]) => {
    const s = el('span', 'info-' + k);
    s.append(el('span', 'k', t('info.' + k) + ' '), el('b', '', String(v)));
    return s;
  });
  // The count explains itself: its sum on hover (title) and on a tap.
  const terms = h && h.board && h.board.countTerms;
  const countEl = row.find((s) => s.classList.contains('info-count'));
  if (countEl && terms && terms.length) {
    const sum = countSum(terms);
    const b = el('button', 'count-btn');
    b.type = 'button';
    b.title = sum;
    b.setAttribute('aria-expanded', String(showSum));
    b.setAttribute('aria-label', t('info.countLabel', { n: h.board.count, sum }));
    b.append(...countEl.childNodes);
    const detail = el('span', 'count-sum', sum);
    detail.hidden = !showSum;
    b.addEventListener('click', () => {
      showSum = !showSum;
      detail.hidden = !showSum;
      b.setAttribute('aria-expanded', String(showSum));
    });
    countEl.replaceChildren(b, detail);
  }
  if (pairs(view)) {
    for (const team of [0, 1]) {
      const s = el('span', 'team-score team-' + team);
      s.textContent = t('info.teamScore', { team: teamName(view, team, me), n: view.scores[team] ?? 0 });
      row.push(s);
    }
  }
  elInfo.replaceChildren(...row);
}

export const pipSum = (tiles) => tiles.reduce((n, t) => n + t[0] + t[1], 0);

/** lastHandEnd finds the newest handEnd event (and its index) in the log. */
export function lastHandEnd(view) {
  const log = view.log || [];
  for (let i = log.length - 1; i >= 0; i--) if (log[i].type === 'handEnd') return { e: log[i], i };
  return null;
}
