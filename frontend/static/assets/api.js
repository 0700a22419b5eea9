// api.js: every call to the HTTP API (API.md), the ETag poll and its timing.
// Nothing here knows the rules; it moves views between the server and app.js.

import { t, has } from './i18n.js';

/** An answer with an error body: {error: {code, message}} (+ game on 409 stale_version). */
export class ApiError extends Error {
  constructor(status, code, message, game) {
    super(message || code);
    this.status = status;
    this.code = code;
    this.game = game || null;
  }
}

/** NetworkError: no HTTP answer, a 5xx, or 429: worth retrying later. */
export class NetworkError extends Error {}

/** RateLimited: a 429, retried no sooner than retryAfterMs (Retry-After). */
export class RateLimited extends NetworkError {
  constructor(message, retryAfterMs) {
    super(message);
    this.status = 429;
    this.code = 'rate_limited';
    this.retryAfterMs = retryAfterMs;
  }
}

// API Gateway's own bodies ({"message": ...}, docs/deploy.md) are read as
// the API error their status means.
const gatewayCodes = { 400: 'bad_request', 401: 'unauthorized', 404: 'not_found', 405: 'method_not_allowed', 413: 'too_large' };

/**
 * errorText is what the page says of an error, in its language: the
 * sentence for an API error's code (never the server's own message, which
 * is English), else that the server could not be reached.
 */
export function errorText(e) {
  if (e instanceof ApiError && has('error.' + e.code)) return t('error.' + e.code);
  return t(e instanceof ApiError ? 'error.unknown' : 'error.network');
}

/** retryAfterMs reads a Retry-After of seconds (at least 1 s, at most 10 min). */
export function retryAfterMs(header) {
  const s = Number.parseInt(header, 10);
  return Math.min(600, Number.isFinite(s) && s > 0 ? s : 1) * 1000;
}

/** apiError is the error an answer that is not ok means (see call). */
export function apiError(status, data, retryAfter) {
  const own = data && typeof data === 'object' && data.error && typeof data.error.code === 'string';
  const gateway = !own && data && typeof data === 'object' && typeof data.message === 'string';
  if (status === 429) {
    return new RateLimited(own ? data.error.message : 'rate_limited', retryAfterMs(retryAfter));
  }
  if (status >= 500) return new NetworkError('http_' + status);
  if (own) return new ApiError(status, data.error.code, data.error.message, data.game);
  if (gateway && gatewayCodes[status]) return new ApiError(status, gatewayCodes[status], data.message, null);
  return new NetworkError('http_' + status);
}

