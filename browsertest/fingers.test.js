// fingers.test.js (issue 33): on a phone (390x844, touch), in Italian and
// English, every control a finger presses is at least 44 px tall and as
// wide as its words (WCAG 2.5.5): buttons, fields, selects, check boxes'
// labels, the top links and the links that stand alone (a link inside a
// sentence is WCAG's inline exception); a 7-tile hand's tiles are 40 px
// wide or more and fit the screen; and before a page's words come, it
// shows none of the English in its HTML (html[data-words], style.css).

'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const h = require('./harness.js');
const { createGame } = require('./play.js');

const env = h.suite();
const { skip } = env;
const errors = [];

const { PHONE, small } = require('./phone.js');

for (const locale of ['it-IT', 'en-GB']) {
  test(`a phone in ${locale}: controls are 44 px, a 7-tile hand's tiles 40 px wide`, { skip, timeout: 120000 }, async () => {
    const context = await env.browser.newContext({ ...PHONE, locale });
    const page = h.watch(await context.newPage(), errors);
    // The start page, and the room.
    for (const path of ['/', '/room']) {
      await page.goto(env.server.url + path);
      await page.waitForSelector(`html[data-words="${locale.slice(0, 2)}"]`);
      assert.deepEqual(await small(page), [], `${path}: controls under 44 px`);
    }
    // A game waiting for a player, then a 2-player match: its hand of 7.
    await createGame(page, env.server.url, { variant: 'block', players: 2, name: 'Ana', seats: ['easy'] });
    await page.waitForSelector('.hand-tile');
    // Both parts of the game page's words (the menus' come second).
    await page.waitForSelector(`html[data-later="${locale.slice(0, 2)}"]`, { state: 'attached' });
    const hand = await page.evaluate(() => [...document.querySelectorAll('.hand-tile')].map((e) => { const r = e.getBoundingClientRect(); return { w: r.width, l: r.left, r: r.right, t: r.top }; }));
    assert.ok(hand.length >= 6, `a hand of ${hand.length}`);
    for (const t of hand) assert.ok(t.w >= 40 - 0.5 && t.l >= 0 && t.r <= 390 + 0.5, `a hand tile ${t.w.toFixed(1)} px wide at ${t.l.toFixed(0)}-${t.r.toFixed(0)}`);
    assert.deepEqual(await small(page), [], 'the game page: controls under 44 px');
    // No line of the page ends cut short ("…") on the phone.
    const cut = await page.evaluate(() => [...document.querySelectorAll('body *')]
      .filter((e) => getComputedStyle(e).textOverflow === 'ellipsis' && e.scrollWidth > e.clientWidth + 1 && e.getBoundingClientRect().width > 0)
      .map((e) => `${e.className}: ${e.textContent.trim().slice(0, 40)}`));
    assert.deepEqual(cut, [], 'text cut short');
    await context.close();
  });
}

// An Italian browser's first paint: until the words come, the page's own
// text (English in its HTML) is not shown.
test('before its words come, an Italian page shows no English', { skip, timeout: 60000 }, async () => {
  const context = await env.browser.newContext({ locale: 'it-IT' });
  const page = h.watch(await context.newPage(), errors);
  // The catalog is held back until the check is done.
  let release;
  const held = new Promise((r) => { release = r; });
  await page.route(/\/dist\/start\.it\.json$/, async (route) => { await held; await route.continue(); });
  await page.goto(env.server.url + '/', { waitUntil: 'domcontentloaded' });
  await page.waitForSelector('#create');
  const shown = await page.evaluate(() => [...document.querySelectorAll('[data-i18n]')]
    .filter((e) => getComputedStyle(e).visibility !== 'hidden' && e.getBoundingClientRect().width > 0).map((e) => e.textContent.trim()).filter(Boolean));
  release();
  assert.deepEqual(shown, [], 'English words shown before the Italian ones came');
  await page.waitForSelector('html[data-words="it"]');
  assert.equal(await page.textContent('h2#new-h'), 'Nuova partita');
  await context.close();
  assert.deepEqual(errors, []);
});
