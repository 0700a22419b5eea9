// The start page's list is the server's (GET /api/me for this browser's
// key): a game started here is listed with whose turn it is; "Hide" hides it
// with an undo, and hidden games can be shown again; the list survives
// clearing what this browser remembers of its games, because the key holds
// the seats.

'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const h = require('./harness');
const { createGame, apiPlayUntil } = require('./play');

const env = h.suite();
const errors = [];

test('my games come from the server, and hide with undo', { skip: env.skip, timeout: 90000 }, async () => {
  const url = env.server.url;
  const { page, context } = await h.newPlayer(env.browser, errors);
  const first = await createGame(page, url, { variant: 'fiveup', players: 2, name: 'Ana', seats: ['easy'] });
  const second = await createGame(page, url, { variant: 'partnership', name: 'Ana', seats: ['easy', 'easy', 'easy'] });
  // What this browser remembered of each game is gone: the server still lists them.
  await page.evaluate(() => localStorage.removeItem('tessera.games'));
  const requests = [];
  page.on('request', (r) => { if (r.url().includes('/api/')) requests.push(r.method() + ' ' + new URL(r.url()).pathname); });
  await page.goto(url + '/');
  await page.waitForSelector(`#my-games li[data-game="${first}"]`);
  assert.equal(await page.locator('#my-games li').count(), 2);
  assert.equal(await page.locator('#my-games li').first().getAttribute('data-game'), second, 'most recently updated first');
  // An inbox: both are Ana's turn (the computers play at once), counted
  // beside the heading and in the tab's title; it comes before the form.
  assert.equal(await page.locator('#my-games li.your-turn').count(), 2);
  assert.equal(await page.textContent('#turn-count'), '2 to play');
  assert.equal(await page.title(), '(2) Tessera — your turn');
  assert.ok(await page.evaluate(() => document.querySelector('#mine-h').compareDocumentPosition(document.querySelector('#create')) & Node.DOCUMENT_POSITION_FOLLOWING), 'the inbox first, the form after it');
  await page.click('.new-link a');
  assert.equal(await page.evaluate(() => location.hash), '#new-h', 'the form one tap away');
  await page.evaluate(() => history.replaceState(null, '', '/'));
  assert.match(await page.textContent(`#my-games li[data-game="${first}"] a`), /^Five Up with Ana, Otto$/);
  assert.match(await page.textContent(`#my-games li[data-game="${first}"] .game-state`), /(your turn|waiting for the others) · just now$/);
  assert.deepEqual(requests.filter((r) => r.startsWith('GET /api/games')), [], 'the list does not poll every game');
  assert.ok(requests.includes('GET /api/me'));

  await page.click(`#my-games li[data-game="${first}"] button`);
  assert.equal(await page.locator(`#my-games li[data-game="${first}"]`).count(), 0, 'hidden');
  assert.match(await page.textContent('#hidden-note'), /Game hidden/);
  await page.click('#hidden-note button');
  await page.waitForSelector(`#my-games li[data-game="${first}"]`);
  await page.click(`#my-games li[data-game="${first}"] button`);
  await page.reload();
  await page.waitForSelector(`#my-games li[data-game="${second}"]`);
  assert.equal(await page.locator(`#my-games li[data-game="${first}"]`).count(), 0, 'still hidden after a reload');
  assert.equal(await page.textContent('#show-hidden'), 'Show hidden games (1)');
  await page.click('#show-hidden');
  await page.click(`#my-games li[data-game="${first}"] button:has-text("Show")`);
  assert.equal(await page.isVisible('#show-hidden'), false);
  assert.equal(await page.locator('#my-games li').count(), 2);
  // A game that waits for the others goes below those where it is your turn.
  const waiting = await (await fetch(`${url}/api/games`, { method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ variant: 'fiveup', players: 2, name: 'Ana', key: await page.evaluate(() => localStorage.getItem('tessera.key')) }) })).json();
  await page.reload();
  await page.waitForSelector(`#my-games li[data-game="${waiting.game.id}"]`);
  assert.equal(await page.locator('#my-games li').last().getAttribute('data-game'), waiting.game.id, 'newest, but waiting for players: after your turns');
  assert.match(await page.textContent(`#my-games li[data-game="${waiting.game.id}"] .game-state`), /waiting for players/);
  assert.equal(await page.textContent(`#my-games li[data-game="${waiting.game.id}"] a`), 'Five Up with Ana, a free seat');

  // The player link, drawn as a QR code, with the warning.
  await page.click('#player-link-btn');
  assert.match(await page.textContent('#player-link-box .warn'), /key to all of your games/);
  assert.equal(await page.getAttribute('#player-link', 'type'), 'password', 'the link is not shown in clear');
  await page.setViewportSize({ width: 1000, height: 1000 });
  await h.shot(page, 'start-page-player-link');
  await context.close();
  assert.deepEqual(errors, []);
});