async function call(method, path, { token, body, etag } = {}) {
  const headers = { Accept: 'application/json' };
  if (token) headers.Authorization = 'Bearer ' + token;
  if (etag) headers['If-None-Match'] = etag;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let res;
  try {
    res = await fetch(path, {
      method, headers, cache: 'no-store', credentials: 'omit',
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    throw new NetworkError(e && e.message ? e.message : 'network error');
  }
  if (res.status === 304) return { status: 304, etag };
  if (res.status === 204) return { status: 204, data: null };
  let data = null;
  try { data = await res.json(); } catch (e) { data = null; }
  if (res.ok) return { status: res.status, data, etag: res.headers.get('ETag') };
  // 5xx and 429 (rate_limited) are passing trouble: retried with back-off.
  throw apiError(res.status, data, res.headers.get('Retry-After'));
}

/** createGame(request) -> {game, seat, token} */
export async function createGame(request) {
  return (await call('POST', '/api/games', { body: request })).data;
}

/** joinGame(id, name, seat?, key?) -> {game, seat, token}; a key that holds a seat already gets it back (200). */
export async function joinGame(id, name, seat, key) {
  const body = { name };
  if (seat !== undefined && seat !== null) body.seat = seat;
  if (key) body.key = key;
  return (await call('POST', `/api/games/${encodeURIComponent(id)}/seats`, { body })).data;
}

/** rematch(id, token) -> {game, seat, token}: the next match of a finished game (made once, for everyone). */
export async function rematch(id, token) {
  return (await call('POST', `/api/games/${encodeURIComponent(id)}/rematch`, { token, body: {} })).data;
}

/** myGames(key) -> {games: [...]}: the key's games, most recently updated first (GET /api/me). */
export async function myGames(key) {
  return (await call('GET', '/api/me', { token: key })).data;
}

/** vacation(key, days) takes days of vacation; without days it ends one. -> the private profile. */
export async function vacation(key, days) {
  return (await call(days ? 'POST' : 'DELETE', '/api/me/vacation', { token: key, body: days ? { days } : {} })).data;
}

/** pushKey() -> the VAPID public key, or null when the server sends no pushes (404). */
export async function pushKey() {
  try {
    return (await call('GET', '/api/push')).data.publicKey;
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return null;
    throw e;
  }
}

/** putDevice(key, subscription): this device hears of the key's games. */
export async function putDevice(key, subscription) {
  await call('PUT', '/api/me/push', { token: key, body: subscription });
}

/** deleteDevice(key, endpoint): it no longer does. */
export async function deleteDevice(key, endpoint) {
  await call('DELETE', '/api/me/push', { token: key, body: { endpoint } });
}

/** readGame(id, token, etag) -> {status: 200, data: view, etag} or {status: 304}. */
export function readGame(id, token, etag) {
  return call('GET', `/api/games/${encodeURIComponent(id)}`, { token, etag });
}

/** newMoveId returns a fresh id for one intended move (kept across its retries). */
export function newMoveId() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * sendMove posts a move, retrying network errors with its moveId (1, 2, 4
 * … 30 s) -> {status, data: the new view, etag: its ETag}, the ETag a poll of the
 * same seat and version would answer (so the next poll can be a 304).
 */
export async function sendMove(id, token, move, onRetry) {
  const body = { ...move, moveId: move.moveId || newMoveId() };
  for (let attempt = 1; ; attempt++) {
    try {
      return await call('POST', `/api/games/${encodeURIComponent(id)}/moves`, { token, body });
    } catch (e) {
      if (!(e instanceof NetworkError) || attempt >= 8) throw e;
      const delay = Math.max(e.retryAfterMs || 0, Math.min(30000, 1000 * 2 ** (attempt - 1)));
      if (onRetry) onRetry(attempt, delay);
      await sleep(delay);
    }
  }
}

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;

/**
 * nextPlay: 'pushed' when the seat before ours plays and, whatever it plays
 * (a tile not on the board nor ours), we can answer: the turn push brings it.
 * Else 'near' (the seat before ours plays), 'far' or null.
 */
export function nextPlay(view) {
  const h = view && view.hand, you = view && view.you;
  if (!h || !you || view.status !== 'playing' || h.phase !== 'play' || h.turn == null) return null;
  if ((h.turn + 1) % view.seats.length !== you.seat) return 'far';
  return you.answers ? 'pushed' : 'near'; // the server's promise (you.answers): the page reasons about no tile
}

/**
 * pollDelay: the wait before the next poll (docs/frontend.md, "Polling").
 * idleMs: since the view last changed; gapMs: between the two changes
 * before; push: this device gets the game's pushes; next: nextPlay(view).
 */
export function pollDelay(s) {
  const d = delayOf(s);
  // The table talk open on a page in view: a friend's answer shows soon,
  // after the match too (its last words; closed, the page stops polling).
  return s.talking && s.visible ? Math.min(d || TALK_POLL, TALK_POLL) : d;
}

const TALK_POLL = 3 * SECOND;

/** WATCHED_POLL: a watched page's safety net (every move is pushed to it with its view). */
export const WATCHED_POLL = 30 * MINUTE;

function delayOf({ visible, waiting, finished, idleMs, gapMs = 0, push, next, watched }) {
  if (finished) return 0; // 0: stop polling
  if (!visible && push) return 0; // the push wakes the page (sw.js), and showing it polls at once
  if (push && watched) return WATCHED_POLL; // every move comes by push, with the view (watch.js)
  const live = idleMs < MINUTE && (!push || gapMs < 2 * MINUTE);
  let d = live ? 2 * SECOND // a friend's move shows within a poll
    : idleMs < 3 * MINUTE ? 10 * SECOND : idleMs < 15 * MINUTE ? 30 * SECOND : idleMs < 60 * MINUTE ? 2 * MINUTE : 5 * MINUTE;
  if (!push) return Math.max(d, waiting && visible ? 0 : 30 * SECOND); // our turn: only our other devices (or a clock) change it
  // Nothing live: our turn comes by push, which wakes the page, and so do
  // focus, visibility and coming online; between them the page shows the
  // others' moves at a poll every 15 minutes (docs/frontend.md, "Polling").
  if (!live) return 15 * MINUTE;
  if (!waiting) return Math.max(d, MINUTE); // our turn comes by push, and so do clocks
  return next === 'pushed' ? 30 * SECOND : next === 'near' ? d : 10 * SECOND; // 30 s: in case a push is lost
}

/** errorDelay backs off after failed polls: 2, 4, 8 … 60 s. */
export function errorDelay(failures) {
  return Math.min(60 * SECOND, 2 * SECOND * 2 ** Math.max(0, failures - 1));
}

/** myTurn: the view's seat must act (play, draw, pass or confirm). */
export function myTurn(view) {
  return !!(view && view.you && view.hand &&
    ((view.hand.phase === 'play' && view.hand.turn === view.you.seat) || view.you.confirm));
}

/** pollState is what a game page tells its Poller of its view (state()). */
export function pollState(view, { push, talking, watched }) {
  return { waiting: !myTurn(view), finished: !!view && view.status === 'finished', push, next: nextPlay(view), talking, watched };
}

// The page's clock, timers, reads and visibility; a model of the page
// (browsertest/perf/cost-model.mjs) gives its own on a fake clock.
// (setTimeout called as another object's method is an "Illegal invocation".)
const pageEnv = { now: Date.now, setTimer: (f, d) => setTimeout(f, d), clearTimer: (h) => clearTimeout(h), read: readGame, hidden: () => document.hidden };

/**
 * Poller keeps one game fresh: onView(view), onError(err, failures),
 * state() (pollState). env: in place of pageEnv (a model's fake clock).
 */
export class Poller {
  constructor(id, { token, onView, onError, state, env }) {
    this.id = id;
    this.token = token;
    this.onView = onView;
    this.onError = onError;
    this.state = state;
    this.env = env || pageEnv;
    this.etag = null;
    this.timer = null;
    this.failures = 0;
    this.changedAt = this.env.now();
    this.gap = Infinity; // between the last two changes seen
    this.busy = false;
    this.again = false;
    this.stopped = false;
    this.polledAt = 0;
  }

  setToken(token) { this.token = token; this.etag = null; }

  /**
   * moved tells the poller its page's move answered a new view with its
   * ETag: the next poll asks for anything newer (a 304 until then) and is
   * timed again (the turn has moved on).
   */
  moved(etag) {
    this.etag = etag || null;
    this.changed();
    this.schedule();
  }

  /**
   * got: a view came with a push (a watched page): shown as a poll's
   * answer would be, with its ETag; the next poll is timed again.
   */
  got(view, etag) {
    if (this.stopped) return;
    this.onView(view);
    this.moved(etag);
  }

  changed() {
    const now = this.env.now();
    this.gap = now - this.changedAt;
    this.changedAt = now;
  }

  /** now polls at once (focus, visibility, a user action); fresh: without ETag (a newer version exists). */
  now(fresh) {
    if (this.stopped) return;
    if (fresh) this.fresh = true;
    this.env.clearTimer(this.timer);
    this.timer = null;
    if (this.busy) { this.again = true; return; }
    this.tick();
  }

  /**
   * wake polls at once, unless a poll is on its way (its answer will do)
   * or one ended under two seconds ago: then the next poll comes two
   * seconds after that one, if none was due sooner. Focus and visibility
   * events come in bursts, the first one often while the page's own first
   * GET is still on its way.
   */
  wake() {
    if (this.stopped || this.busy) return;
    const now = this.env.now();
    if (now - this.polledAt >= 2 * SECOND) { this.now(); return; }
    const at = this.polledAt + 2 * SECOND;
    if (this.timer && this.dueAt <= at) return;
    this.later(at - now, now);
  }

  /** later polls d ms after now (one reading of the clock: dueAt is exact). */
  later(d, now = this.env.now()) {
    this.env.clearTimer(this.timer);
    this.dueAt = now + d;
    this.timer = this.env.setTimer(() => { this.timer = null; this.tick(); }, d);
  }

  stop() { this.stopped = true; this.env.clearTimer(this.timer); }

  async tick() {
    this.busy = true;
    try {
      const tag = this.fresh ? null : this.etag;
      this.fresh = false;
      const r = await this.env.read(this.id, this.token, tag);
      this.polledAt = this.env.now();
      if (this.failures) { this.failures = 0; this.onError(null, 0); }
      if (r.status !== 304) {
        this.etag = r.etag;
        this.changed();
        this.onView(r.data);
      }
    } catch (e) {
      if (e instanceof NetworkError) {
        this.failures++;
        this.retryAfter = e.retryAfterMs || 0;
        this.onError(e, this.failures);
      } else {
        this.onError(e, -1);
        this.busy = false;
        return; // 401/404: the page decides what to do
      }
    }
    this.busy = false;
    if (this.again) { this.again = false; this.tick(); return; }
    this.schedule();
  }

  schedule() {
    if (this.stopped) return;
    this.env.clearTimer(this.timer);
    const s = this.state();
    let d = this.failures
      ? Math.max(errorDelay(this.failures), this.retryAfter || 0)
      : pollDelay({ ...s, visible: !this.env.hidden(), idleMs: this.env.now() - this.changedAt, gapMs: this.gap });
    if (d === 0) return;
    this.later(d);
  }
}

/** lobby({variant, rated}, key) -> {games, tournaments}: the room's open tables (GET /api/lobby); with the key, none of a player it is kept apart from. */
export async function lobby(filter = {}, key) {
  const q = new URLSearchParams();
  if (filter.variant) q.set('variant', filter.variant);
  if (filter.rated !== undefined && filter.rated !== '') q.set('rated', String(filter.rated));
  const s = q.toString();
  return (await call('GET', '/api/lobby' + (s ? '?' + s : ''), { token: key })).data;
}

/** leaderboard(pool) -> {pool, players}. */
export async function leaderboard(pool) {
  return (await call('GET', `/api/leaderboard/${encodeURIComponent(pool)}`)).data;
}

/** playerProfile(id) -> a player's public profile (GET /api/players/{id}). */
export async function playerProfile(id) {
  return (await call('GET', `/api/players/${encodeURIComponent(id)}`)).data;
}

/** createLeague(key, name, variant, hints) -> {league, invite}; hints: its games' seats may ask for hints (docs/hints.md). */
export async function createLeague(key, name, variant, hints) {
  return (await call('POST', '/api/leagues', { token: key, body: { name, variant, hints: !!hints } })).data;
}

/** joinLeague(key, id, invite) -> {league}. */
export async function joinLeague(key, id, invite) {
  return (await call('POST', `/api/leagues/${encodeURIComponent(id)}/members`, { token: key, body: { invite } })).data;
}

/** getLeague(key, id, season?) -> the league as its member sees it. */
export async function getLeague(key, id, season) {
  const q = season ? '?season=' + encodeURIComponent(season) : '';
  return (await call('GET', `/api/leagues/${encodeURIComponent(id)}${q}`, { token: key })).data;
}

/** previewLeague(id, invite) -> the league as its invite shows it to a visitor (name, adminName, memberCount). */
export async function previewLeague(id, invite) {
  return (await call('GET', `/api/leagues/${encodeURIComponent(id)}?invite=${encodeURIComponent(invite)}`)).data;
}

/** newInvite(key, id) -> {invite}: the admin's new invite (the old one stops working). */
export async function newInvite(key, id) {
  return (await call('POST', `/api/leagues/${encodeURIComponent(id)}/invite`, { token: key, body: {} })).data;
}

/** removeMember(key, id, player): the admin takes a member out. */
export async function removeMember(key, id, player) {
  await call('DELETE', `/api/leagues/${encodeURIComponent(id)}/members/${encodeURIComponent(player)}`, { token: key });
}

/** putProfile(key, name) -> the key's private profile, named name from now on. */
export async function putProfile(key, name) {
  return (await call('PUT', '/api/me/profile', { token: key, body: { name } })).data;
}

/** createTournament(key, request) -> {tournament, invite}. */
export async function createTournament(key, request) {
  return (await call('POST', '/api/tournaments', { token: key, body: request })).data;
}

/** getTournament(id) -> the tournament (no key needed). */
export async function getTournament(id) {
  return (await call('GET', `/api/tournaments/${encodeURIComponent(id)}`)).data;
}

/** enterTournament(key, id, invite?) -> {tournament}; withdraw with leave = true. */
export async function enterTournament(key, id, invite, leave) {
  const body = invite ? { invite } : {};
  return (await call(leave ? 'DELETE' : 'POST', `/api/tournaments/${encodeURIComponent(id)}/entries`, { token: key, body })).data;
}

/** startTournament(key, id) -> {tournament}: its creator starts round 1. */
export async function startTournament(key, id) {
  return (await call('POST', `/api/tournaments/${encodeURIComponent(id)}/start`, { token: key, body: {} })).data;
}

/** setListed(key, kind 'mutes'|'blocks', player, on) -> the key's private profile (docs/blocking.md). */
export async function setListed(key, kind, player, on) {
  return (await call(on ? 'PUT' : 'DELETE', `/api/me/${kind}/${encodeURIComponent(player)}`, { token: key })).data;
}

/** fileReport(key, {player, what, game?, seq?, note?}) -> {report} (docs/moderation.md). */
export async function fileReport(key, body) {
  return (await call('POST', '/api/reports', { token: key, body })).data;
}

/** exportMe(key) -> everything kept about the key (docs/forgetting.md). */
export async function exportMe(key) {
  return (await call('GET', '/api/me/export', { token: key })).data;
}

/** forgetMe(key): everything kept about the key goes (docs/forgetting.md). */
export async function forgetMe(key) {
  await call('DELETE', '/api/me', { token: key });
}
