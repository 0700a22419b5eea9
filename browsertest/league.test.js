// Leagues (API.md "Leagues (leghe)") through the pages: four friends make
// a league (one creates it in the room, three join by its invite link, in
// Italian and English), two league matches end, and the table shows them;
// the admin's invite link and QR code, a new invite, a member removed, and
// a new league game from the league's page.

'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const h = require('./harness.js');

const env = h.suite();
const { skip } = env;
const errors = [];

const KEYS = ['ana', 'bea', 'cy', 'dee'].map((n) => `league-${n}-key-0123456789abcdef`);
const NAMES = ['Ana', 'Bea', 'Cy', 'Dee'];

const api = h.apiOf(env);

/** leagueMatch: a 4-player Five Up league game of the four, played to its end through the API. */
async function leagueMatch(league) {
  const a = await api('POST', '/api/games', { variant: 'fiveup', players: 4, pairs: true, target: 20, name: 'Ana', key: KEYS[0], league });
  const tokens = [a.token];
  for (let i = 1; i < 4; i++) tokens.push((await api('POST', `/api/games/${a.game.id}/seats`, { name: NAMES[i], key: KEYS[i] })).token);
  for (let n = 0; n < 3000; n++) {
    const v = await api('GET', `/api/games/${a.game.id}`);
    if (v.status === 'finished') return v;
    for (const tok of tokens) {
      const w = await api('GET', `/api/games/${a.game.id}`, null, tok);
      const move = w.you.confirm ? { type: 'keep' } : w.you.legal.length ? { type: 'play', ...w.you.legal[0] } : null;
      if (move) { await api('POST', `/api/games/${a.game.id}/moves`, { version: w.version, ...move }, tok); break; }
    }
  }
  throw new Error('the league match did not end');
}

