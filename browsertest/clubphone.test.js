// clubphone.test.js (issue 33): a league of friends on phones (390x844,
// touch), once with the creator in Italian and the friend in English, once
// the other way round: a new player with no name makes a league from the
// room, a friend joins by its link, the admin sets up a partnership game
// of the league with a computer seat. In each state: axe (every rule,
// best practice included) and every control 44 px tall.

'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const h = require('./harness.js');

const env = h.suite();
const { skip } = env;
const { PHONE, check, failures } = require('./phone.js');

for (const [mine, theirs] of [['it-IT', 'en-GB'], ['en-GB', 'it-IT']]) {
  test(`a league of friends on phones (${mine} makes it, ${theirs} joins)`, { skip, timeout: 180000 }, async () => {
    const errors = [];
    const found = {};
    const n = mine.slice(0, 2);
    const keys = [`club-${n}-admin-key-0123456789abcdef`, `club-${n}-friend-key-0123456789abcd`];
    const open = async (locale, key) => {
      const context = await env.browser.newContext({ ...PHONE, locale, reducedMotion: 'reduce' });
      const page = h.watch(await context.newPage(), errors);
      await page.goto(`${env.server.url}/#key=${key}`);
      await page.waitForSelector('#create');
      return { context, page };
    };
    // The admin: new, no name; the league form asks for one.
    const admin = await open(mine, keys[0]);
    const p = admin.page;
    await p.goto(`${env.server.url}/room`);
    await p.fill('#league-form input[name=name]', 'Il giovedì');
    await p.selectOption('#league-variant', 'partnership');
    await p.click('#league-form button[type=submit]');
    await p.waitForSelector('#league-error:not([hidden])');
    await check(p, found, 'room, the league form asking for a name');
    await p.fill('#league-form input[name=you]', 'Ana');
    await Promise.all([p.waitForURL(/\/l\/[^/]+$/), p.click('#league-form button[type=submit]')]);
    await p.waitForSelector('#league-body:not([hidden])');
    await p.waitForSelector('#league-qr svg');
    await check(p, found, 'the league, as its admin sees it');
    const link = await p.inputValue('#league-link');
    // The friend opens the link: the league and who invites.
    const friend = await open(theirs, keys[1]);
    const q = friend.page;
    await q.goto(link);
    await q.waitForFunction(() => document.querySelector('#league-h').textContent === 'Il giovedì');
    await check(q, found, 'the invite, before joining');
    await q.fill('#league-name', 'Bea');
    await q.click('#league-join-btn');
    await q.waitForSelector('#league-body:not([hidden])');
    await check(q, found, 'the league, as a member sees it');
    // The admin removes nobody but asks (the confirmation's state).
    await p.reload();
    await p.waitForSelector('#league-members button.link');
    await p.click('#league-members button.link');
    await p.waitForSelector('#league-members [role=group]');
    await check(p, found, 'removing a member, asked');
    await p.click('#league-members [role=group] button:not(.danger)');
    // A partnership game of the league with a computer seat, set up on
    // the start page.
    await Promise.all([p.waitForURL(/\/\?league=/), p.click('#league-game')]);
    await p.waitForSelector('#league-note:not([hidden])');
    await check(p, found, 'the start page, a league game');
    await p.fill('#create input[name=name]', 'Ana');
    await p.selectOption('#seats select[name=seat1]', 'easy');
    await Promise.all([p.waitForURL(/\/g\/[^/]+$/), p.click('#create button[type=submit]')]);
    await p.waitForSelector('body[data-version]');
    const game = p.url().split('/g/')[1];
    const v = await (await fetch(`${env.server.url}/api/games/${game}`)).json();
    assert.equal(v.variant, 'partnership');
    assert.ok(v.league, 'a game of the league');
    assert.equal(v.seats[1].bot, 'easy', 'a computer seat');
    await check(p, found, 'the league game, waiting for friends');
    await admin.context.close();
    await friend.context.close();
    const all = failures(found);
    assert.deepEqual(all, [], all.join('\n'));
    // The browser logs the one answer the flow expects: the friend's page
    // reads the league as a member first (404 before joining), then its
    // invite's preview.
    assert.deepEqual(errors.filter((e) => !/status of 404/.test(e)), [], 'no other console errors');
    assert.ok(errors.filter((e) => /status of 404/.test(e)).length <= 1, errors.join('\n'));
  });
}
