// A two-person game with a one-minute clock, in Chromium against the local
// server (a test build: its clock moves when POST /api/__test/clock says,
// and that request runs the sweep): both see the countdown on the seat to
// play; that player stays away, the clock moves past the deadline, and
// both see the away badge and the computer's move; the away player takes
// the seat back; at the end both are offered the rematch and land in it in
// their seats.

'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const h = require('./harness');

const env = h.suite();
const errors = [];

async function api(method, path, body, key) {
  const headers = { 'Content-Type': 'application/json' };
  if (key) headers.Authorization = 'Bearer ' + key;
  const r = await fetch(env.server.url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return r.status === 204 ? null : r.json();
}

async function waitFor(fn, ms, what) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error('timed out waiting for ' + what);
    await new Promise((r) => setTimeout(r, 250));
  }
}

test('a one-minute clock: countdown, away, back, rematch', { skip: env.skip, timeout: 180000 }, async () => {
  const url = env.server.url;
  const keys = ['clock-test-ana-0123456789abcdef', 'clock-test-bea-0123456789abcdef'];
  const players = [];
  for (const k of keys) {
    const p = await h.newPlayer(env.browser, errors, { width: 1100, height: 800 });
    await p.page.goto(url + '/');
    await p.page.evaluate((key) => localStorage.setItem('tessera.key', key), k);
    players.push(p);
  }
  const created = await api('POST', '/api/games', { variant: 'fiveup', players: 2, redeal: false, target: 50, name: 'Ana', key: keys[0], moveTime: 60 });
  const id = created.game.id;
  await api('POST', `/api/games/${id}/seats`, { name: 'Bea', key: keys[1] });
  for (const p of players) {
    await p.page.goto(`${url}/g/${id}`);
    await p.page.waitForSelector('.hand-tile');
  }
  let view = await api('GET', `/api/games/${id}`);
  const late = view.hand.turn;
  const other = 1 - late;
  for (const p of players) {
    // A one-minute clock counts seconds, and is urgent from the start.
    assert.match(await p.page.textContent(`.seat[data-seat="${late}"] .countdown`), /^Hurry: \d+ s left$/, 'the countdown on the seat to play');
    assert.equal(await p.page.locator(`.seat[data-seat="${late}"] .countdown.urgent`).count(), 1, 'urgent');
  }
  const shown = await players[other].page.textContent(`.seat[data-seat="${late}"] .countdown`);
  await players[other].page.waitForFunction(([s, before]) => document.querySelector(`.seat[data-seat="${s}"] .countdown`).textContent !== before, [late, shown], { timeout: 5000 });
  assert.notEqual(await players[other].page.textContent(`.seat[data-seat="${late}"] .countdown`), shown, 'it counts down second by second');

  // Nobody moves: a minute passes (on the server's clock) and the sweep
  // times the seat out.
  const moved = await api('POST', '/api/__test/clock', { advance: 61 });
  assert.ok(moved.swept >= 1, 'the sweep after the deadline took the game');
  const o = players[other].page;
  await o.waitForSelector(`.seat[data-seat="${late}"] .flag.away`, { timeout: 30000 });
  const log = await o.locator('#log li').allTextContents();
  assert.ok(log.some((l) => /ran out of time; the computer plays for them$/.test(l)), 'the log says so');
  view = await api('GET', `/api/games/${id}`);
  assert.equal(view.seats[late].away, true);
  assert.ok(view.log.some((e) => e.type === 'play' && e.seat === late && e.seq > view.log.find((x) => x.type === 'away').seq) ||
    view.hand.turn === other, 'the computer played for the away seat');
  assert.ok(view.log.every((e) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(e.at)), 'every event has its time');

  // The other player steps away too: every person is away, so the game
  // waits, and both pages say so (not "Waiting for ..." with that seat
  // both away and to play).
  // Without opening Share (issue 26): the line above the log.
  assert.equal(await o.textContent('#away-link'), 'Let the computer play for me');
  await o.click('#away-link');
  await o.waitForSelector('#away:not([hidden])');
  assert.equal(await o.isVisible('#away-link'), false, 'offered only while the seat plays itself');
  for (const p of players) {
    await p.page.evaluate(() => window.dispatchEvent(new Event('focus')));
    await p.page.waitForFunction(() => document.querySelector('#status').textContent === 'Paused: everyone is away', null, { timeout: 10000 });
    assert.equal(await p.page.textContent('#prompt'), 'Paused: everyone is away; take your seat back to go on.');
  }
  await o.click('#back-btn');
  await o.waitForSelector('#away', { state: 'hidden' });
  // The late page learns of that before its player acts (a move on the
  // version before would be answered stale).
  const now = await o.evaluate(() => Number(document.body.dataset.version));
  await players[late].page.evaluate(() => window.dispatchEvent(new Event('focus')));
  await players[late].page.waitForFunction((v) => Number(document.body.dataset.version) >= v, now, { timeout: 10000 });

  // The away player takes the seat back. Its own page polls slowly (it
  // was its turn, and a move clock comes by push); coming back to the tab
  // polls at once.
  const l = players[late].page;
  await l.evaluate(() => window.dispatchEvent(new Event('focus')));
  try {
    await l.waitForSelector('#away:not([hidden])', { timeout: 40000 });
  } catch (e) {
    const dbg = await l.evaluate(() => ({ v: document.body.dataset.version, away: document.querySelector('#away').outerHTML, flags: [...document.querySelectorAll('.seat')].map((f) => f.dataset.seat + ':' + f.className + ':' + f.textContent), banner: document.querySelector('#banner').textContent }));
    throw new Error(JSON.stringify(errors) + JSON.stringify(dbg) + ' server version ' + view.version + ' ' + e.message);
  }
  assert.match(await l.textContent('#away'), /Take my seat back/);
  await l.click('#back-btn');
  await l.waitForSelector('#away', { state: 'hidden' });
  view = await api('GET', `/api/games/${id}`);
  assert.equal(view.seats[late].away, false, 'back');

  // Play to the end (target 50) through the API; both pages follow.
  for (let n = 0; n < 2000 && view.status === 'playing'; n++) {
    const seat = view.hand.turn;
    const mine = await api('GET', `/api/games/${id}`, undefined, keys[seat]);
    const lm = mine.you.legal[0];
    view = await api('POST', `/api/games/${id}/moves`, { version: mine.version, type: 'play', tile: lm.tile, end: lm.end }, keys[seat]);
  }
  assert.equal(view.status, 'finished');
  for (const p of players) {
    // The page whose turn it was polls every 30 s; a focus polls now.
    await p.page.evaluate(() => window.dispatchEvent(new Event('focus')));
    await p.page.waitForSelector('body[data-status="finished"]', { timeout: 40000 });
    if (await p.page.isVisible('#summary')) await p.page.click('#summary-close');
    await p.page.waitForSelector('#finished-box:not([hidden])');
  }
  // Both take the rematch and land in the same new game, in their seats.
  const landed = [];
  for (const [i, p] of players.entries()) {
    await Promise.all([p.page.waitForURL((u) => !u.pathname.endsWith(id)), p.page.click('#rematch-btn')]);
    await p.page.waitForSelector('.hand-tile');
    landed.push(p.page.url());
    assert.match(await p.page.locator('.seat-slot[data-pos=bottom] .name').textContent(), new RegExp(`^${['Ana', 'Bea'][i]} \\(you\\)$`));
  }
  assert.equal(landed[0], landed[1], 'one rematch for both');
  assert.match(await players[0].page.textContent('#board-info'), /Series/);
  for (const p of players) await p.context.close();
  assert.deepEqual(errors, []);
});
