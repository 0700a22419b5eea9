// clock.js: times in words, for a game's line and its deadline. Pure: the
// caller passes now.

/** ago says how long ago t was: "just now", "5 min ago", "2 h ago", "3 days ago". */
export function ago(t, now = Date.now()) {
  const s = Math.max(0, (now - Date.parse(t)) / 1000);
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  const d = Math.floor(s / 86400);
  return d === 1 ? 'yesterday' : `${d} days ago`;
}

/** left says how long until t: "2 days left", "5 h left", "12 min left". */
export function left(t, now = Date.now()) {
  const s = (Date.parse(t) - now) / 1000;
  if (s <= 0) return 'time is up';
  if (s < 3600) return `${Math.max(1, Math.floor(s / 60))} min left`;
  if (s < 86400) return `${Math.floor(s / 3600)} h left`;
  return `${Math.floor(s / 86400)} days left`;
}

/** when is an event's time as a person says it: "21:40", "yesterday 21:40", "Mon 21:40", "3 Nov 21:40". */
export function when(t, now = Date.now()) {
  const d = new Date(Date.parse(t));
  const n = new Date(now);
  const hm = `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
  const day = (x) => new Date(x.getFullYear(), x.getMonth(), x.getDate()).getTime();
  const days = Math.round((day(n) - day(d)) / 86400000);
  if (days <= 0) return hm;
  if (days === 1) return `yesterday ${hm}`;
  if (days < 7) return `${d.toLocaleDateString('en-GB', { weekday: 'short' })} ${hm}`;
  return `${d.getDate()} ${d.toLocaleDateString('en-GB', { month: 'short' })} ${hm}`;
}