test('four friends make a league, two league matches end, the table shows them', { skip, timeout: 240000 }, async () => {
  const pages = [];
  for (let i = 0; i < 4; i++) {
    const { page, context } = await h.newPlayer(env.browser, errors, { width: 1000, height: 900 }, { locale: i % 2 ? 'it-IT' : 'en-GB' });
    await page.goto(`${env.server.url}/#key=${KEYS[i]}`);
    await page.waitForSelector('#create');
    pages.push({ page, context });
  }
  // Ana is new (no name, no game yet): the league form asks for her name and
  // makes the league at once.
  const p = pages[0].page;
  await p.goto(`${env.server.url}/room`);
  await p.fill('#league-form input[name=name]', 'Venerdì al bar');
  await p.selectOption('#league-variant', 'fiveup');
  await p.click('#league-form button[type=submit]');
  await p.waitForSelector('#league-error:not([hidden])');
  assert.equal(await p.textContent('#league-error'), 'Please enter your name.');
  await p.fill('#league-form input[name=you]', 'Ana');
  // The league decides whether its games have hints (docs/hints.md).
  await p.check('#league-form input[name=hints]');
  await Promise.all([p.waitForURL(/\/l\/[^/]+$/), p.click('#league-form button[type=submit]')]);
  const id = p.url().split('/l/')[1];
  await p.waitForSelector('#league-body:not([hidden])');
  assert.equal(await p.textContent('#league-h'), 'Venerdì al bar');
  assert.match(await p.textContent('#league-facts'), /hints allowed/);
  const link = await p.inputValue('#league-link');
  assert.match(link, new RegExp(`/l/${id}#invite=`));
  assert.equal(await p.locator('#league-qr svg').count(), 1, 'the invite link as a QR code');

  // Three friends join by the link (two in Italian), naming themselves there;
  // the invite says which league and who runs it.
  for (let i = 1; i < 4; i++) {
    const q = pages[i].page;
    await q.goto(link);
    await q.waitForSelector('#league-join:not([hidden])');
    await q.waitForFunction(() => document.querySelector('#league-h').textContent === 'Venerdì al bar');
    assert.equal(await q.textContent('#league-invited'), i % 2 ? 'Ana ti invita nella lega Venerdì al bar.' : 'Ana invites you to the league Venerdì al bar.');
    assert.equal(await q.title(), 'Venerdì al bar — Tessera');
    await q.fill('#league-name', NAMES[i]);
    await q.click('#league-join-btn');
    await q.waitForSelector('#league-body:not([hidden])');
    assert.equal(new URL(q.url()).hash, '', 'the invite leaves the address bar');
  }
  assert.equal(await pages[1].page.textContent('#league-table-none'), 'In questa stagione non è ancora finita nessuna partita della lega.');

  // Two league matches end: the table counts them, in both languages.
  const ends = [await leagueMatch(id), await leagueMatch(id)];
  const wins = [0, 0];
  for (const v of ends) wins[v.winner]++;
  for (const [i, q] of pages.map((x) => x.page).entries()) {
    await q.reload();
    await q.waitForFunction(() => document.querySelectorAll('#league-table tr').length === 4);
    const rows = await q.locator('#league-table tr').allTextContents();
    for (const name of NAMES) assert.ok(rows.some((r) => r.includes(name)), `${name} in ${rows.join(' | ')}`);
    const mine = rows.find((r) => r.includes(NAMES[i]));
    const won = wins[i % 2];
    assert.match(mine, new RegExp(`${NAMES[i]}2${won}${2 - won}`), `row ${mine}`);
    assert.equal(await q.locator('#league-games li').count(), 2);
  }
  await h.shot(p, 'league');

  // The admin makes a new invite (the old link stops working) and removes Dee.
  await p.click('#league-rotate');
  await p.waitForFunction((old) => document.querySelector('#league-link').value !== old, link);
  const d = pages[3].page;
  await d.goto(`${env.server.url}/room`);
  await d.goto(link); // the old link: a member still sees the league
  await d.waitForSelector('#league-body:not([hidden])');
  // Removing asks first: "Keep" changes nothing, "Remove" removes.
  await p.click('button[aria-label="Remove Dee from the league"]');
  await p.waitForSelector('#league-members [role=group]');
  assert.match(await p.textContent('#league-members [role=group]'), /^Remove Dee from the league\? Their past matches stay in the table\./);
  await p.click('#league-members [role=group] button:has-text("Keep")');
  assert.equal(await p.locator('#league-members li').count(), 4, 'kept');
  await p.click('button[aria-label="Remove Dee from the league"]');
  await p.click('#league-members [role=group] button.danger');
  await p.waitForFunction(() => document.querySelectorAll('#league-members li').length === 3);
  await d.reload();
  await d.waitForSelector('#missing:not([hidden])');
  assert.equal(await d.textContent('#missing-h'), 'Questa lega non esiste, o non ne fai parte.');
  // Dee's row stays in the table.
  assert.equal(await p.locator('#league-table tr').count(), 4);

  // A new league game from the league's page is set up like any game: the
  // start page, in the league's rule set, with a computer seat.
  await Promise.all([p.waitForURL(/\/\?league=/), p.click('#league-game')]);
  await p.waitForSelector('#league-note:not([hidden])');
  assert.match(await p.textContent('#league-note'), /^A game of the league Venerdì al bar/);
  assert.equal(await p.locator('#variants input:not([disabled])').count(), 1, 'the league\'s rule set only');
  await p.fill('#create input[name=name]', 'Ana');
  await p.selectOption('#create select[name=players]', '3');
  await p.selectOption('#seats select[name=seat2]', 'easy');
  await Promise.all([p.waitForURL(/\/g\/[^/]+$/), p.click('#create button[type=submit]')]);
  const game = p.url().split('/g/')[1];
  const me = await api('GET', '/api/me', null, KEYS[0]);
  assert.equal(me.games.find((g) => g.id === game).league, id, 'the new game is the league\'s');
  assert.deepEqual(me.leagues, [{ id, name: 'Venerdì al bar' }]);
  // The inbox names each game's league.
  await p.goto(env.server.url + '/');
  await p.waitForSelector(`li[data-game="${game}"] a.game-where`);
  assert.equal(await p.textContent(`li[data-game="${game}"] a.game-where`), 'League: Venerdì al bar');
  for (const { context } of pages) await context.close();
  // The browser logs the answers the test asked for: the nameless key's
  // 409 and the removed member's 404.
  assert.deepEqual(errors.filter((e) => !/status of (404|409)/.test(e)), [], 'no other console errors');
});
