// log.js: the public log in plain words ("Bea played 6–2 on the right and
// scored 10", "Carlo drew 2 and passed"), in the page's language.

import { when, moveTimeText } from './clock.js';
import { tileText } from './render.js';
import { isolate } from './mygames.js';
import { RULES, ruleTitle } from './rules.js';
import { t, has } from './i18n.js';

export { isolate };

/** invitation: "Ana invited you to Five Up: 3 players, to 250." */
export function invitation(view) {
  const host = view.seats[0] && view.seats[0].name && isolate(view.seats[0].name);
  const o = view.options;
  const how = t(o.pairs && (RULES[view.variant] || {}).pairs ? 'invite.howPairs' : 'invite.how', { game: ruleTitle(view.variant), n: o.players, target: o.target });
  return host ? t('invite.by', { host, how }) : t('invite.anon', { how });
}

/** seated: who sits at an open table, and its clock: "At the table: Ana, Otto (computer) · 1 day a move". */
export function seated(view) {
  const names = view.seats.filter((s) => s.taken).map((s) => (s.bot ? t('invite.bot', { name: isolate(s.name) }) : isolate(s.name)));
  return t('invite.seated', { names: names.join(', '), clock: moveTimeText(view.options.moveTime) });
}

/** count: "1 pip", "2 pips"; "1 point", "0 points" (word: pip or point). */
export function count(n, word) { return t('count.' + word, { n }); }

/** seatName: the seat's name, "You" for the reader's own seat. */
export function seatName(view, seat, me) {
  if (seat === me && me !== null && me !== undefined) return t('who.you');
  const s = view.seats[seat];
  return s && s.name ? isolate(s.name) : t('seat.n', { n: seat + 1 });
}

/** teamName: a pair as "Ana & Carlo"; in individual play the player's name. */
export function teamName(view, team, me) {
  const names = view.seats.filter((s) => s.team === team).map((s) => seatName(view, s.seat, me));
  return names.length ? names.join(t('team.join')) : t('team.n', { n: team + 1 });
}

/**
 * person says how a sentence speaks of a team: "you" (the reader alone),
 * "we" (the reader's pair), "many" (another pair), "one" (another player).
 * Italian conjugates all four apart; English "you", "we" and "many" alike.
 */
export function person(view, team, me) {
  const seats = view.seats.filter((s) => s.team === team).map((s) => s.seat);
  const mine = me !== null && me !== undefined && seats.includes(me);
  if (mine) return seats.length > 1 ? 'we' : 'you';
  return seats.length > 1 ? 'many' : 'one';
}

/** seatPerson: "you" for the reader's seat, else "one". */
export const seatPerson = (seat, me) => (seat === me && me !== null && me !== undefined ? 'you' : 'one');

/** say is key's text for a subject's person: key.you, key.we, key.many, else key. */
export function say(key, who, params) {
  return t(has(`${key}.${who}`) ? `${key}.${who}` : key, params);
}

/** handEndText explains a hand's result in one sentence. */
export function handEndText(view, e, me, closer) {
  const hasTeam = !(e.team === null || e.team === undefined);
  const who = hasTeam ? teamName(view, e.team, me) : null;
  const p = hasTeam ? person(view, e.team, me) : 'one';
  switch (e.reason) {
    case 'domino': {
      const known = closer !== null && closer !== undefined;
      const out = known ? seatName(view, closer, me) : who;
      const outP = known ? seatPerson(closer, me) : p;
      return `${say('end.domino', outP, { hand: e.hand, out })} ${say('end.scores', p, { who, n: e.points })}`;
    }
    case 'blocked':
      if (!who) return t('end.blockedTie', { hand: e.hand });
      return say('end.blocked', p, { hand: e.hand, who, n: e.points });
    case 'target':
      return t('end.target', { hand: e.hand });
    default:
      return t('end.over', { hand: e.hand });
  }
}

