// At 360x740 (a small phone) the table stays on screen without scrolling
// the page, also with 20 and more tiles on the layout: the board keeps
// tiles at 28 px or more and scrolls itself, and "Whole layout"
// fits every tile in the board. Checked on the element boxes. Also takes
// the Five Up screenshots (desktop and phone).

'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const h = require('./harness.js');
const { createGame, act, state, boardTiles } = require('./play.js');

const env = h.suite();
const { skip } = env;
const errors = [];

// playUntil acts until want(page) holds, across hands if need be.
async function playUntil(page, want, maxSteps = 1500) {
  for (let step = 0; step < maxSteps; step++) {
    if (!(await page.isVisible('#summary')) && (await want(page))) return;
    if ((await state(page)).status === 'finished') throw new Error('the match ended first');
    if (!(await act(page))) await page.waitForTimeout(100);
  }
  throw new Error('never reached the wanted position');
}

async function boxes(page) {
  return page.evaluate(() => {
    const r = (el) => { const b = el.getBoundingClientRect(); return { x: b.left, y: b.top, r: b.right, b: b.bottom, w: b.width, h: b.height }; };
    const board = document.querySelector('#board');
    return {
      zoom: board.dataset.zoom || '', scroll: { w: board.scrollWidth, h: board.scrollHeight, cw: board.clientWidth, ch: board.clientHeight, x: board.scrollLeft, y: board.scrollTop },
      vw: window.innerWidth, vh: window.innerHeight,
      scrollW: document.documentElement.scrollWidth, scrollY: window.scrollY,
      board: r(document.querySelector('#board')),
      table: r(document.querySelector('#table')),
      tiles: [...document.querySelectorAll('#board .layout > .tile')].map(r),
      hand: [...document.querySelectorAll('.hand-tile')].map(r),
      seats: [...document.querySelectorAll('.seat')].map(r),
    };
  });
}

const inside = (a, b, eps = 0.5) => a.x >= b.x - eps && a.y >= b.y - eps && a.r <= b.r + eps && a.b <= b.b + eps;

test('at 360x740 with 20+ tiles the board keeps tiles at 28 px and scrolls; the whole layout fits on demand', { skip, timeout: 300000 }, async () => {
  const { page } = await h.newPlayer(env.browser, errors, { width: 360, height: 740 });
  await createGame(page, env.server.url, { variant: 'fiveup', players: 4, target: 1000, name: 'Ana', seats: ['easy', 'easy', 'easy'] });
  await page.waitForSelector('.hand-tile');
  await playUntil(page, async (p) => (await boardTiles(p)) >= 20);
  await page.waitForFunction(() => !document.body.dataset.replaying); // tiles scale in while shown in turn
  let b = await boxes(page);
  assert.ok(b.tiles.length >= 20, `${b.tiles.length} tiles on the layout`);
  const screen = { x: 0, y: 0, r: b.vw, b: b.vh };
  assert.ok(b.scrollW <= b.vw, `page is ${b.scrollW}px wide on a ${b.vw}px screen`);
  assert.ok(inside(b.table, screen), `the table ${JSON.stringify(b.table)} leaves the screen`);
  for (const t of [...b.hand, ...b.seats]) assert.ok(inside(t, screen), `element ${JSON.stringify(t)} off screen`);
  assert.equal(b.zoom, 'in', 'the board is zoomed to readable tiles');
  const smallest = (bx) => Math.min(...bx.tiles.map((t) => Math.min(t.w, t.h)));
  assert.ok(smallest(b) >= 28 - 0.5, `every tile's short side is 28 px or more (${smallest(b).toFixed(1)})`);
  // Every tile is inside the board's scrolled area, none beyond it.
  for (const t of b.tiles) {
    const x = t.x - b.board.x + b.scroll.x, y = t.y - b.board.y + b.scroll.y;
    assert.ok(x >= -0.5 && y >= -0.5 && x + t.w <= b.scroll.w + 0.5 && y + t.h <= b.scroll.h + 0.5, `tile ${JSON.stringify(t)} cannot be scrolled to`);
  }
  // The last tile played is in view.
  const last = await page.locator('#board .tile.last').boundingBox();
  if (last) assert.ok(inside({ x: last.x, y: last.y, r: last.x + last.width, b: last.y + last.height }, b.board, 1), 'the last tile is scrolled into view');
  console.log(`# phone: ${b.tiles.length} tiles at ${smallest(b).toFixed(1)} px, board ${b.board.w.toFixed(0)}x${b.board.h.toFixed(0)} px scrolling ${b.scroll.w}x${b.scroll.h}`);
  await h.shot(page, 'phone-360x740');

  await page.click('#zoom-btn');
  b = await boxes(page);
  assert.equal(b.zoom, 'out');
  for (const t of b.tiles) {
    assert.ok(inside(t, b.board), `layout tile ${JSON.stringify(t)} outside the board ${JSON.stringify(b.board)}`);
    assert.ok(inside(t, screen), `layout tile ${JSON.stringify(t)} off screen`);
  }
  assert.ok(smallest(b) >= 8, `tiles are still seen (short side ${smallest(b)} px)`);
  assert.equal(await page.textContent('#zoom-btn'), 'Zoom in');
  await page.click('#zoom-btn');
  assert.equal((await boxes(page)).zoom, 'in');
  // each layout tile has its spoken name
  const names = await page.locator('#board .layout > .tile').evaluateAll((gs) => gs.map((g) => g.getAttribute('aria-label')));
  for (const n of names) assert.match(n, /^(blank|one|two|three|four|five|six)–(blank|one|two|three|four|five|six)$/);
  assert.deepEqual(errors, [], 'no console errors');
});

