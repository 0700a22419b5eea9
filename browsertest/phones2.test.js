// phones2.test.js (issue 44, friends on phones part 2), on a 390x844
// touch screen in Italian and English, with axe (every rule) and 44 px:
// a person who has never played enters a tournament from its link (the
// page asks for their name where they are); a league's table fits the
// phone, nothing off screen or scrolling sideways.

'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const h = require('./harness.js');
const { PHONE, check, failures } = require('./phone.js');
const play = require('./play.js');

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
    assert.deepEqual(await page.evaluate(() => [document.documentElement.scrollWidth <= window.innerWidth, window.innerWidth]), [true, PHONE.viewport.width], 'nothing scrolls sideways');
    await context.close();
    assert.deepEqual(failures(found), []);
    assert.deepEqual(errors.filter((e) => !/409|Conflict/.test(e)), []);
  });
}

for (const locale of ['it-IT', 'en-GB']) {
  test(`a league's table fits a phone (${locale})`, { skip, timeout: 90000 }, async () => {
    const errors = [];
    const found = {};
    const names = ['Annamaria', 'Bartolomeo', 'Costanza', 'Donatella'];
    const keys = names.map((n) => `fit-${locale}-${n.toLowerCase()}-key-0123456789abcdef`);
    for (const [i, k] of keys.entries()) await api('PUT', '/api/me/profile', { name: names[i] }, k);
    const made = await api('POST', '/api/leagues', { name: 'Il giovedì', variant: 'fiveup' }, keys[0]);
    for (const k of keys.slice(1)) await api('POST', `/api/leagues/${made.league.id}/members`, { invite: made.invite }, k);
    // Two league matches to their ends: every column of the table has numbers, the form two letters.
    for (let m = 0; m < 2; m++) {
      const a = await api('POST', '/api/games', { variant: 'fiveup', players: 2, target: 10, name: names[0], key: keys[0], league: made.league.id });
      await api('POST', `/api/games/${a.game.id}/seats`, { name: names[1 + m], key: keys[1 + m] });
      await play.playOut(api, a.game.id, [keys[0], keys[1 + m]]);
    }
    const context = await env.browser.newContext({ ...PHONE, locale, reducedMotion: 'reduce' });
    const page = h.watch(await context.newPage(), errors);
    await page.goto(`${env.server.url}/#key=${keys[0]}`);
    await page.waitForSelector('#create');
    await page.goto(`${env.server.url}/l/${made.league.id}`);
    await page.waitForFunction(() => document.querySelectorAll('#league-table tr').length === 3);
    await check(page, found, 'the league table on a phone');
    const fit = await page.evaluate(() => {
      const t = document.querySelector('#league-table').closest('table').getBoundingClientRect();
      const heads = [...document.querySelectorAll('#league-table')[0].closest('table').querySelectorAll('th')].map((th) => th.getBoundingClientRect().right);
      return { page: document.documentElement.scrollWidth, view: window.innerWidth, table: t.right, heads: Math.max(...heads) };
    });
    // A phone widens its layout to what overflows (it was 465 px): the
    // screen stays 390 px wide, and nothing goes past it.
    assert.equal(fit.view, PHONE.viewport.width, 'the layout stays the phone\'s width');
    assert.ok(fit.page <= fit.view, `the page scrolls sideways: ${fit.page} px in ${fit.view}`);
    assert.ok(fit.table <= fit.view && fit.heads <= fit.view, `the table ends at ${fit.table} px (headings ${fit.heads}) on a ${fit.view} px screen`);
    const abbr = await page.getAttribute('#league thead abbr', 'title');
    assert.equal(abbr, locale === 'it-IT' ? 'Giocate' : 'Played', 'a short heading says its whole word');
    await context.close();
    assert.deepEqual(failures(found), []);
    assert.deepEqual(errors, []);
  });
}

/** leagueOfTwo: Ana's Five Up league "Il giovedì" with Bea in it; their keys (named from tag) and the league made. */
async function leagueOfTwo(tag) {
  const keys = ['Ana', 'Bea'].map((n) => `${tag}-${n.toLowerCase()}-key-0123456789abcdef`);
  await api('PUT', '/api/me/profile', { name: 'Ana' }, keys[0]);
  await api('PUT', '/api/me/profile', { name: 'Bea' }, keys[1]);
  const made = await api('POST', '/api/leagues', { name: 'Il giovedì', variant: 'fiveup' }, keys[0]);
  await api('POST', `/api/leagues/${made.league.id}/members`, { invite: made.invite }, keys[1]);
  return { keys, made };
}