test('the inbox says when the computer plays for you, and when a game is paused', { skip: env.skip, timeout: 90000 }, async () => {
  const url = env.server.url;
  const { page, context } = await h.newPlayer(env.browser, errors);
  await page.goto(url + '/');
  await page.waitForFunction(() => localStorage.getItem('tessera.key'));
  const key = await page.evaluate(() => localStorage.getItem('tessera.key'));
  assert.ok(key, 'the start page drew a player key');
  const api = h.apiOf(env);
  const made = await api('POST', '/api/games', { variant: 'fiveup', players: 2, name: 'Ana', key });
  const id = made.game.id;
  const bea = await api('POST', `/api/games/${id}/seats`, { name: 'Bea', key: 'bea-inbox-key-0123456789abcdefgh' });
  const away = async (token) => {
    const v = await api('GET', `/api/games/${id}`, null, token);
    await api('POST', `/api/games/${id}/moves`, { version: v.version, type: 'away' }, token);
  };
  const line = `#my-games li[data-game="${id}"] .game-state`;
  await away(made.token);
  await page.reload();
  await page.waitForSelector(line);
  assert.match(await page.textContent(line), / — the computer plays for you · /);
  await away(bea.token);
  await page.reload();
  await page.waitForSelector(line);
  assert.match(await page.textContent(line), / — Paused: everyone is away · /);
  await context.close();
  assert.deepEqual(errors, []);
});

// The inbox reads /api/me at once for a push of a turn (or an end), not
// for a move pushed to a page that watches its game (issue 45).
test('the inbox reads again for a turn pushed, not for a watched game\'s move', { skip: env.skip, timeout: 90000 }, async () => {
  const url = env.server.url;
  const { page, context } = await h.newPlayer(env.browser, errors);
  await page.goto(url + '/');
  await page.waitForFunction(() => localStorage.getItem('tessera.key'));
  await page.waitForSelector('#my-games', { state: 'attached' });
  const reads = [];
  page.on('request', (r) => { if (new URL(r.url()).pathname === '/api/me') reads.push(r.url()); });
  // Two moves of a watched game, then a turn, then a fetch of a file: the
  // inbox starts its read in the push's handler, so every read the three
  // pushes started comes before the file's request.
  const barrier = page.waitForRequest((r) => new URL(r.url()).pathname === '/assets/favicon.svg');
  await page.evaluate(() => {
    for (const kind of ['move', 'move', 'turn']) navigator.serviceWorker.dispatchEvent(new MessageEvent('message', { data: { type: 'push', game: 'g1', version: 9, kind } }));
    fetch('/assets/favicon.svg', { cache: 'no-store' });
  });
  await barrier;
  assert.equal(reads.length, 1, `one read, for the turn: ${reads.length}`);
  await context.close();
  assert.deepEqual(errors, []);
});

test('a rematch is labelled as one in the inbox', { skip: env.skip, timeout: 90000 }, async () => {
  const url = env.server.url;
  const { page, context } = await h.newPlayer(env.browser, errors);
  await page.goto(url + '/');
  await page.waitForFunction(() => localStorage.getItem('tessera.key'));
  const key = await page.evaluate(() => localStorage.getItem('tessera.key'));
  const api = h.apiOf(env);
  const made = await api('POST', '/api/games', { variant: 'block', players: 2, target: 1, name: 'Ana', key });
  const id = made.game.id;
  const bea = await api('POST', `/api/games/${id}/seats`, { name: 'Bea', key: 'bea-rematch-key-0123456789abcdefg' });
  const tokens = [made.token, bea.token];
  const v = await apiPlayUntil(api, id, tokens, (x) => x.status === 'finished');
  assert.equal(v.status, 'finished');
  const next = await api('POST', `/api/games/${id}/rematch`, {}, made.token);
  await page.reload();
  await page.waitForSelector(`#my-games li[data-game="${next.game.id}"]`);
  assert.equal(await page.textContent(`#my-games li[data-game="${next.game.id}"] a`), 'Rematch: Block with Ana, Bea');
  assert.equal(await page.textContent(`#my-games li[data-game="${id}"] a`), 'Block with Ana, Bea');
  await context.close();
  assert.deepEqual(errors, []);
});
