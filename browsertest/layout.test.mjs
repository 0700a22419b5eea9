// layout.test.mjs: the board layout (render.js layoutBoard/fitLayout) as
// pure geometry, without a browser: over many random layouts built like real
// ones, no two tiles overlap, each tile touches the one it is attached to,
// doubles lie crosswise, and the fitted view contains every tile.
// Run: node --test browsertest/

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { layoutBoard, fitLayout } from '../frontend/static/assets/render.js';

function rng(seed) {
  let s = seed >>> 0;
  return () => { s = (s * 1664525 + 1013904223) >>> 0; return s / 2 ** 32; };
}

// randomBoard grows a layout the way a hand does: a lead, then tiles from the
// set attached at open ends; with spinner: true the first double opens up/down
// once both of its sides are covered (Five Up).
function randomBoard(seed, n, withSpinner) {
  const rand = rng(seed);
  const set = [];
  for (let a = 0; a <= 6; a++) for (let b = a; b <= 6; b++) set.push([a, b]);
  const take = (i) => set.splice(i, 1)[0];
  const line = [take(Math.floor(rand() * set.length))];
  const arms = { up: [], down: [] };
  let spinner = withSpinner && line[0][0] === line[0][1] ? 0 : null;
  let anchor = 0; // index of the lead in line
  for (let k = 1; k < n; k++) {
    const ends = [{ end: 'left', pips: line[0][0] }, { end: 'right', pips: line[line.length - 1][1] }];
    if (spinner !== null && spinner > 0 && spinner < line.length - 1) {
      const s = line[spinner][0];
      ends.push({ end: 'up', pips: arms.up.length ? arms.up[arms.up.length - 1][1] : s });
      ends.push({ end: 'down', pips: arms.down.length ? arms.down[arms.down.length - 1][1] : s });
    }
    const options = [];
    set.forEach((t, i) => ends.forEach((e) => { if (t[0] === e.pips || t[1] === e.pips) options.push([i, e]); }));
    if (!options.length) break;
    const [i, e] = options[Math.floor(rand() * options.length)];
    const t = take(i);
    const out = t[0] === e.pips ? [t[0], t[1]] : [t[1], t[0]]; // written from the end outwards
    if (e.end === 'left') {
      line.unshift([out[1], out[0]]);
      anchor++;
      if (spinner !== null) spinner++;
      if (spinner === null && withSpinner && t[0] === t[1]) spinner = 0;
    } else if (e.end === 'right') {
      line.push(out);
      if (spinner === null && withSpinner && t[0] === t[1]) spinner = line.length - 1;
    } else arms[e.end].push(out);
  }
  return { board: { line, spinner, up: arms.up, down: arms.down }, anchor: spinner ?? anchor };
}

const overlap = (a, b) => Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x) > 1e-6 &&
  Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y) > 1e-6;
const touch = (a, b) => {
  const gx = Math.max(a.x, b.x) - Math.min(a.x + a.w, b.x + b.w);
  const gy = Math.max(a.y, b.y) - Math.min(a.y + a.h, b.y + b.h);
  return Math.abs(Math.max(gx, gy)) < 1e-6;
};

