// targets.test.js: every end target a finger can press is at least 44x44
// CSS px (WCAG 2.5.5) on phones upright and sideways, with 22 tiles on the
// board: the game page's own board box, drawn by render.js.

'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const h = require('./harness.js');
const play = require('./play.js');
const { createGame, act } = play;

const env = h.suite();
const { skip } = env;
const errors = [];

test('end targets are at least 44x44 px and tile faces 28 px with 22 tiles on the board', { skip, timeout: 90000 }, async () => {
  for (const viewport of [{ width: 360, height: 740 }, { width: 390, height: 844 }, { width: 740, height: 360 }]) {
    const context = await env.browser.newContext({ viewport, hasTouch: true, isMobile: true });
    const page = h.watch(await context.newPage(), errors);
    await createGame(page, env.server.url, { variant: 'fiveup', players: 2, name: 'Ana', seats: ['easy'] });
    await page.waitForSelector('.hand-tile');
    const sizes = await page.evaluate(async () => {
      /* global document */
      const { renderBoard } = await import('/assets/render.js');
    await (await import('/assets/i18n.js')).loadLang('en', 'game'); // the sources' own words (the bundle has its own)
      // A long line of 22 tiles (pips need not match for drawing): both
      // ends and, around a spinner, the arms are offered.
      const line = [];
      for (let i = 0; i < 18; i++) line.push([i % 7, (i + 1) % 7]);
      line[9] = [3, 3];
      const view = {
        variant: 'fiveup', seats: [], log: [],
        hand: { number: 1, board: { line, spinner: 9, lead: 9, up: [[3, 4], [4, 5]], down: [[3, 0], [0, 1]],
          ends: [{ end: 'left', pips: 0 }, { end: 'right', pips: 4 }, { end: 'up', pips: 5 }, { end: 'down', pips: 1 }], count: 10 } },
      };
      const board = document.querySelector('#board');
      renderBoard(board, view, ['left', 'right', 'up', 'down'], [1, 4]);
      const face = (t) => t.querySelector('rect.face').getBoundingClientRect();
      return {
        targets: [...board.querySelectorAll('.end-target')].map((t) => {
          const r = t.getBoundingClientRect();
          return { end: t.dataset.end, w: r.width, h: r.height };
        }),
        zoom: board.dataset.zoom,
        faces: [...board.querySelectorAll('.layout > .tile')].map((t) => Math.min(face(t).width, face(t).height)),
      };
    });
    assert.equal(sizes.targets.length, 4, `four targets at ${viewport.width}x${viewport.height}`);
    for (const s of sizes.targets) {
      assert.ok(s.w >= 44 - 0.5 && s.h >= 44 - 0.5, `${viewport.width}x${viewport.height}: the ${s.end} target is ${s.w.toFixed(1)}x${s.h.toFixed(1)} px`);
    }
    // The tiles are not shrunk below 28 px: the board scrolls instead.
    assert.equal(sizes.faces.length, 22);
    assert.equal(sizes.zoom, 'in', `${viewport.width}x${viewport.height}: the board scrolls rather than shrink the tiles`);
    const small = Math.min(...sizes.faces);
    assert.ok(small >= 28 - 0.5, `${viewport.width}x${viewport.height}: a tile face is ${small.toFixed(1)} px across`);
    await context.close();
  }
  assert.deepEqual(errors, []);
});

