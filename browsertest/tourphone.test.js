// tourphone.test.js (issue 33): a Swiss tournament of five entrants and two
// rounds, as each entrant sees it on a phone (390x844, touch), Italian and
// English in turn: round 1 with its bye, a game decided at the round's
// deadline (the test build's clock) while it plays on, round 2, and the
// end. In each state the home page, the tournament page and the entrant's
// game answer "what do I play now, until when, what has been decided",
// with axe (every rule, best practice included), every control 44 px tall
// and a 7-tile hand's tiles 40 px wide.

'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const h = require('./harness.js');
const play = require('./play.js');
const { PHONE, check, failures } = require('./phone.js');

const env = h.suite();
const { skip } = env;
const api = h.apiOf(env);

const NAMES = ['Ada', 'Bo', 'Cai', 'Dag', 'Eli'];
const KEYS = NAMES.map((n) => `tphone-${n.toLowerCase()}-key-0123456789abcdef`);

const playOut = (id, keys) => play.playOut(api, id, keys);

test('a Swiss tournament with a bye and a deadline, as each of its five entrants sees it on a phone', { skip, timeout: 300000 }, async () => {
  const errors = [];
  const found = {};
  const pid = {}; // key -> player id
  for (const [i, k] of KEYS.entries()) pid[k] = (await api('PUT', '/api/me/profile', { name: NAMES[i] }, k)).id;
  const made = await api('POST', '/api/tournaments', { name: 'Coppa del telefono', format: 'swiss', rounds: 2, variant: 'fiveup', players: 2, target: 100, moveTime: 86400, roundTime: 86400, size: 5, listed: false }, KEYS[0]);
  const id = made.tournament.id;
  for (const k of KEYS) await api('POST', `/api/tournaments/${id}/entries`, { invite: made.invite }, k);
  await api('POST', `/api/tournaments/${id}/start`, {}, KEYS[0]);
  const people = [];
  for (const [i, k] of KEYS.entries()) {
    const locale = i % 2 ? 'en-GB' : 'it-IT';
    const context = await env.browser.newContext({ ...PHONE, locale, reducedMotion: 'reduce' });
    const page = h.watch(await context.newPage(), errors);
    await page.goto(`${env.server.url}/#key=${k}`);
    await page.waitForSelector('#create');
    people.push({ i, k, it: locale === 'it-IT', context, page, name: NAMES[i] });
  }
  const tableOf = (t, k) => t.pairings[t.pairings.length - 1].tables.find((tb) => tb.players.includes(pid[k]));

  /** look checks what entrant e sees of the tournament in state: its page and, when it has one, its game. */
  const look = async (e, state, t, want) => {
    const p = e.page;
    const tag = `${state}, ${e.name} (${e.it ? 'it' : 'en'})`;
    await p.goto(`${env.server.url}/t/${id}`);
    await p.waitForSelector('#tour-you:not([hidden])');
    await p.waitForFunction(() => document.querySelector('#tour-you-line').textContent !== '');
    const line = await p.textContent('#tour-you-line');
    assert.match(line, want, `${tag}: the tournament page says ${line}`);
    await check(p, found, `${tag}: the tournament page`);
    const tb = tableOf(t, e.k);
    if (t.status !== 'playing' || !tb.game) return;
    if (!tb.points) {
      // Its game is one tap away, and opens with the tournament's line.
      await Promise.all([p.waitForURL(new RegExp(`/g/${tb.game}$`)), p.click('#tour-you-game')]);
    } else {
      await p.goto(`${env.server.url}/g/${tb.game}`);
    }
    await p.waitForSelector('#tour-box:not([hidden]) #tour-line');
    await p.waitForSelector('body[data-version]');
    if (await p.evaluate(() => document.body.dataset.status) !== 'playing') { // a game over: the table, no hand
      await check(p, found, `${tag}: the game`);
      return;
    }
    await p.waitForSelector('.hand-tile');
    const hand = await p.evaluate(() => [...document.querySelectorAll('.hand-tile')].map((x) => { const r = x.getBoundingClientRect(); return { w: r.width, l: r.left, r: r.right }; }));
    for (const x of hand) assert.ok(x.w >= 40 - 0.5 && x.l >= 0 && x.r <= 390 + 0.5, `${tag}: a hand tile ${x.w.toFixed(1)} px wide at ${x.l.toFixed(0)}-${x.r.toFixed(0)}`);
    await check(p, found, `${tag}: the game`);
    return p.textContent('#tour-line');
  };

  // Round 1: two tables and a bye (the last entrant by player id).
  let t = await api('GET', `/api/tournaments/${id}`);
  assert.equal(t.round, 1);
  for (const e of people) {
    const tb = tableOf(t, e.k);
    const want = !tb.game
      ? (e.it ? /^Turno 1: questo turno riposi \(1 punto\)\. Il prossimo turno comincia entro il .+\.$/ : /^Round 1: you sit this round out \(a bye, 1 point\)\. The next round starts by .+\.$/)
      : (e.it ? /^Turno 1: giochi contro (Ada|Bo|Cai|Dag|Eli), entro il .+ \(.+\)\.$/ : /^Round 1: you play (Ada|Bo|Cai|Dag|Eli), until .+ \(.+\)\.$/);
    await look(e, 'round 1', t, want);
    // The home page: the game named by tournament and round, or the bye.
    await e.page.goto(`${env.server.url}/`);
    await e.page.waitForSelector(tb.game ? `li[data-game="${tb.game}"] a.game-where` : '#my-games li.bye a');
    await check(e.page, found, `round 1, ${e.name}: the home page`);
  }

  // Table 1's game ends; table 2's is still playing at the deadline.
  const [first, second] = t.pairings[0].tables.filter((tb) => tb.game);
  const keyOf = (p) => KEYS.find((k) => pid[k] === p);
  await playOut(first.game, first.players.map(keyOf));
  assert.ok((await api('POST', '/api/__test/clock', { advance: 86400 + 60 })).swept >= 1, 'the sweep took the round');
  t = await api('GET', `/api/tournaments/${id}`);
  assert.equal(t.round, 2);
  assert.equal((await api('GET', `/api/games/${second.game}`)).status, 'playing', 'a game decided at the deadline plays on');

  // Round 2, as each entrant sees it; who played the decided game sees on
  // its page what was decided and what the game still counts for.
  for (const e of people) {
    const tb = tableOf(t, e.k);
    const want = !tb.game
      ? (e.it ? /^Turno 2: questo turno riposi \(1 punto\)\. Il torneo finisce entro il .+\.$/ : /^Round 2: you sit this round out \(a bye, 1 point\)\. The tournament ends by .+\.$/)
      : (e.it ? /^Turno 2: giochi contro .+, entro il .+\.$/ : /^Round 2: you play .+, until .+\.$/);
    await look(e, 'round 2', t, want);
    if (!tb.game) { // the last round's bye, on the home page: the tournament ends, no next round (issue 44)
      await e.page.goto(`${env.server.url}/`);
      await e.page.waitForSelector('#my-games li.bye a');
      assert.match(await e.page.textContent('#my-games li.bye a'), e.it ? /Il torneo finisce entro il .+\.$/ : /The tournament ends by .+\.$/);
    }
    if (second.players.includes(pid[e.k])) {
      await e.page.goto(`${env.server.url}/g/${second.game}`);
      await e.page.waitForSelector('#tour-box:not([hidden]) #tour-line');
      assert.match(await e.page.textContent('#tour-line'), e.it
        ? /^Coppa del telefono, turno 1 di 2 · decisa alla scadenza del turno da chi era avanti in quel momento; punti del torneo: .+ \d+ – .+ \d+\. La partita continua per divertimento\.$/
        : /^Coppa del telefono, round 1 of 2 · decided at the round's deadline by who was ahead then; tournament points: .+ \d+ – .+ \d+\. The game goes on for fun\.$/);
      await check(e.page, found, `round 2, ${e.name}: the game decided at the deadline`);
    }
  }
  // Round 2's first game ends: its players read their points and when
  // the tournament ends.
  const done = t.pairings[1].tables.find((tb) => tb.game);
  await playOut(done.game, done.players.map(keyOf));
  t = await api('GET', `/api/tournaments/${id}`);
  for (const e of people.filter((x) => done.players.includes(pid[x.k]))) {
    const pts = tableOf(t, e.k).points[tableOf(t, e.k).players.indexOf(pid[e.k])];
    const want = e.it
      ? new RegExp(`^Turno 2: la tua partita è finita, ${pts} punt${pts === 1 ? 'o' : 'i'} per te\\. Il torneo finisce entro il .+\\.$`)
      : new RegExp(`^Round 2: your game is over, ${pts} point${pts === 1 ? '' : 's'} for you\\. The tournament ends by .+\\.$`);
    await look(e, 'round 2, a game over', t, want);
  }
  // The last game ends, and with it the tournament: each entrant's place.
  for (const tb of t.pairings[1].tables.filter((x) => x.game && x.game !== done.game)) await playOut(tb.game, tb.players.map(keyOf));
  t = await api('GET', `/api/tournaments/${id}`);
  assert.equal(t.status, 'finished');
  for (const e of people) {
    const me = t.entries.find((x) => x.player === pid[e.k]);
    const want = e.it
      ? new RegExp(`^Finito: ${me.rank}º posto su 5, con ${me.points} punt${me.points === 1 ? 'o' : 'i'}\\.$`)
      : new RegExp(`^Finished: place ${me.rank} of 5, with ${me.points} point${me.points === 1 ? '' : 's'}\\.$`);
    await look(e, 'finished', t, want);
    // Who won, said on the tournament page look left open (issue 44).
    const winner = t.entries.find((x) => x.rank === 1).name;
    await e.page.waitForSelector('#tour-winner:not([hidden])');
    assert.equal(await e.page.textContent('#tour-winner'), e.it ? `Ha vinto il torneo ${winner}.` : `${winner} won the tournament.`);
  }
  await h.shot(people[0].page, 'tournament-phone');
  for (const e of people) await e.context.close();
  const all = failures(found);
  assert.deepEqual(all, [], all.join('\n'));
  assert.deepEqual(errors, [], 'no console errors');
});