test('desktop Five Up table mid-game with the spinner arms', { skip, timeout: 300000 }, async () => {
  const { page } = await h.newPlayer(env.browser, errors, { width: 1000, height: 700 });
  await createGame(page, env.server.url, { variant: 'fiveup', players: 4, target: 1000, name: 'Ana', seats: ['easy', 'easy', 'easy'] });
  await page.waitForSelector('.hand-tile');
  // wait for a position with tiles above and below the spinner: the log names them
  await playUntil(page, async (p) => {
    if ((await boardTiles(p)) < 12 || (await state(p)).turn !== 'mine') return false;
    const hand = await p.textContent('.info-hand b');
    const lines = await p.locator('#log li').allTextContents();
    const cur = lines.slice(0, lines.findIndex((l) => l.startsWith(`Hand ${hand} dealt`)));
    return cur.some((l) => l.includes('above the spinner')) && cur.some((l) => l.includes('below the spinner'));
  });
  assert.match(await page.textContent('#board-info'), /Count \d+/);
  assert.equal(await page.locator('#board .tile.last').count(), 1, 'the last tile played is highlighted');
  // seats run clockwise in Five Up: the next seat (1) on the left
  assert.equal(await page.locator('.seat-slot[data-pos=left] .seat').getAttribute('data-seat'), '1');
  // Select a tile that fits more than one end, if there is one, to show the
  // glowing ends (the test reads `legal` from the API with the stored seat).
  const multi = await page.evaluate(async () => {
    const id = location.pathname.split('/')[2];
    const { token } = JSON.parse(localStorage.getItem('tessera.games'))[id];
    const v = await (await fetch(`/api/games/${id}`, { headers: { Authorization: `Bearer ${token}` } })).json();
    const count = {};
    for (const m of v.you.legal) { const k = [...m.tile].sort().join(); count[k] = (count[k] || 0) + 1; }
    const i = v.you.tiles.findIndex((t) => count[[...t].sort().join()] > 1);
    return i;
  });
  if (multi >= 0) {
    await page.locator(`.hand-tile[data-index="${multi}"]`).click();
    assert.ok((await page.locator('.end-target').count()) >= 2, 'the possible ends glow');
    assert.match(await page.textContent('#prompt'), /^Choose an end for /);
  }
  await h.shot(page, 'fiveup-midgame');
  assert.deepEqual(errors, [], 'no console errors');
});

test('a phone held sideways (740x360) keeps the table on screen with room for the board', { skip, timeout: 120000 }, async () => {
  const { page, context } = await h.newPlayer(env.browser, errors, { width: 740, height: 360 });
  // Four players: no boneyard, so the hand never grows past seven tiles (with
  // three, a hand that drew to nine or more wrapped off the screen now and
  // then: a layout problem noted for issue 26, not what this test is about).
  await createGame(page, env.server.url, { variant: 'fiveup', players: 4, target: 1000, name: 'Ana', seats: ['easy', 'easy', 'easy'] });
  await page.waitForSelector('.hand-tile');
  await playUntil(page, async (p) => (await boardTiles(p)) >= 6);
  await page.waitForFunction(() => !document.body.dataset.replaying); // measured at rest, as at 360x740
  const b = await boxes(page);
  const screen = { x: 0, y: 0, r: b.vw, b: b.vh };
  assert.ok(b.scrollW <= b.vw, `page is ${b.scrollW}px wide`);
  assert.ok(inside(b.table, screen), `the table ${JSON.stringify(b.table)} leaves the screen`);
  for (const t of [...b.hand, ...b.seats]) assert.ok(inside(t, screen), `element ${JSON.stringify(t)} off screen`);
  assert.ok(inside(b.board, screen), `the board ${JSON.stringify(b.board)} leaves the screen`);
  // A layout taller than the board (a spinner with arms up and down) is
  // zoomed to readable tiles and scrolls inside the board: every tile is
  // then within the board's scrolled area, not necessarily on screen.
  const area = b.zoom === 'in'
    ? { x: b.board.x - b.scroll.x, y: b.board.y - b.scroll.y, r: b.board.x - b.scroll.x + b.scroll.w, b: b.board.y - b.scroll.y + b.scroll.h }
    : b.board;
  for (const t of b.tiles) assert.ok(inside(t, area, 1), `tile ${JSON.stringify(t)} outside the board ${JSON.stringify(area)} (zoom ${b.zoom || 'fit'})`);
  assert.ok(b.board.h >= 150, `the board keeps ${b.board.h}px of height`);
  await context.close();
  assert.deepEqual(errors, [], 'no console errors');
});