test('the board marks each open end with its pips, and the spinner', { skip, timeout: 60000 }, async () => {
  const { context, page } = await h.newPlayer(env.browser, errors, { width: 390, height: 844 });
  await createGame(page, env.server.url, { variant: 'fiveup', players: 2, name: 'Ana', seats: ['easy'] });
  await page.waitForSelector('.hand-tile');
  const drawn = await page.evaluate(async () => {
    /* global document */
    const { renderBoard } = await import('/assets/render.js');
    await (await import('/assets/i18n.js')).loadLang('en', 'game'); // the sources' own words (the bundle has its own)
    const board = document.querySelector('#board');
    const marks = (view) => {
      renderBoard(board, view, [], null);
      return {
        marks: [...board.querySelectorAll('.end-mark')].map((m) => `${m.dataset.end} ${m.textContent}`),
        spinners: board.querySelectorAll('.tile.spinner').length,
        label: board.querySelector('svg').getAttribute('aria-label'),
      };
    };
    const fiveUp = marks({ variant: 'fiveup', seats: [], log: [], hand: { number: 1, board: {
      line: [[2, 5], [5, 5], [5, 3]], spinner: 1, lead: 1, up: [[5, 6]], down: [],
      ends: [{ end: 'left', pips: 2 }, { end: 'right', pips: 3 }, { end: 'up', pips: 6 }, { end: 'down', pips: 5 }], count: 16 } } });
    const partnership = marks({ variant: 'partnership', seats: [], log: [], hand: { number: 1, board: {
      line: [[6, 6], [6, 1]], spinner: null, lead: 0, up: [], down: [], ends: [{ end: 'left', pips: 6 }, { end: 'right', pips: 1 }], count: null } } });
    return { fiveUp, partnership };
  });
  assert.deepEqual(drawn.fiveUp.marks, ['left 2', 'right 3', 'up 6', 'down 5']);
  assert.equal(drawn.fiveUp.spinners, 1, 'the spinner is marked');
  assert.match(drawn.fiveUp.label, /open ends: left 2, right 3, up 6, down 5$/);
  assert.deepEqual(drawn.partnership.marks, ['left 6', 'right 1'], 'both ends in the partnership game');
  assert.equal(drawn.partnership.spinners, 0);
  await context.close();
  assert.deepEqual(errors, []);
});

test('the count shows its sum on a tap', { skip, timeout: 60000 }, async () => {
  const { context, page } = await h.newPlayer(env.browser, errors, { width: 390, height: 844 });
  await createGame(page, env.server.url, { variant: 'fiveup', players: 2, redeal: false, name: 'Ana', seats: ['easy'] });
  await page.waitForSelector('.hand-tile');
  // An empty layout has no count to explain: Ana leads if she must.
  for (let i = 0; i < 5 && !(await page.locator('.info-count .count-btn').count()); i++) await act(page);
  await page.waitForSelector('.info-count .count-btn');
  const shown = Number(await page.textContent('.info-count b'));
  assert.equal(await page.isVisible('.count-sum'), false);
  await page.click('.info-count .count-btn');
  const sum = await page.textContent('.count-sum');
  assert.match(sum, /^\d+( \+ \d+)* = \d+$/);
  assert.equal(Number(sum.split(' = ')[1]), shown, `${sum} is the count ${shown}`);
  assert.equal(sum.split(' = ')[0].split(' + ').reduce((a, b) => a + Number(b), 0), shown);
  assert.equal(await page.getAttribute('.info-count .count-btn', 'title'), sum, 'and on hover');
  await context.close();
  assert.deepEqual(errors, []);
});

// A partnership table has four seats around the board, so its board box is
// smaller: its tiles too stay 28 px or more on phones (the board scrolls),
// with the open ends and the last play scrolled into view (issue 26).
test('partnership boards keep tile faces at 28 px on phones, the ends in view', { skip, timeout: 90000 }, async () => {
  for (const viewport of [{ width: 360, height: 740 }, { width: 740, height: 360 }]) {
    const context = await env.browser.newContext({ viewport, hasTouch: true, isMobile: true });
    const page = h.watch(await context.newPage(), errors);
    await createGame(page, env.server.url, { variant: 'partnership', name: 'Ana', seats: ['easy', 'easy', 'easy'] });
    await page.waitForSelector('.hand-tile');
    const sizes = await page.evaluate(async () => {
      const { renderBoard } = await import('/assets/render.js');
      await (await import('/assets/i18n.js')).loadLang('en', 'game');
      // 24 tiles in one line, no spinner; the last play at the right end.
      const line = [];
      for (let i = 0; i < 24; i++) line.push([i % 7, (i + 1) % 7]);
      const view = {
        variant: 'partnership', seats: [], log: [{ type: 'play', hand: 1, tile: line[23], seq: 30 }],
        hand: { number: 1, board: { line, spinner: null, lead: 12, up: [], down: [], ends: [{ end: 'left', pips: 0 }, { end: 'right', pips: 3 }] } },
      };
      const board = document.querySelector('#board');
      renderBoard(board, view, ['right'], [3, 5]);
      const face = (t) => t.querySelector('rect.face').getBoundingClientRect();
      const box = board.getBoundingClientRect();
      const inView = (r) => r.left >= box.left - 1 && r.right <= box.right + 1 && r.top >= box.top - 1 && r.bottom <= box.bottom + 1;
      const target = board.querySelector('.end-target rect:not(.hit)').getBoundingClientRect();
      const last = board.querySelector('.tile.last').getBoundingClientRect();
      return {
        zoom: board.dataset.zoom,
        faces: [...board.querySelectorAll('.layout > .tile')].map((t) => Math.min(face(t).width, face(t).height)),
        targetInView: inView(target), lastInView: inView(last),
      };
    });
    assert.equal(sizes.faces.length, 24);
    const small = Math.min(...sizes.faces);
    assert.ok(small >= 28 - 0.5, `partnership at ${viewport.width}x${viewport.height}: a tile face is ${small.toFixed(1)} px across (zoom ${sizes.zoom})`);
    assert.ok(sizes.targetInView, `${viewport.width}x${viewport.height}: the open end played on is in view`);
    assert.ok(sizes.lastInView, `${viewport.width}x${viewport.height}: the last play is in view`);
    await context.close();
  }
  assert.deepEqual(errors, []);
});

