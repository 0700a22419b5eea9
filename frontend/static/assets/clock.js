// clock.js: times in words, for a game's line and its deadline, in the
// page's language through Intl (i18n.js). Pure: the caller passes now.

import { t, currentLang } from './i18n.js';

/** locale: the page's language as dates are written (English: day before month). */
const locale = () => (currentLang() === 'en' ? 'en-GB' : currentLang());

/** ago says how long ago t was: "just now", "5 minutes ago", "2 hours ago", "yesterday", "3 days ago". */
export function ago(t0, now = Date.now()) {
  const s = Math.max(0, (now - Date.parse(t0)) / 1000);
  if (s < 60) return t('time.justNow');
  const rtf = new Intl.RelativeTimeFormat(locale(), { numeric: 'auto' });
  if (s < 3600) return rtf.format(-Math.floor(s / 60), 'minute');
  if (s < 86400) return rtf.format(-Math.floor(s / 3600), 'hour');
  return rtf.format(-Math.floor(s / 86400), 'day');
}

/**
 * left says how long until t: "2 days left", "5 h left", "40 min left",
 * and in the last two minutes "45 s left" (a one-minute clock counts
 * seconds).
 */
export function left(t0, now = Date.now()) {
  const s = (Date.parse(t0) - now) / 1000;
  if (s <= 0) return t('time.up');
  if (s < 120) return t('time.leftSec', { n: Math.ceil(s) });
  if (s < 3600) return t('time.leftMin', { n: Math.floor(s / 60) });
  if (s < 86400) return t('time.leftHours', { n: Math.floor(s / 3600) });
  return t('time.leftDays', { n: Math.floor(s / 86400) });
}

/** when is an event's time as a person says it: "21:40", "yesterday 21:40", "Mon 21:40", "3 Nov 21:40". */
export function when(t0, now = Date.now()) {
  const d = new Date(Date.parse(t0));
  const n = new Date(now);
  const hm = new Intl.DateTimeFormat(locale(), { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(d);
  const day = (x) => new Date(x.getFullYear(), x.getMonth(), x.getDate()).getTime();
  const days = Math.round((day(n) - day(d)) / 86400000);
  if (days <= 0) return hm;
  if (days === 1) return `${new Intl.RelativeTimeFormat(locale(), { numeric: 'auto' }).format(-1, 'day')} ${hm}`;
  if (days < 7) return `${new Intl.DateTimeFormat(locale(), { weekday: 'short' }).format(d)} ${hm}`;
  return `${new Intl.DateTimeFormat(locale(), { day: 'numeric', month: 'short' }).format(d)} ${hm}`;
}

/** day is a date as a person says it: "5 Dec", "5 dic". */
export function day(t0) {
  return new Intl.DateTimeFormat(locale(), { day: 'numeric', month: 'short' }).format(new Date(Date.parse(t0)));
}

/**
 * urgent: a deadline whose last tenth of moveTime (seconds) has come, or
 * that is under an hour away.
 */
export function urgent(t0, moveTime, now = Date.now()) {
  const s = (Date.parse(t0) - now) / 1000;
  return s < 3600 || (moveTime > 0 && s < moveTime / 10);
}

/** countdown is a deadline as the seat shows it: {text, urgent}. */
export function countdown(t0, moveTime, now = Date.now()) {
  const u = urgent(t0, moveTime, now);
  const text = left(t0, now);
  return { text: u && Date.parse(t0) > now ? t('time.hurry', { left: text }) : text, urgent: u };
}

/** nextTick: ms until a deadline's text may change (every second in its last two minutes). */
export function nextTick(t0, now = Date.now()) {
  const s = (Date.parse(t0) - now) / 1000;
  if (s <= 0) return Infinity;
  if (s < 120) return 1000;
  return Math.min(30000, ((s % 60) || 60) * 1000 + 50);
}

/** moveTimeText is a game's clock: "1 day a move", "4 hours a move", "1 minute a move", "no clock". */
export function moveTimeText(seconds) {
  if (!seconds) return t('moveTime.none');
  if (seconds % 86400 === 0) return t('moveTime.days', { n: seconds / 86400 });
  if (seconds >= 3600) return t('moveTime.hours', { n: Math.round(seconds / 3600) });
  return t('moveTime.minutes', { n: Math.max(1, Math.round(seconds / 60)) });
}
