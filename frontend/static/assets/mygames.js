// mygames.js: the games this device has a seat in, kept in localStorage
// under one key: {id: {token, seat, name, summary, savedAt}}. The seat token
// is a secret: it is only ever sent back to our own API in a header.

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
