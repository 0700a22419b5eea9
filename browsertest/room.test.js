// The room (API.md "Community"), through the pages: two players find each
// other in the room, play a rated match to the end, and see the change of
// their ratings on the table, on the profile and, after enough rated
// matches made through the API, on the leaderboard. Both languages.

'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const h = require('./harness.js');
const { playToEnd, finishByAPI, state } = require('./play.js');

const env = h.suite();
const { skip } = env;
const errors = [];

const KEYS = { ana: 'room-ana-key-0123456789abcdef', bea: 'room-bea-key-0123456789abcdef' };

const api = h.apiOf(env);

/** duelByAPI: Ana's open game (rated or not), Bea seated, both away: the computer plays it to its end. */
async function duelByAPI(rated) {
  const a = await api('POST', '/api/games', { variant: 'fiveup', players: 2, target: 10, name: 'Ana', key: KEYS.ana, open: true, rated, moveTime: 3600 });
  const b = await api('POST', `/api/games/${a.game.id}/seats`, { name: 'Bea', key: KEYS.bea });
  for (const tok of [a.token, b.token]) {
    const v = await api('GET', `/api/games/${a.game.id}`, null, tok);
    if (v.status === 'finished') break;
    await api('POST', `/api/games/${a.game.id}/moves`, { version: v.version, type: 'away' }, tok);
  }
  const v = await api('GET', `/api/games/${a.game.id}`);
  assert.equal(v.status, 'finished', 'an open game where everyone is away plays on to its end');
}

/** asPlayer opens a page whose device holds key (the player link), in locale. */
async function asPlayer(key, locale) {
  const { page, context } = await h.newPlayer(env.browser, errors, { width: 1000, height: 900 }, { locale });
  await page.goto(`${env.server.url}/#key=${key}`);
  await page.waitForSelector('#create');
  return { page, context };
}

