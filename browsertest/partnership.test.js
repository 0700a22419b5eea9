// A partnership game against three computer players: its first hand played
// by clicking to the hand's summary, the rest of the match through the API
// with the page's own seat (the pages' states are checked, not each click:
// issue 42); then a new match with the same players.

'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const h = require('./harness.js');
const { createGame, act, state, finishByAPI } = require('./play.js');

const env = h.suite();
const { skip } = env;
const errors = [];

test('a partnership game against three computer players, to the end', { skip, timeout: 300000 }, async () => {
  const { page } = await h.newPlayer(env.browser, errors, { width: 1000, height: 720 }, { reducedMotion: 'reduce' }); // plays in turn: replay.test.js
  // To 100, not the default 50: one hand can score 50 and end the match
  // before any hand summary (CI of this stop met it once).
  const id = await createGame(page, env.server.url, { variant: 'partnership', target: 100, name: 'Ana', seats: ['easy', 'easy', 'easy'] });
  await page.waitForSelector('.hand-tile');

  // Partnership turns counterclockwise: the next seat (1) sits on the right,
  // the partner (2) across, seat 3 on the left.
  const at = async (pos) => page.locator(`.seat-slot[data-pos=${pos}] .seat`).getAttribute('data-seat');
  assert.deepEqual([await at('bottom'), await at('right'), await at('top'), await at('left')], ['0', '1', '2', '3']);
  assert.match(await page.textContent('.seat-slot[data-pos=right] .meta'), /computer, easy/);
  assert.match(await page.textContent('#board-info'), /Target 100/);
  assert.doesNotMatch(await page.textContent('#board-info'), /Count/, 'no count in partnership');

  // Someone else opening the link of a full game watches: no hand, no join form.
  const watcher = await h.newPlayer(env.browser, errors);
  await watcher.page.goto(`${env.server.url}/g/${id}`);
  await watcher.page.waitForSelector('.seat');
  assert.equal(await watcher.page.locator('.hand-tile').count(), 0);
  assert.equal(await watcher.page.isVisible('#join'), false);
  assert.equal(await watcher.page.textContent('#prompt'), 'This game is full; you are watching. Start your own game');
  assert.equal(await watcher.page.getAttribute('#prompt a', 'href'), '/', 'a link to start their own');
  assert.equal(await watcher.page.locator('.seat-slot[data-pos=bottom] .seat').getAttribute('data-seat'), '0');
  await watcher.context.close();

  let summaries = 0;
  for (let step = 0; step < 1000 && !summaries; step++) {
    const s = await state(page);
    if (s.status === 'finished') break;
    if (await page.isVisible('#summary')) {
      summaries++;
      const text = await page.textContent('#summary');
      assert.match(text, /Hand \d+ (over|blocked)/, 'the summary says how the hand ended');
      assert.match(text, /\d+ pips/, 'revealed tiles are counted');
      assert.equal(await page.locator('#summary .revealed li').count(), 4);
      // partnership points are exact: the opponents' pips as revealed
      const how = /Counted: (\d+) pips → (\d+) points/.exec(await page.textContent('#summary .how'));
      assert.ok(how, 'the summary says how the points came');
      assert.equal(how[2], how[1], 'partnership scores the counted pips exactly');
      if (summaries === 1) await h.shot(page, 'hand-end-summary');
    }
    if (!(await act(page))) await page.waitForTimeout(150);
  }
  const s = (await state(page)).status === 'finished' ? await state(page) : (await finishByAPI([page]))[0];
  assert.equal(s.status, 'finished', 'the match ended');
  assert.ok(summaries >= 1, 'at least one hand summary was shown before the end');
  assert.match(await page.textContent('#status'), /^Match over: .+ & .+ wins?$/);
  const log = await page.locator('#log li').allTextContents();
  assert.match(log[0], /wins? the match!$/, `the log ends with the match result: ${log[0]}`);
  assert.ok(log.some((l) => !l.startsWith('You') && /(played|led) \d–\d/.test(l)), 'computer moves are in the log');

  // The rematch: same rule set, the same computer seats, the same seat, and
  // the series counted on.
  await page.click('#new-match');
  await page.waitForURL((u) => /\/g\/[a-z2-7]{16}$/.test(u.pathname) && !u.pathname.endsWith(id));
  const invite = page.url();
  await page.waitForSelector('.hand-tile');
  assert.match(await page.textContent('#board-info'), /Series .*(lead|leads) 1–0/);
  assert.equal((await state(page)).status, 'playing', 'three computer players: the new match starts at once');
  assert.equal(await page.locator('.seat .meta:has-text("computer, easy")').count(), 3);
  assert.match(await page.textContent('#board-info'), /Target 100/);

  // The start page lists both games, with players and scores.
  // The device's own list draws first; the server's (which knows a
  // rematch as one) replaces it when /api/me answers.
  const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/me');
  await page.goto(env.server.url + '/');
  await answered;
  await page.waitForFunction(() => document.querySelectorAll('#my-games li').length === 2 && /^Rematch:/.test(document.querySelector('#my-games li a').textContent));
  assert.equal(await page.locator('#my-games li').count(), 2);
  assert.match(await page.locator('#my-games li').first().textContent(), /^Rematch: Partnership with Ana, [^,]+, [^,]+, [^,]+/, 'the new match, labelled as a rematch');
  assert.match(await page.locator(`#my-games li[data-game="${id}"] a`).textContent(), /^Partnership with Ana, [^,]+, [^,]+, [^,]+$/);
  assert.match(await page.locator(`#my-games li[data-game="${id}"] .game-state`).textContent(), /finished/);
  await page.setViewportSize({ width: 1000, height: 860 });
  await h.shot(page, 'start-page');
  assert.deepEqual(errors, [], 'no console errors');
});
