// Trophies and vacation (API.md "Trophies", "Vacation"; issue 24) through
// the pages: a match that earns first-match and domino shows them at its
// end and on the profile's shelf; a player goes on vacation from the inbox,
// the others see it on the table with the clock stopped, and it ends from
// the inbox with the days not begun given back.

'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const h = require('./harness.js');

const env = h.suite();
const { skip } = env;
const errors = [];

const api = h.apiOf(env);

/**
 * dominoMatch plays partnership matches to 1 point, a new key each (so the
 * match is its first), seat 0 by the API and the others by the computer,
 * until seat 0 goes out (domino). -> {id, key, view}
 */
async function dominoMatch() {
  for (let tries = 0; tries < 60; tries++) {
    const key = `vacation-trophy-key-${tries}-0123456789`;
    const a = await api('POST', '/api/games', { variant: 'partnership', target: 1, name: 'Ana', key,
      bots: [1, 2, 3].map((seat) => ({ seat, level: 'easy' })) });
    const id = a.game.id;
    let v = a.game;
    for (let n = 0; n < 40 && v.status === 'playing'; n++) {
      const mv = v.you.legal[0];
      if (!mv) break;
      v = (await api('POST', `/api/games/${id}/moves`, { version: v.version, type: 'play', tile: mv.tile, end: mv.end }, key)).game
        || await api('GET', `/api/games/${id}`, null, key);
    }
    v = await api('GET', `/api/games/${id}`, null, key);
    if (v.status === 'finished' && v.trophies.some((x) => x.seat === 0 && x.id === 'domino')) return { id, key, view: v };
  }
  throw new Error('no match of 60 ended with seat 0 going out');
}

test('a match that earns first-match and domino shows them at its end and on the profile', { skip, timeout: 240000 }, async () => {
  const { id, key, view } = await dominoMatch();
  const mine = view.trophies.filter((x) => x.seat === 0).map((x) => x.id);
  assert.ok(mine.includes('domino') && mine.includes('first-match'), mine.join());
  const { page, context } = await h.newPlayer(env.browser, errors, { width: 1000, height: 900 }, { locale: 'en-GB' });
  await page.goto(`${env.server.url}/g/${id}#seat=${key}`);
  // At the end: in the match's summary, and beside the rematch once it is closed.
  await page.waitForSelector('.summary .won a');
  assert.equal(await page.textContent('.summary .won a'), await page.textContent('#won a'));
  const won = await page.textContent('#won');
  assert.match(won, /^Trophies earned: /);
  assert.ok(won.includes('First match') && won.includes('Domino!'), won);
  await h.shot(page, 'trophies-won');
  // Its link is the player's shelf: both earned there, in Italian too.
  await page.evaluate(() => localStorage.setItem('tessera.lang', 'it'));
  await Promise.all([page.waitForURL(/\/p\//), page.click('#won a')]);
  await page.waitForSelector('#trophies li.earned');
  const earned = await page.$$eval('#trophies li.earned strong', (xs) => xs.map((x) => x.textContent));
  assert.ok(earned.includes('Domino!') && earned.includes('Prima partita'), earned.join());
  assert.equal(earned.length, mine.length, 'the shelf holds what the match earned, once each');
  await context.close();
  assert.deepEqual(errors, []);
});

test('a player on vacation is shown so to the others, with the clock stopped, and ends it from the inbox', { skip, timeout: 240000 }, async () => {
  const keys = ['vacation-ana-key-0123456789abcd', 'vacation-bea-key-0123456789abcd'];
  const a = await api('POST', '/api/games', { variant: 'fiveup', players: 2, redeal: false, name: 'Ana', key: keys[0], moveTime: 3600 });
  const id = a.game.id;
  await api('POST', `/api/games/${id}/seats`, { name: 'Bea', key: keys[1] });
  const start = await api('GET', `/api/games/${id}`);
  const away = start.hand.turn; // the seat that must act goes on vacation
  const other = 1 - away;
  const names = ['Ana', 'Bea'];

  // The one to act takes 3 days from the inbox (in Italian).
  const owner = await h.newPlayer(env.browser, errors, { width: 390, height: 844 }, { locale: 'it-IT' });
  await owner.page.goto(`${env.server.url}/#key=${keys[away]}`);
  await owner.page.waitForSelector('#vacation:not([hidden])');
  assert.match(await owner.page.textContent('#vac-state'), /Hai 7 giorni di vacanza/);
  await owner.page.fill('#vac-days', '3');
  await owner.page.click('#vac-btn');
  await owner.page.waitForFunction(() => /in vacanza fino al/i.test(document.querySelector('#vac-state').textContent));
  const me = await api('GET', '/api/me', null, keys[away]);
  assert.equal(me.player.vacation.budgetDays, 4);
  assert.ok(me.player.vacation.until);

  // The other sees it on the table: no countdown on that seat; and in the inbox.
  const seen = await h.newPlayer(env.browser, errors, { width: 1000, height: 900 }, { locale: 'en-GB' });
  await seen.page.goto(`${env.server.url}/g/${id}#seat=${keys[other]}`);
  const card = seen.page.locator(`.seat[data-seat="${away}"]`);
  await card.locator('text=on vacation until').waitFor();
  assert.equal(await card.locator('.countdown').count(), 0, 'the clock of a seat on vacation is stopped');
  assert.match(await card.getAttribute('aria-label'), /on vacation until/);
  // It says why this clock stops (a friendly game; in a rated or a
  // tournament game it would run: issue 33).
  assert.match(await card.textContent(), /on vacation until .+: the clock is stopped/);
  const v = await api('GET', `/api/games/${id}`);
  assert.equal(v.hand.deadline, null);
  assert.equal(v.seats[away].vacation, me.player.vacation.until);
  await h.shot(seen.page, 'vacation-seat');
  await seen.page.goto(`${env.server.url}/#key=${keys[other]}`);
  // The line is drawn at once from what this device kept, then again from
  // the server's /api/me, which says the vacation: wait for that drawing.
  const line = `#my-games li[data-game="${id}"]`;
  await seen.page.waitForSelector(line);
  await seen.page.waitForFunction(([sel, name]) => new RegExp(`${name} on vacation until`).test(document.querySelector(sel).textContent), [line, names[away]], { timeout: 10000 }).catch(() => {});
  assert.match(await seen.page.textContent(line), new RegExp(`${names[away]} on vacation until`));

  // It ends from the inbox: two of the three days had not begun.
  await owner.page.click('#vac-btn');
  await owner.page.waitForFunction(() => /Hai 6 giorni/.test(document.querySelector('#vac-state').textContent));
  const after = await api('GET', `/api/games/${id}`);
  assert.equal(after.seats[away].vacation, null);
  assert.ok(after.hand.deadline, 'a fresh moveTime once the vacation ends');
  await seen.page.goto(`${env.server.url}/g/${id}#seat=${keys[other]}`);
  await seen.page.locator(`.seat[data-seat="${away}"] .countdown`).waitFor();
  await owner.context.close();
  await seen.context.close();
  assert.deepEqual(errors, []);
});
