// boot.test.js: the game page asks for the game once while it loads: the
// first GET starts from boot.js before app.js and its modules have run,
// and app.js's first poll takes that answer instead of asking again.

'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const h = require('./harness.js');

const env = h.suite();
const { skip } = env;
const errors = [];

async function post(path, body) {
  const r = await fetch(env.server.url + path, { method: 'POST', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } });
  assert.ok(r.ok, `${path}: ${r.status}`);
  return r.json();
}

test('the page loads its game with one GET, started before app.js runs', { skip }, async () => {
  const created = await post('/api/games', { variant: 'fiveup', players: 2, redeal: false, name: 'Ana' });
  const id = created.game.id;
  await post(`/api/games/${id}/seats`, { name: 'Bea' });
  const { context, page } = await h.newPlayer(env.browser, errors);
  const gets = [];
  page.on('request', (r) => { if (r.method() === 'GET' && r.url().endsWith(`/api/games/${id}`)) gets.push(r.headers().authorization || null); });
  // Who started each GET of the game: the script on top of its stack.
  const starters = [];
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  cdp.on('Network.requestWillBeSent', (ev) => {
    if (ev.request.method !== 'GET' || !ev.request.url.endsWith(`/api/games/${id}`)) return;
    const frames = (ev.initiator.stack && ev.initiator.stack.callFrames) || [];
    starters.push(frames.map((f) => f.url.replace(/^.*\//, '')).join(' < '));
  });
  await page.goto(`${env.server.url}/g/${id}#seat=${created.token}`);
  await page.waitForSelector('.hand-tile');
  assert.equal(page.url(), `${env.server.url}/g/${id}`, 'the seat token left the address bar');
  assert.equal(await page.locator('.seat-slot[data-pos=bottom] .name').textContent(), 'Ana (you)', 'the view is the seat\'s');
  await page.waitForTimeout(300);
  assert.deepEqual(gets, [`Bearer ${created.token}`], 'one GET of the game, with the seat token, until the next poll');
  assert.equal(starters.length, 1);
  assert.match(starters[0], /boot\.js/, `the GET was started by boot.js (${starters[0]})`);
  // A reload: the token now comes from localStorage, still one GET.
  gets.length = 0;
  await page.reload();
  await page.waitForSelector('.hand-tile');
  await page.waitForTimeout(300);
  assert.deepEqual(gets, [`Bearer ${created.token}`]);
  await context.close();
  assert.deepEqual(errors, []);
});