// Issue 44: on a 1280x800 desktop a board of 20 tiles showed faces of
// 27.1 px: the board was drawn for its box, and the box then narrowed (a
// scrollbar came) without the board being drawn again. The page now
// draws the board again whenever its box changes. Here the box narrows
// as a scrollbar or a panel would make it (the body's padding), by as
// much as would make the tiles as drawn 26 px across.
test('the board is drawn again when its box narrows, its tiles kept at 28 px', { skip, timeout: 90000 }, async () => {
  const api = h.apiOf(env);
  const keys = ['box-ana-key-0123456789abcdef', 'box-bea-key-0123456789abcdef'];
  const a = await api('POST', '/api/games', { variant: 'fiveup', players: 2, target: 500, redeal: false, name: 'Ana', key: keys[0] });
  const id = a.game.id;
  await api('POST', `/api/games/${id}/seats`, { name: 'Bea', key: keys[1] });
  // Plays until a hand has 20 tiles on the board, whatever the deal.
  const tiles = (v) => (v.hand ? v.hand.board.line.length + (v.hand.board.up || []).length + (v.hand.board.down || []).length : 0);
  let v = await api('GET', `/api/games/${id}`);
  for (let n = 0; n < 300 && tiles(v) < 20; n++) {
    await play.apiPlayOne(api, id, keys);
    v = await api('GET', `/api/games/${id}`);
  }
  assert.ok(tiles(v) >= 20, `a hand with 20 tiles on the board (${tiles(v)})`);
  const { context, page } = await h.newPlayer(env.browser, errors, { width: 1100, height: 800 });
  await page.goto(`${env.server.url}/g/${id}#seat=${keys[0]}`);
  await page.waitForSelector('#board .layout > .tile');
  const smallest = () => page.evaluate(() => Math.min(...[...document.querySelectorAll('#board .layout > .tile rect.face')]
    .map((f) => { const r = f.getBoundingClientRect(); return Math.min(r.width, r.height); })));
  const before = await smallest();
  assert.ok(before >= 28 - 0.5, `the board as first drawn: ${before.toFixed(1)} px`);
  const narrowed = await page.evaluate((f) => {
    const box = () => document.querySelector('#board').getBoundingClientRect().width;
    const w = box();
    document.body.style.paddingRight = `${Math.ceil(w * (1 - 26 / f))}px`;
    return { from: w, to: box() };
  }, before);
  assert.ok(narrowed.to <= narrowed.from * 26 / before + 1, `the box narrowed enough: ${JSON.stringify(narrowed)}`);
  await page.waitForFunction(() => Math.min(...[...document.querySelectorAll('#board .layout > .tile rect.face')]
    .map((f) => { const r = f.getBoundingClientRect(); return Math.min(r.width, r.height); })) >= 28 - 0.5, null, { timeout: 5000 })
    .catch(() => {});
  const after = await smallest();
  assert.ok(after >= 28 - 0.5, `after the box narrowed a tile face is ${after.toFixed(1)} px (before ${before.toFixed(1)})`);
  await context.close();
  assert.deepEqual(errors, []);
});
