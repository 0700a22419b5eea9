// budget.test.js: what a phone downloads before the game is on its way,
// measured in Chromium through the DevTools protocol (bytes on the wire:
// encodedDataLength, headers included), from a cold cache. The game page:
// at most 25 KB in at most 5 requests before the game's API GET, and that
// GET is made once, with the seat's token. The start page: at most 20 KB.
// (frontend/budget_test.go guards the same files, gzipped, without a
// browser; docs/frontend.md, "Bundles".)

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

// load opens url in a fresh context with the cache off and returns every
// request in order, each {url, method, bytes, auth, sent, done} once
// finished (sent and done: the protocol's monotonic seconds).
async function load(url, until, locale = 'en-GB') {
  const { context, page } = await h.newPlayer(env.browser, errors, { width: 390, height: 844 }, { locale });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const reqs = new Map();
  const order = [];
  cdp.on('Network.requestWillBeSent', (ev) => {
    const r = { url: ev.request.url, method: ev.request.method, auth: ev.request.headers.Authorization || null, bytes: 0, sent: ev.timestamp, done: Infinity };
    reqs.set(ev.requestId, r);
    order.push(r);
  });
  cdp.on('Network.loadingFinished', (ev) => { const r = reqs.get(ev.requestId); if (r) { r.bytes = ev.encodedDataLength; r.done = ev.timestamp; } });
  await page.goto(url);
  await page.waitForSelector(until);
  await page.waitForTimeout(300);
  await context.close();
  return order;
}

for (const locale of ['en-GB', 'it-IT']) {
  test(`the game page (${locale}): at most 25 KB in 5 requests before its one GET of the game`, { skip }, async () => {
    const created = await post('/api/games', { variant: 'fiveup', players: 2, redeal: false, name: 'Ana' });
    const id = created.game.id;
    await post(`/api/games/${id}/seats`, { name: 'Bea' });
    const order = await load(`${env.server.url}/g/${id}#seat=${created.token}`, '.hand-tile', locale);
    const game = `${env.server.url}/api/games/${id}`;
    const all = order.filter((r) => r.method === 'GET' && r.url === game);
    // The page polls again 2 s after the answer at the soonest (pollDelay);
    // a second GET sooner than 1 s after it is one the load made twice.
    const gets = all.filter((r) => r.sent < all[0].done + 1);
    assert.deepEqual(gets.map((r) => r.auth), [`Bearer ${created.token}`], 'one GET of the game, with the seat token');
    const before = order.slice(0, order.indexOf(gets[0]));
    const bytes = before.reduce((n, r) => n + r.bytes, 0);
    console.log(`# game page (${locale}) before its GET: ${bytes} bytes in ${before.length} requests: ${before.map((r) => `${r.url.replace(env.server.url, '')} ${r.bytes}`).join(', ')}`);
    assert.ok(before.length <= 5, `${before.length} requests before the game's GET`);
    assert.ok(bytes <= 25 * 1024, `${bytes} bytes before the game's GET`);
    const lang = locale.slice(0, 2);
    assert.ok(before.some((r) => r.url.endsWith(`/dist/game.${lang}.json`)), `the ${lang} words came before the GET`);
    assert.deepEqual(errors, []);
  });
}

for (const locale of ['en-GB', 'it-IT']) {
  test(`the start page (${locale}): at most 20 KB until its form is drawn`, { skip }, async () => {
    const order = await load(`${env.server.url}/`, '#variants .what:not(:empty)', locale);
    const page = order.filter((r) => !r.url.includes('/api/'));
    const bytes = page.reduce((n, r) => n + r.bytes, 0);
    console.log(`# start page (${locale}): ${bytes} bytes in ${page.length} requests: ${page.map((r) => `${r.url.replace(env.server.url, '')} ${r.bytes}`).join(', ')}`);
    assert.ok(bytes <= 20 * 1024, `${bytes} bytes`);
    assert.deepEqual(errors, []);
  });
}
