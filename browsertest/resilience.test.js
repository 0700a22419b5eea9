// The page under trouble: a move decided on an old position gets
// 409 stale_version and the board is redrawn from the error body; a move
// whose request fails on the network is retried with the same moveId and
// applied once; poll failures show a quiet banner that goes away.

'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const h = require('./harness.js');
const { createGame, state, waitVersionAbove, act } = require('./play.js');

const env = h.suite();
const { skip } = env;

// Chromium logs every failed or 4xx resource load to the console; these
// tests cause exactly such loads on purpose, so those lines are expected.
const expected = (allowed) => (line) => !allowed.some((re) => re.test(line));

async function myTurn(page) {
  for (let i = 0; i < 50; i++) {
    if ((await state(page)).turn === 'mine' && !(await page.isVisible('#summary')) && !(await page.isVisible('#confirm'))) return;
    await act(page);
    await page.waitForTimeout(100);
  }
  throw new Error('never my turn');
}

test('a stale move gets 409 and the page redraws from the error body', { skip, timeout: 120000 }, async () => {
  const errors = [];
  const { context, page } = await h.newPlayer(env.browser, errors);
  const id = await createGame(page, env.server.url, { variant: 'fiveup', players: 2, target: 1000, name: 'Ana', seats: ['easy'] });
  await myTurn(page);
  // A second tab of the same seat whose polls are held back: it keeps the old position.
  const stale = h.watch(await context.newPage(), errors);
  await stale.goto(`${env.server.url}/g/${id}`);
  await stale.waitForSelector('.hand-tile.playable');
  const oldVersion = (await state(stale)).version;
  await stale.route(`**/api/games/${id}`, (route) => route.request().method() === 'GET'
    ? route.fulfill({ status: 304, headers: { ETag: 'held' } }) : route.continue());
  // The first tab plays (the computer answers in the same request).
  await act(page);
  const now = (await state(page)).version;
  assert.ok(now > oldVersion);
  // The stale tab tries to play: the server answers 409 with the game.
  const answers = [];
  stale.on('response', (r) => { if (r.url().endsWith('/moves')) answers.push(r.status()); });
  await stale.locator('.hand-tile.playable').first().click();
  const target = stale.locator('.end-target').first();
  if (await target.count()) await target.click();
  await stale.waitForFunction((v) => Number(document.body.dataset.version) >= v, now, { timeout: 5000 });
  assert.deepEqual(answers, [409]);
  assert.match(await stale.textContent('#prompt'), /The game moved on/);
  assert.equal((await state(stale)).version, now, 'the board is the current one');
  assert.deepEqual(await stale.locator('.hand-tile').count(), await page.locator('.hand-tile').count());
  assert.deepEqual(errors.filter(expected([/status of 409/])), [], 'no other console errors');
});

test('a move lost on the network is retried with the same moveId and applied once', { skip, timeout: 120000 }, async () => {
  const errors = [];
  const { page } = await h.newPlayer(env.browser, errors);
  const id = await createGame(page, env.server.url, { variant: 'fiveup', players: 2, target: 1000, name: 'Ana', seats: ['easy'] });
  await myTurn(page);
  const sent = [];
  let failed = 0;
  await page.route(`**/api/games/${id}/moves`, async (route) => {
    sent.push(JSON.parse(route.request().postData()));
    if (failed++ === 0) {
      // The request reaches the server and is applied, but the answer is lost.
      await route.fetch();
      return route.abort('failed');
    }
    return route.continue();
  });
  const before = (await state(page)).version;
  const tiles = await page.locator('.hand-tile').count();
  await page.locator('.hand-tile.playable').first().click();
  const target = page.locator('.end-target').first();
  if (await target.count()) await target.click();
  await page.waitForSelector('#banner:not([hidden])', { timeout: 3000 });
  assert.match(await page.textContent('#banner'), /retrying your move/);
  await waitVersionAbove(page, before, 10000);
  assert.equal(sent.length, 2, 'sent twice');
  assert.equal(sent[0].moveId, sent[1].moveId, 'the retry carries the same moveId');
  assert.ok(sent[0].moveId.length >= 1 && sent[0].moveId.length <= 64);
  assert.equal(await page.isVisible('#banner'), false, 'the banner goes away');
  // Applied once: one tile fewer in the hand (the computer may not make us draw on our own move).
  const log = await page.locator('#log li').allTextContents();
  const mine = log.filter((l) => /^You (played|led) /.test(l));
  assert.equal(mine.length, 1, `one move of ours in the log: ${mine}`);
  assert.ok((await page.locator('.hand-tile').count()) <= tiles - 1 || log.some((l) => /^You drew/.test(l)));
  assert.deepEqual(errors.filter(expected([/ERR_FAILED/, /requestfailed: .*\/moves/])), [], 'no other console errors');
});

