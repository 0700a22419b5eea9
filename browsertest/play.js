// play.js: what a player does on the page, step by step, through the UI
// only (clicks, form fields, keys). Shared by the browser tests.

'use strict';

/** createGame fills the start page form and lands on the game page. */
async function createGame(page, url, { variant = 'fiveup', players, pairs, redeal, target, name, seats = [] }) {
  await page.goto(url + '/');
  await page.check(`input[name=variant][value=${variant}]`);
  if (players) await page.selectOption('select[name=players]', String(players));
  if (pairs !== undefined) await page.setChecked('input[name=pairs]', pairs);
  if (redeal !== undefined) await page.setChecked('input[name=redeal]', redeal);
  if (target) await page.fill('input[name=target]', String(target));
  await page.fill('input[name=name]', name);
  for (let i = 0; i < seats.length; i++) await page.selectOption(`select[name=seat${i + 1}]`, seats[i]);
  await Promise.all([page.waitForURL(/\/g\/[^/]+$/), page.click('#create button[type=submit]')]);
  await page.waitForSelector('body[data-version]');
  return page.url().split('/g/')[1];
}

/** joinGame opens the invite link and takes a seat with the join form. */
async function joinGame(page, inviteURL, name) {
  await page.goto(inviteURL);
  await page.waitForSelector('#join:not([hidden])');
  // The panel's words are in the page's second catalog (build.mjs: join.,
  // invite.): it can show a moment before them.
  await page.waitForFunction(() => document.querySelector('#join-what').textContent !== '');
  const what = await page.textContent('#join-what');
  if (!/ invited you to (Five Up|Partnership): \d players/.test(what)) throw new Error(`the join panel does not say who invited you to what: "${what}"`);
  // Who sits there and the clock, before sitting down (issue 26).
  await page.waitForFunction(() => document.querySelector('#join-who').textContent !== '');
  const who = await page.textContent('#join-who');
  if (!/^At the table: .+ · (no clock|\d+ (day|hour|minute)s? a move)$/.test(who)) throw new Error(`the join panel does not say who sits there and the clock: "${who}"`);
  // It takes the visitor's hand's place: it covers no part of the table.
  const [panel, board] = await Promise.all([page.locator('#join').boundingBox(), page.locator('#board').boundingBox()]);
  if (panel && board && panel.y < board.y + board.height && board.y < panel.y + panel.height && panel.x < board.x + board.width && board.x < panel.x + panel.width) {
    throw new Error(`the join panel covers the board: ${JSON.stringify({ panel, board })}`);
  }
  await page.fill('#join-form input[name=name]', name);
  await page.click('#join-form button[type=submit]');
  await page.waitForSelector('#join', { state: 'hidden' });
}

const state = (page) => page.evaluate(() => ({
  status: document.body.dataset.status || '',
  turn: document.body.dataset.turn || '',
  version: Number(document.body.dataset.version || 0),
}));

/**
 * act makes one decision if the page offers one: closes a hand summary,
 * answers a redeal question (keep), or clicks a playable tile and, when the
 * tile fits more than one end, the first glowing end. Returns what it did.
 * With { keepSummary: true } an open summary is left open ('summary'): for
 * a test that looks at it, and would miss one that opened between its own
 * look and this call.
 */
async function act(page, { keepSummary = false } = {}) {
  if (await page.isVisible('#summary')) {
    const s = await state(page);
    if (s.status === 'finished') return 'finished';
    if (keepSummary) return 'summary';
    await page.click('#summary-close');
    return 'closed summary';
  }
  if (await page.isVisible('#confirm')) {
    const before = (await state(page)).version;
    await page.click('#keep-btn');
    await waitVersionAbove(page, before);
    return 'kept';
  }
  const s = await state(page);
  if (s.turn !== 'mine') return '';
  const tile = page.locator('.hand-tile.playable').first();
  if (!(await tile.count())) return '';
  const before = s.version;
  await tile.click();
  const target = page.locator('.end-target').first();
  if (await target.count()) await target.click();
  await waitVersionAbove(page, before);
  return 'played';
}

async function waitVersionAbove(page, v, timeout = 15000) {
  try {
    await page.waitForFunction((v) => Number(document.body.dataset.version) > v, v, { timeout });
  } catch (e) {
    const why = await page.evaluate(() => ({
      prompt: document.querySelector('#prompt')?.textContent,
      banner: document.querySelector('#banner')?.hidden ? '' : document.querySelector('#banner')?.textContent,
      status: document.querySelector('#status')?.textContent,
      selected: document.querySelector('.hand-tile.selected')?.getAttribute('aria-label'),
      targets: document.querySelectorAll('.end-target').length,
    }));
    throw new Error(`the game did not move past version ${v}: ${JSON.stringify(why)}`);
  }
}

/**
 * playToEnd lets every page act whenever it may until all of them show a
 * finished match (or stop(pages) says enough). Polling brings each page the
 * others' moves.
 */
async function playToEnd(pages, { maxSteps = 2000, stop } = {}) {
  for (let step = 0; step < maxSteps; step++) {
    let did = false;
    for (const p of pages) if (await act(p)) did = true;
    const states = await Promise.all(pages.map(state));
    if (states.every((s) => s.status === 'finished')) return states;
    if (stop && (await stop(pages))) return states;
    if (!did) await pages[0].waitForTimeout(250);
  }
  throw new Error('the match did not end');
}

