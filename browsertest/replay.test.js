// Plays that arrive together are shown one after another: a move against
// three computers brings four plays in one answer; the page reveals them
// in turn (about 400 ms each), highlights the seat that played, shows a
// scoring play's points by the tile and the seat's score, finishes at once
// on a key, and shows everything at once with prefers-reduced-motion.

'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const h = require('./harness.js');
const { createGame, act, state } = require('./play.js');

const env = h.suite();
const { skip } = env;
const errors = [];

// record installs an observer that notes, in order, every replay step the
// page shows: tiles revealed, seats highlighted, points shown.
const record = (page) => page.evaluate(() => {
  window.__seen = { replays: 0, revealed: [], seats: [], pops: [], pendingMax: 0 };
  const seen = window.__seen;
  new MutationObserver((muts) => {
    for (const m of muts) {
      const t = m.target;
      if (m.type === 'attributes' && m.attributeName === 'data-replaying' && t === document.body && t.dataset.replaying) seen.replays++;
      if (m.type === 'attributes' && m.attributeName === 'class' && t.classList) {
        if (t.classList.contains('arrive')) seen.revealed.push(t.getAttribute('data-tile'));
        if (t.classList.contains('seat') && t.classList.contains('playing')) seen.seats.push(t.dataset.seat);
      }
      for (const n of m.addedNodes || []) if (n.classList && n.classList.contains('points-pop')) seen.pops.push(n.textContent.trim());
    }
    seen.pendingMax = Math.max(seen.pendingMax, document.querySelectorAll('.tile.pending').length);
  }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['class', 'data-replaying'], childList: true });
});

async function spectatorLog(url, id) {
  const r = await fetch(`${url}/api/games/${id}`);
  return (await r.json()).log;
}

test('a move against three computers shows the four plays one after another', { skip, timeout: 180000 }, async () => {
  const { page, context } = await h.newPlayer(env.browser, errors, undefined, { reducedMotion: 'no-preference' });
  const id = await createGame(page, env.server.url, { variant: 'fiveup', players: 4, target: 250, name: 'Ana', seats: ['easy', 'easy', 'easy'] });
  await page.waitForSelector('.hand-tile');
  await record(page);
  let checkedTiming = false, batches = 0, wantPops = [];
  for (let step = 0; step < 60 && batches < 3; step++) {
    const s = await state(page);
    if (s.turn !== 'mine' || (await page.isVisible('#summary')) || (await page.isVisible('#confirm'))) {
      if (!(await act(page))) await page.waitForTimeout(100);
      continue;
    }
    const before = (await spectatorLog(env.server.url, id)).at(-1).seq;
    const did = await act(page);
    if (did !== 'played') continue;
    const log = await spectatorLog(env.server.url, id);
    const hand = log.at(-1).hand;
    const plays = log.filter((e) => e.seq > before && e.type === 'play' && e.hand === hand);
    if (log.some((e) => e.seq > before && (e.type === 'deal' || e.type === 'handEnd'))) {
      await page.waitForFunction(() => !document.body.dataset.replaying, null, { timeout: 5000 });
      continue; // a new hand: the board was laid anew, nothing to show in turn
    }
    batches++;
    wantPops.push(...plays.filter((p) => p.points > 0).map((p) => `+${p.points}`));
    if (!checkedTiming && plays.length === 4) {
      // (That the computers' tiles waited is seen by the observer, in the
      // page: pendingMax below; a check from here could come too late.)
      if (process.env.UPDATE_SCREENSHOTS === '1') {
        await page.waitForTimeout(450); // a play or two in, a +N showing perhaps
        await h.shot(page, 'plays-in-turn');
      }
      checkedTiming = true;
    }
    await page.waitForFunction(() => !document.body.dataset.replaying, null, { timeout: 5000 });
    assert.equal(await page.locator('.tile.pending').count(), 0, 'every tile shows once the replay is over');
  }
  assert.ok(checkedTiming, 'a batch of four plays was seen');
  const seen = await page.evaluate(() => window.__seen);
  assert.ok(seen.replays >= batches, `${seen.replays} replays for ${batches} batches`);
  assert.ok(seen.seats.length >= 3 * batches, `the seats that played were highlighted (${seen.seats.length})`);
  assert.ok(seen.pendingMax >= 3, 'up to three computer tiles waited their turn');
  // Every scoring play showed its points, twice (board and score).
  for (const p of new Set(wantPops)) {
    assert.ok(seen.pops.filter((x) => x === p).length >= 2 * wantPops.filter((x) => x === p).length,
      `${p} shown by the tile and the score: ${JSON.stringify(seen.pops)}`);
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test('a key finishes the replay at once; reduced motion shows every play at once', { skip, timeout: 120000 }, async () => {
  for (const reduced of [false, true]) {
    const context = await env.browser.newContext({ viewport: { width: 1100, height: 800 }, reducedMotion: reduced ? 'reduce' : 'no-preference' });
    const page = h.watch(await context.newPage(), errors);
    await createGame(page, env.server.url, { variant: 'fiveup', players: 4, target: 250, name: 'Ana', seats: ['easy', 'easy', 'easy'] });
    await page.waitForSelector('.hand-tile');
    await record(page);
    let done = false;
    for (let step = 0; step < 40 && !done; step++) {
      if ((await state(page)).turn !== 'mine' || (await page.isVisible('#summary')) || (await page.isVisible('#confirm'))) {
        if (!(await act(page))) await page.waitForTimeout(100);
        continue;
      }
      await act(page);
      if (reduced) {
        done = true;
        continue;
      }
      if (await page.evaluate(() => !!document.body.dataset.replaying && document.querySelectorAll('.tile.pending').length > 0)) {
        await page.keyboard.press('Shift');
        assert.equal(await page.locator('.tile.pending').count(), 0, 'a key shows every tile at once');
        assert.equal(await page.evaluate(() => document.body.dataset.replaying || ''), '');
        done = true;
      }
    }
    assert.ok(done, 'a replay to skip was seen');
    if (reduced) {
      const seen = await page.evaluate(() => window.__seen);
      assert.equal(seen.replays, 0, 'no replay with prefers-reduced-motion');
      assert.equal(seen.pendingMax, 0);
    }
    await context.close();
  }
  assert.deepEqual(errors, []);
});