/**
 * awayAtStart: for each seat, whether the computer was playing for it when
 * the view's log begins (its first away/back event there is a back, or it
 * has none and is away now).
 */
function awayAtStart(view) {
  const first = {};
  for (const e of view.log || []) if ((e.type === 'away' || e.type === 'back') && !(e.seat in first)) first[e.seat] = e.type;
  return view.seats.map((s) => (s.seat in first ? first[s.seat] === 'back' : !!s.away));
}

/**
 * describe turns the log into plain lines, newest last. A draw followed by a
 * pass of the same seat becomes one line.
 */
export function describe(view, me) {
  const out = [];
  const log = view.log || [];
  let lastPlayer = null;
  const away = awayAtStart(view);
  for (let i = 0; i < log.length; i++) {
    const e = log[i];
    // The computer's moves for an away seat are told as the computer's:
    // "The computer played 5–5 on the left for you".
    const bot = e.seat !== undefined && away[e.seat] && ['play', 'draw', 'pass'].includes(e.type);
    const p = bot ? 'one' : e.seat !== undefined ? seatPerson(e.seat, me) : 'one';
    const who = bot ? t('who.computer') : e.seat !== undefined ? seatName(view, e.seat, me) : '';
    if (e.type === 'away') away[e.seat] = true;
    if (e.type === 'back') away[e.seat] = false;
    let text;
    switch (e.type) {
      case 'deal': text = say('log.deal', seatPerson(e.leader, me), { hand: e.hand, name: seatName(view, e.leader, me) }); break;
      case 'play': {
        lastPlayer = e.seat;
        const scored = e.points > 0 ? '.scored' : '';
        text = e.end === 'lead' ? say('log.lead' + scored, p, { name: who, tile: tileText(e.tile), n: e.points })
          : say('log.play' + scored, p, { name: who, tile: tileText(e.tile), where: t('where.' + e.end), n: e.points });
        break;
      }
      case 'draw': {
        const next = log[i + 1];
        const passed = next && next.type === 'pass' && next.seat === e.seat;
        text = say(passed ? 'log.drawPass' : 'log.draw', p, { name: who, n: e.count });
        if (passed) i++;
        break;
      }
      case 'pass': text = say('log.pass', p, { name: who }); break;
      case 'redeal': text = say('log.redeal', p, { name: who }); break;
      case 'keep': text = say('log.keep', p, { name: who }); break;
      case 'handEnd': text = handEndText(view, e, me, e.reason === 'domino' ? lastPlayer : null); break;
      case 'away': text = say(e.reason === 'timeout' ? 'log.timeout' : 'log.away', p, { name: who }); break;
      case 'back': text = say('log.back', p, { name: who }); break;
      case 'matchEnd': text = say('log.matchEnd', person(view, e.team, me), { team: teamName(view, e.team, me) }); break;
      default: text = e.type;
    }
    if (bot) text += seatPerson(e.seat, me) === 'you' ? t('log.forYou') : t('log.for', { name: seatName(view, e.seat, me) });
    // mine: the reader did it (not the computer for them): never "new".
    out.push({ seq: e.seq, type: e.type, seat: e.seat, text, at: e.at || null, mine: !bot && e.seat !== undefined && seatPerson(e.seat, me) === 'you' });
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
    li.dataset.seq = l.seq; // where a hint asked goes (coach.js)
    // The time and the "new" mark are drawn by the style sheet from these
    // attributes, so the line's text stays the sentence itself.
    if (l.at) li.dataset.at = when(l.at);
    if (l.seq > seenSeq && !l.mine) { li.classList.add('new'); li.dataset.new = t('log.new'); }
    return li;
  }));
}

/** closerOf finds who played the last tile before the handEnd event at index i. */
export function closerOf(log, i) {
  for (let j = i - 1; j >= 0 && log[j].hand === log[i].hand; j--) if (log[j].type === 'play') return log[j].seat;
  return null;
}
