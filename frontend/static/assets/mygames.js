// mygames.js: what this device remembers of its games, in localStorage:
// {id: {token, seat, name, summary, savedAt}} (the seat token is a secret:
// it is only ever sent back to our own API in a header), and the games the
// player hid from the start page. The list itself is the server's
// (GET /api/me); this keeps seats taken before player keys, and the tokens.

const KEY = 'tessera.games';

export function allGames() {
  try { return JSON.parse(localStorage.getItem(KEY)) || {}; } catch (e) { return {}; }
}

function saveAll(games) {
  try { localStorage.setItem(KEY, JSON.stringify(games)); } catch (e) { /* private mode: the seat lives in this tab only */ }
}

export function getGame(id) { return allGames()[id] || null; }

export function putGame(id, fields) {
  const games = allGames();
  games[id] = { ...(games[id] || {}), ...fields, savedAt: Date.now() };
  saveAll(games);
  return games[id];
}

/**
 * takeFragment keeps a private link's seat token (#seat=<token>) for game
 * id and takes it out of the address bar and the history at once.
 */
export function takeFragment(id) {
  const m = /(?:^#|&)seat=([^&]+)/.exec(location.hash);
  if (m) putGame(id, { token: decodeURIComponent(m[1]) });
  if (location.hash) history.replaceState(null, '', location.pathname + location.search);
}

export function forgetGame(id) {
  const games = allGames();
  delete games[id];
  saveAll(games);
}

/** summarize keeps what the start page lists (no hidden information). */
export function summarize(view) {
  return {
    variant: view.variant,
    status: view.status,
    players: view.seats.map((s) => s.name),
    scores: view.scores,
    teams: view.seats.map((s) => s.team),
    turn: view.hand ? view.hand.turn : null,
    target: view.options.target,
    winner: view.winner,
    updatedAt: view.updatedAt,
  };
}

const HIDDEN = 'tessera.hidden';

/** hiddenGames: the ids hidden from the start page (they stay in /api/me). */
export function hiddenGames() {
  try { return new Set(JSON.parse(localStorage.getItem(HIDDEN)) || []); } catch (e) { return new Set(); }
}

function saveHidden(set) {
  try { localStorage.setItem(HIDDEN, JSON.stringify([...set])); } catch (e) { /* private mode */ }
}

export function hideGame(id) { const s = hiddenGames(); s.add(id); saveHidden(s); }
export function unhideGame(id) { const s = hiddenGames(); s.delete(id); saveHidden(s); }

// RTL: a strong right-to-left character (Hebrew, Arabic, Syriac, Thaana,
// NKo and their presentation forms).
const RTL = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]|\ud802[\udc00-\udfff]|\ud803[\udc00-\udcff]|\ud83a[\udc00-\udfff]|\ud83b[\udc00-\udeff]/;

/**
 * isolate wraps a name that holds right-to-left characters in FIRST STRONG
 * ISOLATE ... POP DIRECTIONAL ISOLATE, so that inside the page's sentences
 * it cannot reorder what is around it ("Bea's turn", "Ana & Carlo win").
 * Other names stay as they are (the characters are invisible, but a name
 * the reader copies should not carry them needlessly). The API refuses
 * names with explicit bidi controls; seat cards isolate with CSS too.
 */
export function isolate(name) {
  return RTL.test(name) ? `\u2068${name}\u2069` : name;
}
