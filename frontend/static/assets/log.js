// log.js: the public log in plain words ("Bea played 6–2 on the right and
// scored 10", "Carlo drew 2 and passed").

import { when } from './clock.js';
import { tileText } from './render.js';
import { isolate } from './mygames.js';
import { RULES, ruleTitle } from './rules.js';

export { isolate };

/** invitation: "Ana invited you to Five Up: 3 players, to 250." */
export function invitation(view) {
  const host = view.seats[0] && view.seats[0].name && isolate(view.seats[0].name);
  const o = view.options;
  const how = `${ruleTitle(view.variant)}: ${o.players} players${o.pairs && (RULES[view.variant] || {}).pairs ? ' in pairs' : ''}, to ${o.target}`;
  return host ? `${host} invited you to ${how}.` : `You are invited to ${how}.`;
}

/** count: "1 pip", "2 pips"; "1 point", "0 points". */
export function count(n, word) { return `${n} ${word}${n === 1 ? '' : 's'}`; }

/** seatName: the seat's name, "You" for the reader's own seat. */
export function seatName(view, seat, me) {
  if (seat === me && me !== null && me !== undefined) return 'You';
  const s = view.seats[seat];
  return s && s.name ? isolate(s.name) : `Seat ${seat + 1}`;
}

/** teamName: a pair as "Ana & Carlo"; in individual play the player's name. */
export function teamName(view, team, me) {
  const names = view.seats.filter((s) => s.team === team).map((s) => seatName(view, s.seat, me));
  return names.length ? names.join(' & ') : `Team ${team + 1}`;
}

const WHERE = { left: 'on the left', right: 'on the right', up: 'above the spinner', down: 'below the spinner' };

function plural(names) { return names === 'You' || names.includes(' & '); }

/** handEndText explains a hand's result in one sentence. */
export function handEndText(view, e, me, closer) {
  const who = e.team === null || e.team === undefined ? null : teamName(view, e.team, me);
  const scores = who && (plural(who) ? 'score' : 'scores');
  switch (e.reason) {
    case 'domino': {
      const out = closer !== null && closer !== undefined ? seatName(view, closer, me) : who;
      return `Hand ${e.hand} over: ${out} went out. ${who} ${scores} ${e.points}.`;
    }
    case 'blocked':
      if (!who) return `Hand ${e.hand} blocked with a tie: nobody scores.`;
      return `Hand ${e.hand} blocked: ${who} ${plural(who) ? 'have' : 'has'} the fewest pips and ${scores} ${e.points}.`;
    case 'target':
      return `Hand ${e.hand} ended: the target was reached.`;
    default:
      return `Hand ${e.hand} over.`;
  }
}

/**
 * describe turns the log into plain lines, newest last. A draw followed by a
 * pass of the same seat becomes one line.
 */
export function describe(view, me) {
  const out = [];
  const log = view.log || [];
  let lastPlayer = null;
  for (let i = 0; i < log.length; i++) {
    const e = log[i];
    const who = e.seat !== undefined ? seatName(view, e.seat, me) : '';
    let text;
    switch (e.type) {
      case 'deal': text = `Hand ${e.hand} dealt; ${seatName(view, e.leader, me)} ${e.leader === me ? 'lead' : 'leads'}.`; break;
      case 'play':
        lastPlayer = e.seat;
        text = e.end === 'lead' ? `${who} led ${tileText(e.tile)}` : `${who} played ${tileText(e.tile)} ${WHERE[e.end] || e.end}`;
        if (e.points > 0) text += ` and scored ${e.points}`;
        break;
      case 'draw': {
        text = `${who} drew ${e.count}`;
        const next = log[i + 1];
        if (next && next.type === 'pass' && next.seat === e.seat) { text += ' and passed'; i++; }
        break;
      }
      case 'pass': text = `${who} passed`; break;
      case 'redeal': text = `${who} asked for a redeal`; break;
      case 'keep': text = `${who} kept the tiles`; break;
      case 'handEnd': text = handEndText(view, e, me, e.reason === 'domino' ? lastPlayer : null); break;
      case 'away': text = e.reason === 'timeout' ? `${who} ran out of time; the computer plays for ${e.seat === me ? 'you' : 'them'}` : `${who} let the computer play`; break;
      case 'back': text = `${who} ${e.seat === me ? 'are' : 'is'} back`; break;
      case 'matchEnd': {
        const t = teamName(view, e.team, me);
        text = `${t} ${plural(t) ? 'win' : 'wins'} the match!`;
        break;
      }
      default: text = e.type;
    }
    out.push({ seq: e.seq, type: e.type, seat: e.seat, text, at: e.at || null });
  }
  return out;
}

/**
 * announcement is what a screen reader is told when a view arrives: the
 * lines of the events after seq afterSeq, except the reader's own moves
 * (they know those), as sentences. "" when nothing new.
 */
export function announcement(view, me, afterSeq) {
  const own = new Set(['play', 'draw', 'pass', 'redeal', 'keep', 'away', 'back']);
  return describe(view, me)
    .filter((l) => l.seq > afterSeq && !(own.has(l.type) && l.seat === me && me !== null && me !== undefined))
    .map((l) => (/[.!]$/.test(l.text) ? l.text : l.text + '.'))
    .join(' ');
}

/**
 * renderLog shows the newest lines first (at most limit), each with its
 * time ("yesterday 21:40"); lines after seenSeq (what this browser showed
 * last time) are marked new.
 */
export function renderLog(el, view, me, limit = 60, seenSeq = Infinity) {
  const lines = describe(view, me).slice(-limit).reverse();
  el.replaceChildren(...lines.map((l) => {
    const li = document.createElement('li');
    li.className = 'ev-' + l.type;
    li.textContent = l.text;
    // The time and the "new" mark are drawn by the style sheet from these
    // attributes, so the line's text stays the sentence itself.
    if (l.at) li.dataset.at = when(l.at);
    if (l.seq > seenSeq) li.classList.add('new');
    return li;
  }));
}

/** closerOf finds who played the last tile before the handEnd event at index i. */
export function closerOf(log, i) {
  for (let j = i - 1; j >= 0 && log[j].hand === log[i].hand; j--) if (log[j].type === 'play') return log[j].seat;
  return null;
}
