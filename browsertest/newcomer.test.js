// newcomer.test.js (issue 44): a person who has never played opens a
// tournament's link on a phone, Italian and English: the page asks for
// their name where they are, a tap without one says so, and one tap with
// it makes their profile and enters them. axe (every rule) and 44 px on
// the page as the newcomer meets it.

'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const h = require('./harness.js');
const { PHONE, check, failures } = require('./phone.js');

const env = h.suite();
const { skip } = env;
const api = h.apiOf(env);

for (const [locale, name, enter, missing] of [['it-IT', 'Dario', 'Iscriviti', 'Scrivi il tuo nome.'], ['en-GB', 'Erin', 'Enter', 'Please enter your name.']]) {
  test(`a newcomer enters a tournament from its link on a phone (${locale})`, { skip, timeout: 60000 }, async () => {
    const errors = [];
    const found = {};
    const host = `newcomer-host-${locale}-key-0123456789abcdef`;
    await api('PUT', '/api/me/profile', { name: 'Ada' }, host);
    const made = await api('POST', '/api/tournaments', { name: 'Coppa', format: 'swiss', rounds: 2, variant: 'fiveup', players: 2, target: 100, moveTime: 86400, roundTime: 86400, size: 8, listed: false }, host);
    const context = await env.browser.newContext({ ...PHONE, locale, reducedMotion: 'reduce' });
    const page = h.watch(await context.newPage(), errors);
    await page.goto(`${env.server.url}/t/${made.tournament.id}#invite=${made.invite}`);
    await page.waitForSelector('#tour-name-row:not([hidden]) #tour-name');
    await check(page, found, 'the tournament as a newcomer meets it');
    await page.click(`#tour-enter:has-text("${enter}")`);
    await page.waitForSelector(`#tour-msg:not([hidden]):has-text("${missing}")`);
    await page.fill('#tour-name', name);
    await page.click('#tour-enter');
    await page.waitForSelector(`#tour-table td:has-text("${name}")`);
    assert.equal(await page.isVisible('#tour-name-row'), false, 'entered: the name field goes');
    assert.equal(await page.isVisible('#tour-withdraw'), true, 'entered: withdrawing is offered');
    const t = await api('GET', `/api/tournaments/${made.tournament.id}`);
    assert.deepEqual(t.entries.map((e) => e.name).sort(), [name]);
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true, 'nothing scrolls sideways');
    await context.close();
    assert.deepEqual(failures(found), []);
    assert.deepEqual(errors.filter((e) => !/409|Conflict/.test(e)), []);
  });
}
