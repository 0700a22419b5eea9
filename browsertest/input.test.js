// Dragging: a playable tile dragged onto the board is played at the glowing
// end nearest to where it is dropped. Also the dark colour scheme on a phone.

'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const h = require('./harness.js');
const { createGame, act, state, waitVersionAbove } = require('./play.js');

const env = h.suite();
const { skip } = env;
const errors = [];

test('a tile dragged onto a glowing end is played there', { skip, timeout: 120000 }, async () => {
  const context = await env.browser.newContext({ viewport: { width: 360, height: 740 }, colorScheme: 'dark', hasTouch: false });
  const page = h.watch(await context.newPage(), errors);
  await createGame(page, env.server.url, { variant: 'fiveup', players: 2, target: 1000, name: 'Ana', seats: ['easy'] });
  for (let i = 0; i < 60; i++) {
    const s = await state(page);
    if (s.turn === 'mine' && !(await page.isVisible('#summary')) && !(await page.isVisible('#confirm'))) break;
    if (!(await act(page))) await page.waitForTimeout(100);
  }
  const before = (await state(page)).version;
  const tile = page.locator('.hand-tile.playable').first();
  // A poll may draw the hand again meanwhile: measure the tile as it is.
  let label, from;
  for (let i = 0; i < 20 && !from; i++) {
    label = await tile.getAttribute('aria-label');
    from = await tile.boundingBox();
    if (!from) await page.waitForTimeout(50);
  }
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 2, from.y - 40, { steps: 4 });
  // while dragging, the tile's ends glow; aim for the first one
  await page.waitForSelector('.end-target');
  assert.equal(await page.locator('.drag-ghost').count(), 1, 'a copy of the tile follows the pointer');
  const to = await page.locator('.end-target').first().boundingBox();
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 8 });
  assert.equal(await page.locator('.end-target.hover').count(), 1, 'the end under the tile lights up');
  await page.mouse.up();
  await waitVersionAbove(page, before);
  assert.equal(await page.locator('.drag-ghost').count(), 0);
  const [a, b] = label.split('–');
  const digits = { blank: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6 };
  const log = await page.locator('#log li').allTextContents();
  const mine = log.find((l) => /^You (played|led) /.test(l));
  assert.ok(mine.includes(`${digits[a]}–${digits[b]}`) || mine.includes(`${digits[b]}–${digits[a]}`), `"${mine}" is the dragged ${label}`);
  await h.shot(page, 'phone-dark');
  await context.close();
  assert.deepEqual(errors, []);
});

test('names are shown as text, never as markup', { skip, timeout: 60000 }, async () => {
  const { page, context } = await h.newPlayer(env.browser, errors);
  const name = '<img src=x onerror=1>';
  await createGame(page, env.server.url, { variant: 'fiveup', players: 2, target: 1000, name, seats: ['easy'] });
  await page.waitForSelector('.seat');
  assert.equal(await page.textContent('.seat-slot[data-pos=bottom] .name'), `${name} (you)`);
  assert.equal(await page.locator('#table img, #log img').count(), 0, 'no element made from a name');
  await page.goto(env.server.url + '/');
  await page.waitForSelector('#my-games li');
  assert.match(await page.textContent('#my-games li a'), /<img src=x onerror=1>/);
  assert.equal(await page.locator('#my-games img').count(), 0);
  await context.close();
  assert.deepEqual(errors, []);
});

// On a touch screen a tile with one place to go is not played by the first
// tap: it shows where it goes, and a second tap (the tile again, or that
// place) plays it; tapping another tile instead changes the choice, so a
// slip of the thumb costs nothing (issue 26). With a mouse, one click plays.
test('on a phone a single-place play waits for a second tap', { skip, timeout: 120000 }, async () => {
  const context = await env.browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const page = h.watch(await context.newPage(), errors);
  await createGame(page, env.server.url, { variant: 'fiveup', players: 2, target: 1000, name: 'Ana', seats: ['easy'] });
  const single = () => page.evaluate(() => {
    const tiles = [...document.querySelectorAll('.hand-tile.playable')];
    return tiles.map((b) => Number(b.dataset.index));
  });
  let done = false;
  for (let i = 0; i < 80 && !done; i++) {
    const s = await state(page);
    if (s.turn !== 'mine' || (await page.isVisible('#summary')) || (await page.isVisible('#confirm'))) {
      if (!(await act(page))) await page.waitForTimeout(100);
      continue;
    }
    // A playable tile with one place: the view says how many ends it has.
    const pick = await page.evaluate(async () => {
      const id = location.pathname.split('/')[2];
      const { token } = JSON.parse(localStorage.getItem('tessera.games'))[id];
      const v = await (await fetch(`/api/games/${id}`, { headers: { Authorization: 'Bearer ' + token } })).json();
      const key = (t) => [Math.min(...t), Math.max(...t)].join();
      const ends = {};
      for (const m of v.you.legal) if (m.tile) (ends[key(m.tile)] ||= []).push(m.end);
      const one = v.you.tiles.map((t, i) => [i, (ends[key(t)] || []).length]).filter(([, n]) => n === 1).map(([i]) => i);
      return { one, version: v.version };
    });
    if (pick.one.length === 0) { await act(page); continue; }
    const tile = page.locator(`.hand-tile[data-index="${pick.one[0]}"]`);
    await tile.tap();
    await page.waitForSelector('.end-target');
    assert.match(await page.textContent('#prompt'), /^Tap .+ again, or its place on the table, to play it\.$/);
    assert.equal((await state(page)).version, pick.version, 'the first tap sent nothing');
    assert.equal(await page.locator('.end-target').count(), 1, 'its one place is shown');
    if (pick.one.length > 1) {
      // A slip: another tile tapped instead takes the choice.
      await page.locator(`.hand-tile[data-index="${pick.one[1]}"]`).tap();
      assert.equal((await state(page)).version, pick.version, 'tapping another tile sent nothing');
      assert.equal(await page.getAttribute(`.hand-tile[data-index="${pick.one[1]}"]`, 'aria-pressed'), 'true');
      await page.locator(`.hand-tile[data-index="${pick.one[1]}"]`).tap();
    } else {
      await tile.tap();
    }
    await waitVersionAbove(page, pick.version);
    done = true;
  }
  assert.ok(done, 'a tile with one place came up');
  await context.close();
  assert.deepEqual(errors, []);
});
