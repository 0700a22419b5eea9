// Tournaments (API.md "Tournaments (tornei)") through the pages: a
// four-entrant Swiss tournament made in the room, entered from its page,
// started by its creator, and played through its two rounds; the first
// round ends at its deadline on the test build's clock (the sweep decides
// the game still playing by its scores, and the second round begins).

'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const h = require('./harness.js');
const play = require('./play.js');

const env = h.suite();
const { skip } = env;
const errors = [];

const KEYS = ['ana', 'bea', 'cy', 'dee'].map((n) => `tour-${n}-key-0123456789abcdef`);
const NAMES = ['Ana', 'Bea', 'Cy', 'Dee'];

const api = h.apiOf(env);

const playOut = (id, keys) => play.playOut(api, id, keys);

test('a four-entrant Swiss tournament through its two rounds', { skip, timeout: 240000 }, async () => {
  const pids = {};
  for (let i = 0; i < 4; i++) pids[(await api('PUT', '/api/me/profile', { name: NAMES[i] }, KEYS[i])).id] = KEYS[i];
  const pages = [];
  for (let i = 0; i < 4; i++) {
    const { page, context } = await h.newPlayer(env.browser, errors, { width: 1000, height: 900 }, { locale: i % 2 ? 'it-IT' : 'en-GB' });
    await page.goto(`${env.server.url}/#key=${KEYS[i]}`);
    await page.waitForSelector('#create');
    pages.push({ page, context });
  }
  // Ana makes it in the room.
  const p = pages[0].page;
  await p.goto(`${env.server.url}/room`);
  await p.fill('#tour-form input[name=name]', "Coppa d'inverno");
  await p.selectOption('#tour-form select[name=format]', 'swiss');
  await p.fill('#tour-form input[name=rounds]', '2');
  await p.selectOption('#tour-variant', 'fiveup');
  await p.selectOption('#tour-form select[name=players]', '2');
  await p.fill('#tour-form input[name=target]', '15');
  await p.fill('#tour-form input[name=roundDays]', '1');
  await p.fill('#tour-form input[name=size]', '4');
  await Promise.all([p.waitForURL(/\/t\/[^/]+$/), p.click('#tour-form button[type=submit]')]);
  const id = p.url().split('/t/')[1];
  await p.waitForSelector('#tournament:not([hidden])');
  assert.equal(await p.textContent('#tour-h'), "Coppa d'inverno");

  // Everyone enters from the room's list, the page in their language.
  for (let i = 0; i < 4; i++) {
    const q = pages[i].page;
    await q.goto(`${env.server.url}/room`);
    await q.waitForSelector(`#tour-list a[href="/t/${id}"]`);
    await Promise.all([q.waitForURL(new RegExp(`/t/${id}$`)), q.click(`#tour-list a[href="/t/${id}"]`)]);
    await q.waitForSelector('#tour-enter:not([hidden])');
    await q.click('#tour-enter');
    await q.waitForSelector('#tour-withdraw:not([hidden])');
  }
  await pages[1].page.reload();
  await pages[1].page.waitForSelector('#tour-withdraw:not([hidden])');
  // What to know before entering: rounds, target, time per move and per round (issue 44).
  assert.match(await pages[1].page.textContent('#tour-facts'), /^Svizzera · Five Up · 2 turni · a 15 · 1 giorno a mossa · 1 giorno per turno · 4 iscritti su 4 · iscrizioni aperte$/);
  assert.equal(await pages[1].page.isVisible('#tour-share'), true, 'a share button');
  assert.match(await pages[1].page.textContent('#tournament'), /Buchholz: la somma dei punti degli avversari/);
  await p.reload();
  await p.click('#tour-start');
  await p.waitForFunction(() => document.querySelectorAll('#tour-rounds li').length === 2);
  assert.match(await p.textContent('#tour-facts'), /round 1 of 2/);
  assert.match(await p.textContent('#tour-deadline'), /This round ends: (1 day left|\d+ h left)/);

  // Round 1: one game ends, the other is still playing at the deadline.
  let t = await api('GET', `/api/tournaments/${id}`);
  const [first, second] = t.pairings[0].tables;
  await playOut(first.game, first.players.map((x) => pids[x]));
  const r = await api('POST', '/api/__test/clock', { advance: 86400 + 60 });
  assert.ok(r.swept >= 1, 'the sweep took the tournament');
  t = await api('GET', `/api/tournaments/${id}`);
  assert.equal(t.round, 2);
  assert.ok(t.pairings[0].tables.every((tb) => tb.points !== null), 'round 1 is decided');
  const still = await api('GET', `/api/games/${second.game}`);
  assert.equal(still.status, 'playing', 'a game decided at the deadline plays on');
  // Its players are told, on the game's page and in the inbox, in their
  // language: the table is decided, the game goes on; the inbox names each
  // game's tournament and round.
  const t1 = t.pairings[0].tables[1];
  const decided = t1.players.map((x) => KEYS.indexOf(pids[x]));
  for (const i of decided) {
    const q = pages[i].page;
    await q.goto(`${env.server.url}/g/${second.game}`);
    await q.waitForSelector('#tour-box:not([hidden]) #tour-line');
    assert.match(await q.textContent('#tour-line'), i % 2
      ? /^Coppa d'inverno, turno 1 di 2 · decisa alla scadenza del turno da chi era avanti in quel momento; punti del torneo: .+ \d+ – .+ \d+\. La partita continua per divertimento\.$/
      : /^Coppa d'inverno, round 1 of 2 · decided at the round's deadline by who was ahead then; tournament points: .+ \d+ – .+ \d+\. The game goes on for fun\.$/);
    await q.goto(env.server.url + '/');
    await q.waitForSelector(`li[data-game="${second.game}"] a.game-where`);
    assert.equal(await q.textContent(`li[data-game="${second.game}"] a.game-where`), i % 2 ? "Torneo: Coppa d'inverno" : "Tournament: Coppa d'inverno");
    assert.ok((await q.textContent(`li[data-game="${second.game}"]`)).includes(i % 2 ? 'decisa alla scadenza; la partita continua' : 'decided at the deadline; the game goes on'));
  }

  // Round 2: both games played to their end; the tournament finishes.
  for (const tb of t.pairings[1].tables) await playOut(tb.game, tb.players.map((x) => pids[x]));
  t = await api('GET', `/api/tournaments/${id}`);
  assert.equal(t.status, 'finished');
  assert.equal(t.winner, t.entries[0].player);
  for (const [i, { page }] of pages.entries()) {
    await page.goto(`${env.server.url}/t/${id}`);
    await page.waitForFunction(() => document.querySelectorAll('#tour-table tr').length === 4);
    assert.match(await page.textContent('#tour-facts'), i % 2 ? /finito/ : /finished/);
    const rows = await page.locator('#tour-table tr').allTextContents();
    assert.ok(rows[0].startsWith('1' + t.entries[0].name), rows.join(' | '));
  }
  assert.equal(await p.locator('#tour-rounds h2').count(), 2);
  await h.shot(p, 'tournament');
  for (const { context } of pages) await context.close();
  assert.deepEqual(errors, [], 'no console errors');
});