test('two players meet in the room, play a rated match, and see their ratings change', { skip, timeout: 240000 }, async () => {
  for (let i = 0; i < 3; i++) await duelByAPI(false); // three finished matches: both may play rated
  const ana = await asPlayer(KEYS.ana, 'en-GB');
  const bea = await asPlayer(KEYS.bea, 'it-IT');

  // Ana lists a rated table from the start page.
  const p = ana.page;
  await p.check('input[name=variant][value=fiveup]');
  await p.selectOption('select[name=players]', '2');
  await p.fill('input[name=target]', '15');
  await p.fill('input[name=name]', 'Ana');
  await p.check('input[name=rated]');
  assert.ok(await p.isChecked('input[name=open]'), 'a rated table is listed in the room');
  assert.ok(await p.isDisabled('select[name=seat1]'), 'a rated table has no computer seat');
  await Promise.all([p.waitForURL(/\/g\/[^/]+$/), p.click('#create button[type=submit]')]);
  const id = p.url().split('/g/')[1];

  // Bea finds it in the room (in Italian) and sits down.
  const b = bea.page;
  await b.goto(`${env.server.url}/room`);
  await b.waitForSelector(`#lobby li[data-game="${id}"]`);
  assert.equal(await b.textContent('#tables-h'), 'Tavoli aperti');
  const entry = b.locator(`#lobby li[data-game="${id}"]`);
  assert.match(await entry.textContent(), /Five Up · 2 giocatori · a 15 · 1 giorno a mossa/);
  assert.match(await entry.textContent(), /Classificata/);
  assert.match(await entry.textContent(), /Ana · 1500 \(provvisorio\)/); // fewer than 10 rated matches
  await b.fill('#name', 'Bea');
  await Promise.all([b.waitForURL(new RegExp(`/g/${id}$`)), entry.locator('button').click()]);
  await b.waitForSelector('body[data-version]');
  await p.evaluate(() => window.dispatchEvent(new Event('focus')));

  // The table shows each seat's rating; the match is played to its end.
  await p.waitForFunction(() => document.body.dataset.status === 'playing');
  assert.match(await p.textContent('.seat[data-seat="1"]'), /1500 \(provisional\)/);
  // Four moves through the pages, the rest through the API with each
  // page's own seat (the ratings are what is checked here; fiveup.test.js
  // plays a match by clicks).
  await playToEnd([p, b], { stop: async () => (await state(p)).version >= 6 && (await state(b)).version >= 6 });
  await finishByAPI([p, b]);
  const after = await api('GET', `/api/games/${id}`);
  assert.ok(after.rated && after.seats.every((s) => s.rating === 1500 && s.provisional && s.ratingAfter !== null), JSON.stringify(after.seats));
  for (const [page, seat, word] of [[p, 0, 'provisional'], [b, 1, 'provvisorio']]) {
    const s = after.seats[seat];
    await page.waitForFunction((want) => document.querySelector(`.seat[data-seat="${want.seat}"]`)?.textContent.includes(want.text),
      { seat, text: `1500 (${word}) → ${s.ratingAfter}` });
  }

  // The name on the table leads to the profile: the new rating, provisional, and the match.
  const anaID = after.seats[0].player;
  await b.click('#summary-close').catch(() => {});
  await Promise.all([b.waitForURL(new RegExp(`/p/${anaID}$`)), b.click(`.seat[data-seat="0"] .name a`)]);
  await b.waitForSelector('#profile:not([hidden])');
  assert.equal(await b.textContent('#profile-h'), 'Ana');
  const ratings = await b.textContent('#ratings');
  assert.ok(ratings.includes(`Five Up in due: ${after.seats[0].ratingAfter} ?`), ratings);
  assert.match(ratings, /provvisorio/);
  assert.match(await b.textContent('#recent'), new RegExp(`1500 → ${after.seats[0].ratingAfter}`));
  assert.match(await b.textContent('#profile-facts'), /4 partite finite · affidabile al 100%/);
  // The trophy shelf: earned and not yet, a line each on how.
  assert.match(await b.textContent('#trophies li.earned'), /^Prima partita — finisci la tua prima partita · vinto il /);
  assert.equal(await b.locator('#trophies li').count(), 12);
  assert.match(await b.textContent('#trophies'), /Vincitore di torneo — vinci un torneo di almeno 4 giocatori · non ancora/);

  // Nine more rated matches through the API: ten each, on the leaderboard.
  for (let i = 0; i < 9; i++) await duelByAPI(true);
  await p.goto(`${env.server.url}/room`);
  await p.selectOption('#f-pool', 'fiveup-duel');
  await p.waitForFunction(() => document.querySelectorAll('#board tr').length === 2);
  const rows = await p.locator('#board tr').allTextContents();
  assert.ok(rows.some((r) => r.includes('Ana')) && rows.some((r) => r.includes('Bea')), rows.join(' | '));
  assert.match(rows[0], /^1/);
  const anaProfile = await api('GET', `/api/players/${anaID}`);
  assert.equal(anaProfile.ratings['fiveup-duel'].games, 10);
  assert.equal(anaProfile.ratings['fiveup-duel'].provisional, false);
  // A player's chart: drawn from the history, with its words.
  await p.goto(`${env.server.url}/p/${anaID}`);
  await p.waitForSelector('#ratings svg.rating-chart');
  assert.match(await p.getAttribute('#ratings svg.rating-chart', 'aria-label'), /^Five Up, two players: rating from \d+ to \d+$/);
  await h.shot(p, 'profile');

  assert.deepEqual(errors, [], 'no console errors');

  // An unknown player: the page's own "not found" (the browser logs the
  // API's 404, and nothing else).
  await p.goto(`${env.server.url}/p/nobody0000000000`);
  await p.waitForSelector('#missing:not([hidden])');
  assert.equal(await p.textContent('#missing h1'), 'There is no such player.');
  assert.deepEqual(errors, ['console: Failed to load resource: the server responded with a status of 404 (Not Found)']);
  await ana.context.close();
  await bea.context.close();
});

// Eligibility is told before the form is sent (issue 33): a new key's
// "Rated" is off, with how many matches it still needs, in its language;
// one match finished, one fewer.
test('the start page says how many matches a rated table still needs', { skip, timeout: 90000 }, async () => {
  const key = 'room-new-key-0123456789abcdefgh';
  for (const [locale, want] of [['it-IT', /te ne mancano 3\.$/], ['en-GB', /finish 3 more first\.$/]]) {
    const mine = [];
    const { page, context } = await h.newPlayer(env.browser, mine, { width: 1000, height: 900 }, { locale });
    await page.goto(`${env.server.url}/#key=${key}`);
    await page.waitForSelector('#create');
    await page.check('input[name=variant][value=fiveup]');
    await page.waitForSelector('#rated-hint:not([hidden])');
    assert.match(await page.textContent('#rated-hint'), want);
    assert.ok(await page.isDisabled('input[name=rated]'), 'rated is off');
    await page.check('input[name=variant][value=block]');
    assert.ok(await page.isHidden('#rated-hint'), 'no hint where the rule set is never rated');
    await context.close();
    assert.deepEqual(mine, [], 'no console errors');
  }
});
