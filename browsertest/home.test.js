// The start page's list is the server's (GET /api/me for this browser's
// key): a game started here is listed with whose turn it is; "Hide" hides it
// with an undo, and hidden games can be shown again; the list survives
// clearing what this browser remembers of its games, because the key holds
// the seats.

'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const h = require('./harness');
const { createGame } = require('./play');

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
  assert.match(await page.textContent(`#my-games li[data-game="${first}"] a`), /^Five Up with Ana, Pip$/);
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

  // The player link, drawn as a QR code, with the warning.
  await page.click('#player-link-btn');
  assert.match(await page.textContent('#player-link-box .warn'), /key to all of your games/);
  assert.equal(await page.getAttribute('#player-link', 'type'), 'password', 'the link is not shown in clear');
  await page.setViewportSize({ width: 1000, height: 1000 });
  await h.shot(page, 'start-page-player-link');
  await context.close();
  assert.deepEqual(errors, []);
});