for (const [locale, home, page] of [
  ['it-IT', 'Il giovedì: una partita di lega aspetta giocatori (Ana): siediti', /in attesa: 1 posto libero, siediti/],
  ['en-GB', 'Il giovedì: a league game waits for players (Ana): take a seat', /waiting: 1 seat free, take it/]]) {
  test(`a league game waiting for players is on its members' home and says so on the league page (${locale})`, { skip, timeout: 60000 }, async () => {
    const errors = [];
    const found = {};
    const { keys, made } = await leagueOfTwo(`wait-${locale}`);
    const g = await api('POST', '/api/games', { variant: 'fiveup', players: 2, name: 'Ana', key: keys[0], league: made.league.id });
    const context = await env.browser.newContext({ ...PHONE, locale, reducedMotion: 'reduce' });
    const p = h.watch(await context.newPage(), errors);
    await p.goto(`${env.server.url}/#key=${keys[1]}`);
    await p.waitForSelector(`#my-games li a:has-text("${home}")`);
    await check(p, found, 'the home page with a league game waiting');
    await Promise.all([p.waitForURL(new RegExp(`/g/${g.game.id}$`)), p.click(`#my-games li a:has-text("${home}")`)]);
    // The game leads back to its league (issue 44).
    await p.waitForSelector('#league-box:not([hidden]) #league-back');
    assert.equal(await p.getAttribute('#league-back', 'href'), `/l/${made.league.id}`);
    assert.match(await p.textContent('#league-back'), locale === 'it-IT' ? /La lega di questa partita/ : /This game's league/);
    await p.goto(`${env.server.url}/l/${made.league.id}`);
    await p.waitForSelector('#league-games li');
    assert.match(await p.textContent('#league-games li'), page);
    await context.close();
    assert.deepEqual(failures(found), []);
    assert.deepEqual(errors, []);
  });
}

for (const locale of ['it-IT', 'en-GB']) {
  test(`the join form has the name this device gave; a new league game opens at its form (${locale})`, { skip, timeout: 60000 }, async () => {
    const errors = [];
    const found = {};
    const keys = ['Ana', 'Bea'].map((n) => `form-${locale}-${n.toLowerCase()}-key-0123456789abcdef`);
    await api('PUT', '/api/me/profile', { name: 'Ana' }, keys[0]);
    const made = await api('POST', '/api/leagues', { name: 'Il giovedì', variant: 'fiveup' }, keys[0]);
    const context = await env.browser.newContext({ ...PHONE, locale, reducedMotion: 'reduce' });
    const p = h.watch(await context.newPage(), errors);
    // Ana's device: the league's page, "New league game": the start page
    // opens with its new game's form in view (it was screens below).
    await p.goto(`${env.server.url}/#key=${keys[0]}`);
    await p.waitForSelector('#create');
    await p.goto(`${env.server.url}/l/${made.league.id}`);
    await p.waitForSelector('#league-game');
    await Promise.all([p.waitForURL(/\/\?league=/), p.click('#league-game')]);
    await p.waitForSelector('#league-note:not([hidden])');
    const top = await p.evaluate(() => document.querySelector('#new-h').getBoundingClientRect().top);
    assert.ok(top >= -1 && top < 844 / 2, `the form's heading is at ${top} px, want in the top half of the screen`);
    await check(p, found, 'the start page at a league game\'s form');
    // Bea's device gave her name when it made a game: the join form of a
    // friend's game has it.
    const q = h.watch(await context.newPage(), errors);
    await q.goto(`${env.server.url}/`);
    await q.evaluate(() => localStorage.setItem('tessera.name', 'Bea'));
    const g = await api('POST', '/api/games', { variant: 'fiveup', players: 2, name: 'Ana' });
    await q.goto(`${env.server.url}/g/${g.game.id}`);
    await q.waitForSelector('#join:not([hidden])');
    assert.equal(await q.inputValue('#join-form input[name=name]'), 'Bea');
    await context.close();
    assert.deepEqual(failures(found), []);
    assert.deepEqual(errors, []);
  });
}

// Issue 44 item 8: on a 360 px phone a league's (or a tournament's) game
// showed half the hand below the fold on your turn: the table was the
// screen's height under the header, and the league's line above it
// pushed it down. The table now fills what is left below that line.
for (const locale of ['it-IT', 'en-GB']) {
  test(`on a 360x740 phone a league game shows the whole hand on your turn (${locale})`, { skip, timeout: 60000 }, async () => {
    const errors = [];
    const found = {};
    const { keys, made } = await leagueOfTwo(`fold-${locale}`);
    const g = await api('POST', '/api/games', { variant: 'fiveup', players: 2, redeal: false, name: 'Ana', key: keys[0], league: made.league.id });
    await api('POST', `/api/games/${g.game.id}/seats`, { name: 'Bea', key: keys[1] });
    const v = await api('GET', `/api/games/${g.game.id}`);
    const context = await env.browser.newContext({ ...PHONE, viewport: { width: 360, height: 740 }, locale, reducedMotion: 'reduce' });
    const p = h.watch(await context.newPage(), errors);
    await p.goto(`${env.server.url}/g/${g.game.id}#seat=${keys[v.hand.turn]}`);
    await p.waitForSelector('#league-box:not([hidden]) #league-back');
    await p.waitForSelector('.hand-tile.playable');
    await check(p, found, 'a league game on a 360 px phone, your turn');
    const seen = await p.evaluate(() => ({
      view: innerHeight,
      scrolled: scrollY,
      league: document.querySelector('#league-box').getBoundingClientRect().top,
      tiles: [...document.querySelectorAll('.hand-tile')].map((t) => { const r = t.getBoundingClientRect(); return [r.top, r.bottom]; }),
    }));
    assert.equal(seen.scrolled, 0);
    assert.ok(seen.league >= 0 && seen.league < 100, `the league's line at the top: ${seen.league}`);
    assert.equal(seen.tiles.length, 7);
    for (const [top, bottom] of seen.tiles) assert.ok(top >= 0 && bottom <= seen.view + 0.5, `a hand tile at ${top.toFixed(0)}-${bottom.toFixed(0)} px on a ${seen.view} px screen`);
    await context.close();
    assert.deepEqual(failures(found), []);
    assert.deepEqual(errors, []);
  });
}
