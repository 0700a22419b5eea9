// a11y.test.js: axe-core (npm, pinned) checks the pages with every rule it
// has (WCAG 2 A and AA and its best practices): the start page, the rules,
// the room with a table waiting, a profile,
// the game page mid-hand, with the hand summary open, and at the end of a
// match, in light and dark, in Italian and in English. axe is injected with
// page.evaluate: the pages' CSP blocks script tags (phone.js's axe).

'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const h = require('./harness.js');
const { createGame, act, state, finishByAPI } = require('./play.js');
const { axe, COLOURS } = require('./phone.js');

const env = h.suite();
const { skip } = env;
const errors = [];
const seen = new Set();

// Each state is checked in light (every rule) and in dark (the page
// follows the system's scheme as it changes; what changes is its colours,
// so the rules that read colours: issue 42).
async function bothSchemes(page, found, name) {
  // Checked in the page's words: before they come what it drew may be
  // empty (i18n.js marks html[data-words] when they are in).
  await page.waitForSelector('html[data-words]', { state: 'attached' });
  await page.emulateMedia({ colorScheme: 'light' });
  found[`${name} (light)`] = (await axe(page, { seen })) || [];
  await page.emulateMedia({ colorScheme: 'dark' });
  found[`${name} (dark)`] = (await axe(page, { rules: COLOURS, seen })) || [];
}

for (const locale of ['it-IT', 'en-GB']) {
  test(`no accessibility violations, light and dark (${locale})`, { skip, timeout: 180000 }, async () => {
    const { context, page } = await h.newPlayer(env.browser, errors, { width: 1100, height: 800 }, { locale, reducedMotion: 'reduce' });
    const found = {};
    await page.goto(env.server.url + '/rules');
    await page.waitForSelector('article:not([hidden]) section');
    assert.equal(await page.getAttribute('html', 'lang'), locale.slice(0, 2));
    await bothSchemes(page, found, 'rules');
    await page.goto(env.server.url + '/');
    // Its words have come (a rule set's description shows only with them):
    // before them its seat choices and push button are empty.
    await page.waitForSelector('#variants .what:not(:empty)');
    await bothSchemes(page, found, 'start page');
    // The room, with a table waiting in it, and a profile.
    const key = `a11y-${locale}-key-0123456789abcdef`;
    const r = await fetch(env.server.url + '/api/games', { method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ variant: 'fiveup', players: 3, name: 'Cleo', key, open: true, moveTime: 86400 }) });
    const player = (await r.json()).game.seats[0].player;
    await page.goto(env.server.url + '/room');
    await page.waitForSelector('#lobby li button');
    await bothSchemes(page, found, 'room');
    await page.goto(env.server.url + '/p/' + player);
    await page.waitForSelector('#profile:not([hidden]) #profile-facts:not(:empty)');
    await bothSchemes(page, found, 'profile');
    // A league, as its admin sees it (the table, the invite link and its QR code).
    const made = await (await fetch(env.server.url + '/api/leagues', { method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: 'Bearer ' + key },
      body: JSON.stringify({ name: 'Venerdì', variant: 'fiveup' }) })).json();
    await page.goto(`${env.server.url}/#key=${key}`);
    await page.waitForSelector('#create');
    await page.evaluate(([id, invite]) => localStorage.setItem('tessera.invites', JSON.stringify({ [id]: invite })), [made.league.id, made.invite]);
    await page.goto(env.server.url + '/l/' + made.league.id);
    await page.waitForSelector('#league-qr svg');
    await bothSchemes(page, found, 'league');
    // A tournament taking entries, as its creator sees it.
    const tour = await (await fetch(env.server.url + '/api/tournaments', { method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: 'Bearer ' + key },
      body: JSON.stringify({ name: 'Coppa', format: 'swiss', rounds: 2, variant: 'fiveup', players: 2, moveTime: 86400, roundTime: 86400, listed: true }) })).json();
    await page.goto(env.server.url + '/t/' + tour.tournament.id);
    await page.waitForSelector('#tour-start:not([hidden])');
    await bothSchemes(page, found, 'tournament');
    // A game waiting for a friend: its invite link open (issue 33: the
    // share box and the rules link sat outside every landmark).
    await createGame(page, env.server.url, { variant: 'fiveup', players: 2, name: 'Ana' });
    await page.waitForSelector('#menu:not([hidden]) #invite-link');
    await page.waitForSelector('html[data-later]', { state: 'attached' }); // the menu's words come second
    await bothSchemes(page, found, 'game page, waiting for a player');
    // To 150: a first hand that ends the match (to 100 it happened in a
    // warm make test) leaves no hand summary to check.
    await createGame(page, env.server.url, { variant: 'fiveup', players: 2, target: 150, redeal: false, name: 'Ana', seats: ['easy'] });
    await page.waitForSelector('.hand-tile');
    await page.waitForSelector('#notify button:not(:empty)');
    await bothSchemes(page, found, 'game page, mid-hand');
    // The first hand through the page, to its summary; the rest of the
    // match through the API with the page's own seat (it is the states,
    // not the clicks, that are checked here), then the page's match end.
    let summary = false;
    for (let step = 0; step < 600 && !summary; step++) {
      if (await page.isVisible('#summary')) {
        const s = await state(page);
        if (s.status === 'finished') break;
        await bothSchemes(page, found, 'hand summary open');
        summary = true;
        await page.click('#summary-close');
        break;
      }
      if (!(await act(page, { keepSummary: true }))) await page.waitForTimeout(100);
    }
    await finishByAPI([page]);
    await page.waitForFunction(() => document.body.dataset.status === 'finished' && !document.querySelector('#summary').hidden, null, { timeout: 15000 });
    await bothSchemes(page, found, 'match end');
    assert.ok(found['match end (dark)'], 'the match ended');
    assert.ok(found['hand summary open (dark)'], 'a hand ended before the match did');
    await context.close();
    const all = Object.entries(found).filter(([, v]) => v.length).map(([k, v]) => `${k}:\n  ${v.join('\n  ')}`);
    assert.deepEqual(all, [], all.join('\n'));
    assert.deepEqual(errors, []);
  });
}