for (const spinner of [true, false]) {
  test(`no two tiles overlap and neighbours touch (${spinner ? 'Five Up spinner' : 'plain line'})`, () => {
    let checked = 0;
    for (let seed = 1; seed <= 400; seed++) {
      const { board, anchor } = randomBoard(seed, 28, spinner);
      for (const [hx, hy] of [[4, 4], [6, 8], [9, 5], [14, 9]]) {
        const { tiles, ends } = layoutBoard(board, anchor, hx, hy);
        const n = board.line.length + board.up.length + board.down.length;
        assert.equal(tiles.length, n, `seed ${seed}: ${tiles.length} tiles drawn, want ${n}`);
        for (let i = 0; i < tiles.length; i++) {
          const t = tiles[i];
          const dbl = t.tile[0] === t.tile[1];
          assert.equal(t.w * t.h, 2, `seed ${seed}: tile ${t.tile} is ${t.w}x${t.h}`);
          if (dbl) assert.equal(t.a, t.b);
          for (let j = i + 1; j < tiles.length; j++) {
            assert.ok(!overlap(t, tiles[j]), `seed ${seed} hx ${hx}: ${t.tile} at ${t.x},${t.y} overlaps ${tiles[j].tile} at ${tiles[j].x},${tiles[j].y}`);
          }
          for (const name in ends) assert.ok(!overlap(t, ends[name]), `seed ${seed}: the ${name} end target covers ${t.tile}`);
        }
        // tiles come out arm by arm from the anchor, so each touches its predecessor on the same arm
        const byTile = new Map(tiles.map((t) => [t.tile, t]));
        for (let i = 1; i < board.line.length; i++) {
          assert.ok(touch(byTile.get(board.line[i - 1]), byTile.get(board.line[i])), `seed ${seed}: line tiles ${i - 1} and ${i} do not touch`);
        }
        for (const arm of ['up', 'down']) {
          let prev = byTile.get(board.line[board.spinner]);
          for (const t of board[arm]) { assert.ok(touch(prev, byTile.get(t)), `seed ${seed}: ${arm} arm tile ${t} detached`); prev = byTile.get(t); }
        }
        checked++;
      }
    }
    assert.ok(checked >= 1600);
  });
}

test('the fitted view holds every tile, in the shape of the box', () => {
  for (const [w, h] of [[344, 420], [900, 500], [1200, 400]]) {
    const { board, anchor } = randomBoard(7, 28, true);
    const fit = fitLayout(board, anchor, w, h);
    const v = fit.view;
    assert.ok(Math.abs(v.w / v.h - w / h) < 1e-6, `view ${v.w}x${v.h} is not ${w}:${h}`);
    for (const t of fit.lay.tiles) {
      assert.ok(t.x >= v.x && t.y >= v.y && t.x + t.w <= v.x + v.w && t.y + t.h <= v.y + v.h, `tile ${t.tile} outside the view`);
    }
  }
});

test('an empty layout offers the lead in the middle', () => {
  const { tiles, ends } = layoutBoard({ line: [], spinner: null, up: [], down: [] }, 0, 6, 6);
  assert.equal(tiles.length, 0);
  assert.deepEqual(Object.keys(ends), ['lead']);
});

// Each open end's box (where its target and its pips mark are drawn) lies
// against the tile at that end: the mark shows where the next tile goes.
test('every end box touches the tile at its end', () => {
  const bad = [];
  for (const spinner of [true, false]) {
    for (let seed = 1; seed <= 400; seed++) {
      for (const n of [3, 6, 10, 16, 24]) {
        const { board, anchor } = randomBoard(seed, n, spinner);
        for (const [hx, hy] of [[4, 4], [6, 8], [9, 5], [14, 9]]) {
          const { tiles, ends } = layoutBoard(board, anchor, hx, hy);
          const byTile = new Map(tiles.map((t) => [t.tile, t]));
          const at = {
            left: board.line[0], right: board.line[board.line.length - 1],
            up: board.spinner !== null ? board.up.at(-1) || board.line[board.spinner] : null,
            down: board.spinner !== null ? board.down.at(-1) || board.line[board.spinner] : null,
          };
          for (const name of ['left', 'right', 'up', 'down']) {
            if (!ends[name] || !at[name]) continue;
            if (!touch(ends[name], byTile.get(at[name]))) bad.push(`seed ${seed} n ${n} ${spinner ? 'spinner' : 'line'} ${hx}x${hy}: the ${name} end box is away from ${at[name]}`);
          }
        }
      }
    }
  }
  assert.deepEqual(bad.slice(0, 5), [], `${bad.length} end boxes away from their tile`);
});