/**
 * finishByAPI plays the rest of the match of pages' game through the API
 * (each page's own seat token, from its localStorage; the first legal
 * play, "keep" to a redeal question) and returns once every page shows it
 * finished. For tests whose page checks come before the end: a page learns
 * each of the other's moves by a poll, 2 s apart, which made a whole match
 * played by clicks a minute long.
 */
async function finishByAPI(pages, { maxMoves = 2000, timeout = 30000 } = {}) {
  const seats = await Promise.all(pages.map((p) => p.evaluate(() => {
    const id = location.pathname.split('/')[2];
    return { id, token: JSON.parse(localStorage.getItem('tessera.games'))[id].token };
  })));
  const base = new URL(pages[0].url()).origin;
  const headers = (token) => ({ Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' });
  let finished = false;
  for (let n = 0; n < maxMoves && !finished; n++) {
    for (const { id, token } of seats) {
      const v = await (await fetch(`${base}/api/games/${id}`, { headers: headers(token) })).json();
      if (v.status === 'finished') { finished = true; break; }
      const move = v.you.confirm ? { type: 'keep' } : v.you.legal.length ? { type: 'play', ...v.you.legal[0] } : null;
      if (!move) continue;
      const r = await fetch(`${base}/api/games/${id}/moves`, {
        method: 'POST', headers: headers(token),
        body: JSON.stringify({ version: v.version, moveId: `finish-${n}-${v.version}`, ...move }),
      });
      if (!r.ok && r.status !== 409) throw new Error(`move ${JSON.stringify(move)}: ${r.status} ${await r.text()}`);
    }
  }
  if (!finished) throw new Error('the match did not end');
  // A page whose turn it was polls every 30 s (only the seat's other
  // devices change it): a focus, as when its player comes back, polls now.
  for (const p of pages) await p.evaluate(() => window.dispatchEvent(new Event('focus')));
  for (const p of pages) await p.waitForFunction(() => document.body.dataset.status === 'finished', null, { timeout });
  return Promise.all(pages.map(state));
}

/**
 * apiPlayOne: through the API (api is h.apiOf(env)), the seat of tokens (seat
 * tokens or player keys) that must play plays its first legal tile (or
 * keeps the deal when asked about a redeal, as a deal rich in doubles
 * asks); it returns the new view. For tests that need hands played, not
 * clicked.
 */
async function apiPlayOne(api, id, tokens) {
  const views = await Promise.all(tokens.map((t) => api('GET', `/api/games/${id}`, null, t)));
  const asked = views.find((x) => x.you && x.you.confirm);
  if (asked) return api('POST', `/api/games/${id}/moves`, { version: asked.version, type: 'keep' }, tokens[asked.you.seat]);
  const v = views.find((x) => x.hand && x.hand.turn === x.you.seat && x.you.legal.length);
  if (!v) throw new Error(`no seat of game ${id} can play`);
  const m = v.you.legal[0];
  return api('POST', `/api/games/${id}/moves`, { version: v.version, type: 'play', tile: m.tile, end: m.end }, tokens[v.you.seat]);
}

/** apiPlayUntil plays with apiPlayOne until done(view), at most max plays, and returns the last view. */
async function apiPlayUntil(api, id, tokens, done, max = 60) {
  let v = await api('GET', `/api/games/${id}`);
  for (let n = 0; n < max && !done(v); n++) v = await apiPlayOne(api, id, tokens);
  return v;
}

/**
 * nudge tells page that the game moved to version, as another tab of the
 * same browser does after its move (app.js listens on the BroadcastChannel
 * "tessera" and polls at once): for tests whose other player moves through
 * the API and that are not about polling (api.test's poll timing and the
 * two-friends tests are).
 */
async function nudge(page, version) {
  await page.evaluate((v) => {
    const c = new BroadcastChannel('tessera');
    c.postMessage({ id: decodeURIComponent(location.pathname.split('/')[2]), version: v });
    c.close();
  }, version);
}

/** boardTiles counts the tiles drawn on the layout. */
const boardTiles = (page) => page.locator('#board .layout > .tile').count();

/**
 * playOut plays game id to its end through api (harness apiOf) with its
 * players' keys (a key is its seat's token): each turn's first legal play,
 * or keep; the finished view.
 */
async function playOut(api, id, keys) {
  for (let n = 0; n < 3000; n++) {
    const v = await api('GET', `/api/games/${id}`);
    if (v.status === 'finished') return v;
    for (const k of keys) {
      const w = await api('GET', `/api/games/${id}`, null, k);
      const move = w.you.confirm ? { type: 'keep' } : w.you.legal.length ? { type: 'play', ...w.you.legal[0] } : null;
      if (move) { await api('POST', `/api/games/${id}/moves`, { version: w.version, ...move }, k); break; }
    }
  }
  throw new Error('the game did not end');
}

module.exports = { createGame, joinGame, act, state, playToEnd, finishByAPI, apiPlayOne, apiPlayUntil, nudge, waitVersionAbove, boardTiles, playOut };
