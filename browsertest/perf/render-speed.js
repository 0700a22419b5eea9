// A measurement, not a test (it left the suite: a speed is never asserted):
// how long render.js takes to draw a board of 28 tiles in Chromium, with
// performance.now(); the budget is 16 ms (one frame). Run it by hand:
//
//   CI=true node browsertest/perf/render-speed.js
//
// It prints the median, p95 and max per board; docs/frontend.md keeps the
// figures.

'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const h = require('../harness.js');

const env = h.suite();
const { skip } = env;
const errors = [];

// Runs in the page: synthetic 28-tile views (every tile of the set once),
// rendered many times into a board-sized box.
async function measure(viewport) {
  /* global document, performance */
  const { renderBoard } = await import('/assets/render.js');
  // An Euler circuit through K7 with loops uses each of the 28 tiles once:
  // a legal-looking line of all 28 (partnership-like, no spinner).
  const edges = new Set();
  for (let a = 0; a <= 6; a++) for (let b = a; b <= 6; b++) edges.add(`${a},${b}`);
  const key = (a, b) => (a <= b ? `${a},${b}` : `${b},${a}`);
  const stack = [0], path = [];
  while (stack.length) {
    const v = stack[stack.length - 1];
    let next = -1;
    for (let w = 0; w <= 6; w++) if (edges.has(key(v, w))) { next = w; break; }
    if (next < 0) path.push(stack.pop()); else { edges.delete(key(v, next)); stack.push(next); }
  }
  const line = [];
  for (let i = 0; i + 1 < path.length; i++) line.push([path[i], path[i + 1]]);
  const plain = {
    variant: 'partnership', version: 1, seats: [],
    hand: { number: 1, board: { line, spinner: null, up: [], down: [], ends: [{ end: 'left', pips: line[0][0] }, { end: 'right', pips: line[27][1] }], count: null } },
    log: [{ seq: 1, hand: 1, type: 'deal', leader: 0 }, { seq: 2, hand: 1, type: 'play', seat: 0, tile: line[14], end: 'lead', points: 0 }],
  };
  // A Five Up-like board: the same 28 tiles cut into a line of 16 with the
  // 3-3 as spinner at index 8 and arms of 6 (pips need not match here).
  const rest = line.filter((t) => !(t[0] === 3 && t[1] === 3));
  const fl = [...rest.slice(0, 8), [3, 3], ...rest.slice(8, 15)];
  const spinner = {
    variant: 'fiveup', version: 1, seats: [],
    hand: { number: 1, board: { line: fl, spinner: 8, up: rest.slice(15, 21), down: rest.slice(21, 27), ends: [{ end: 'left', pips: 1 }, { end: 'right', pips: 2 }, { end: 'up', pips: 3 }, { end: 'down', pips: 4 }], count: 10 } },
    log: [],
  };
  const box = document.createElement('div');
  box.style.width = viewport.w + 'px';
  box.style.height = viewport.h + 'px';
  box.style.position = 'relative';
  document.body.prepend(box);
  const out = {};
  for (const [name, view] of [['line', plain], ['spinner', spinner]]) {
    const times = [];
    let tiles = 0;
    for (let i = 0; i < 10; i++) renderBoard(box, view, []); // warm up the JIT
    for (let i = 0; i < 60; i++) {
      const t0 = performance.now();
      renderBoard(box, view, i % 2 ? ['left', 'right'] : []);
      box.getBoundingClientRect(); // include style and layout
      box.querySelector('svg').getBBox();
      times.push(performance.now() - t0);
      tiles = box.querySelectorAll('svg > .tile').length;
    }
    times.sort((a, b) => a - b);
    out[name] = { tiles, median: times[30], p95: times[56], max: times[59] };
  }
  box.remove();
  return out;
}

for (const vp of [{ w: 636, h: 420, label: 'desktop board 636x420' }, { w: 348, h: 460, label: 'phone board 348x460' }]) {
  test(`render a 28-tile board (${vp.label})`, { skip, timeout: 60000 }, async () => {
    const { page } = await h.newPlayer(env.browser, errors);
    await page.goto(env.server.url + '/');
    const r = await page.evaluate(measure, vp);
    for (const name of ['line', 'spinner']) {
      assert.equal(r[name].tiles, 28, `${name}: 28 tiles drawn`);
      console.log(`# render ${name} 28 tiles in ${vp.label}: median ${r[name].median.toFixed(2)} ms, p95 ${r[name].p95.toFixed(2)} ms, max ${r[name].max.toFixed(2)} ms (budget 16 ms)`);
    }
    assert.deepEqual(errors, []);
  });
}
