// The page against the Cloudflare Worker (under miniflare, with a local
// D1) instead of the local server: two friends play a whole Five Up match
// through the page, one joining by the invite link; and a partnership game
// against three computer players to the end.

'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const h = require('./harness.js');
const { createGame, joinGame, state, playToEnd, finishByAPI, act } = require('./play.js');

const env = h.suite({}, { worker: true });
const { skip } = env;
const errors = [];

test('two friends play a Five Up match to 25 through the page, on the Worker', { skip, timeout: 300000 }, async () => {
  const ana = await h.newPlayer(env.browser, errors);
  const bea = await h.newPlayer(env.browser, errors);
  const id = await createGame(ana.page, env.server.url, { variant: 'fiveup', players: 2, target: 25, name: 'Ana', seats: ['human'] });
  const invite = await ana.page.inputValue('#invite-link');
  assert.equal(invite, `${env.server.url}/g/${id}`);
  await joinGame(bea.page, invite, 'Bea');
  await bea.page.waitForSelector('.hand-tile');
  await ana.page.waitForSelector('.hand-tile', { timeout: 5000 });
  assert.equal(await ana.page.locator('.seat-slot[data-pos=top] .seat .name').textContent(), 'Bea');

  // Four moves through the pages (each learns the other's by a poll), the
  // rest through the API, the end seen on the pages.
  await playToEnd([ana.page, bea.page], { stop: async () => (await state(ana.page)).version >= 6 && (await state(bea.page)).version >= 6 });
  const [sa, sb] = await finishByAPI([ana.page, bea.page]);
  assert.equal(sa.status, 'finished');
  assert.equal(sb.version, sa.version, 'both pages show the final version');
  assert.match(await ana.page.textContent('#status'), /^Match over: (You|Bea) wins?$/);
  // The finished game reloads from D1 as it was.
  await bea.page.reload();
  await bea.page.waitForSelector('.seat');
  assert.equal((await state(bea.page)).status, 'finished');
  assert.deepEqual(errors, []);
  await ana.context.close();
  await bea.context.close();
});

test('a partnership game against three computer players, on the Worker', { skip, timeout: 300000 }, async () => {
  const { page, context } = await h.newPlayer(env.browser, errors, undefined, { reducedMotion: 'reduce' }); // plays in turn: replay.test.js
  await createGame(page, env.server.url, { variant: 'partnership', name: 'Ana', seats: ['easy', 'medium', 'hard'] });
  await page.waitForSelector('.hand-tile');
  for (let step = 0; step < 1000; step++) {
    if ((await state(page)).status === 'finished') break;
    if (!(await act(page))) await page.waitForTimeout(150);
  }
  assert.equal((await state(page)).status, 'finished', 'the match ended');
  assert.match(await page.textContent('#status'), /^Match over: .+ & .+ wins?$/);
  assert.deepEqual(errors, []);
  await context.close();
});