// A Swiss round of three: one entrant sits it out, and their inbox says
// so (a bye, 1 point, and when the next round starts), on a phone, in
// Italian and in English.
test('a bye shows in the inbox of the one who sits out', { skip, timeout: 120000 }, async () => {
  const keys = ['uno', 'due', 'tre'].map((n) => `bye-${n}-key-0123456789abcdef`);
  const pids = {};
  for (const [i, k] of keys.entries()) pids[(await api('PUT', '/api/me/profile', { name: ['Uno', 'Due', 'Tre'][i] }, k)).id] = k;
  const made = await api('POST', '/api/tournaments', { name: 'Coppa a tre', format: 'swiss', rounds: 2, variant: 'fiveup', players: 2, target: 15, moveTime: 86400, roundTime: 86400, size: 3, listed: false }, keys[0]);
  for (const k of keys) await api('POST', `/api/tournaments/${made.tournament.id}/entries`, { invite: made.invite }, k);
  const t = await api('POST', `/api/tournaments/${made.tournament.id}/start`, {}, keys[0]);
  const bye = t.tournament.pairings[0].tables.find((tb) => tb.game === null);
  const playing = t.tournament.pairings[0].tables.find((tb) => tb.game !== null);
  for (const locale of ['it-IT', 'en-GB']) {
    const { page, context } = await h.newPlayer(env.browser, errors, { width: 390, height: 844 }, { locale });
    await page.goto(`${env.server.url}/#key=${pids[bye.players[0]]}`);
    await page.waitForSelector('#my-games li.bye a');
    assert.match(await page.textContent('#my-games li.bye a'), locale === 'it-IT'
      ? /^Coppa a tre, turno 1: questo turno riposi \(1 punto\)\. Il prossimo turno comincia entro il .+\.$/
      : /^Coppa a tre, round 1: you sit this round out \(a bye, 1 point\)\. The next round starts by .+\.$/);
    await context.close();
    // Who plays sees their game named by the tournament and round instead.
    const other = await h.newPlayer(env.browser, errors, { width: 390, height: 844 }, { locale });
    await other.page.goto(`${env.server.url}/#key=${pids[playing.players[0]]}`);
    await other.page.waitForSelector(`li[data-game="${playing.game}"] a.game-where`);
    assert.equal(await other.page.textContent(`li[data-game="${playing.game}"] a.game-where`), locale === 'it-IT' ? 'Coppa a tre, turno 1' : 'Coppa a tre, round 1');
    assert.equal(await other.page.locator('#my-games li.bye').count(), 0, 'no bye for who plays');
    await other.context.close();
  }
  assert.deepEqual(errors, [], 'no console errors');
});
