// log.js: the public log in plain words ("Bea played 6–2 on the right and
// scored 10", "Carlo drew 2 and passed"), in the page's language.

import { when, moveTimeText } from './clock.js';
import { tileText } from './render.js';
import { isolate } from './mygames.js';
import { RULES, ruleTitle } from './rules.js';
import { t, has } from './i18n.js';

export { isolate };

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

/** storyDeps: what story.js's make needs (the log's lines, a chunk). */
export const storyDeps = () => ({ t, say, seatPerson, seatName, teamName, person, handEndText, tileText, when });

/** inviteDeps: what invite.js's inviteText needs (the join form's lines, in a chunk). */
export const inviteDeps = () => ({ t, isolate, RULES, ruleTitle, moveTimeText });

/** closerOf finds who played the last tile before the handEnd event at index i. */
export function closerOf(log, i) {
  for (let j = i - 1; j >= 0 && log[j].hand === log[i].hand; j--) if (log[j].type === 'play') return log[j].seat;
  return null;
}