test('failed polls show a quiet banner and recover', { skip, timeout: 120000 }, async () => {
  const errors = [];
  const { page } = await h.newPlayer(env.browser, errors);
  const id = await createGame(page, env.server.url, { variant: 'fiveup', players: 2, target: 1000, name: 'Ana', seats: [] });
  // Nobody has joined: the page polls every 2 s. Break the network for the API.
  await page.route(`**/api/games/${id}`, (route) => route.abort('failed'));
  await page.waitForSelector('#banner:not([hidden])', { timeout: 6000 });
  assert.match(await page.textContent('#banner'), /Connection trouble/);
  await page.unroute(`**/api/games/${id}`);
  await page.waitForSelector('#banner', { state: 'hidden', timeout: 8000 });
  assert.deepEqual(errors.filter(expected([/ERR_FAILED/, /requestfailed/])), []);
});

// A push that comes while the page is hidden reads nothing (issue 45: a
// hidden page read the game on every push); the page reads the game as
// it comes back in view.
test('a hidden page reads nothing for a push, and reads as it comes back in view', { skip, timeout: 120000 }, async () => {
  const api = h.apiOf(env);
  const key = 'hidden-ana-key-0123456789abcdef';
  const made = await api('POST', '/api/games', { variant: 'fiveup', players: 2, name: 'Ana', key });
  const id = made.game.id;
  await api('POST', `/api/games/${id}/seats`, { name: 'Bea', key: 'hidden-bea-key-0123456789abcdef' });
  const errors = [];
  const { page, context } = await h.newPlayer(env.browser, errors);
  await page.goto(`${env.server.url}/g/${id}#seat=${key}`);
  await page.waitForFunction(() => document.body.dataset.version);
  const version = Number(await page.evaluate(() => document.body.dataset.version));
  const reads = [];
  page.on('request', (r) => { if (r.method() === 'GET' && new URL(r.url()).pathname === `/api/games/${id}`) reads.push(r.url()); });
  // Hidden, as a tab behind another is; then a push of a newer version,
  // then a file's request: a read the push started would come before it.
  await page.evaluate(() => Object.defineProperty(document, 'hidden', { configurable: true, get: () => true }));
  const barrier = page.waitForRequest((r) => new URL(r.url()).pathname === '/assets/favicon.svg');
  await page.evaluate(({ id, version }) => {
    navigator.serviceWorker.dispatchEvent(new MessageEvent('message', { data: { type: 'push', game: id, version: version + 1, kind: 'turn' } }));
    fetch('/assets/favicon.svg', { cache: 'no-store' });
  }, { id, version });
  await barrier;
  assert.deepEqual(reads, [], 'no read while hidden');
  // Back in view: it reads the game at once.
  const read = page.waitForRequest((r) => r.method() === 'GET' && new URL(r.url()).pathname === `/api/games/${id}`);
  await page.evaluate(() => { delete document.hidden; document.dispatchEvent(new Event('visibilitychange')); });
  await read;
  await context.close();
  assert.deepEqual(errors, []);
});
