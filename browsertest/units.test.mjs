// units.test.mjs: the page's pure parts, without a browser: poll timing,
// the plain-words log, where seats sit, tile names.
// Run: node --test browsertest/

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pollDelay, errorDelay, SECOND, MINUTE } from '../frontend/static/assets/api.js';
import { describe } from '../frontend/static/assets/log.js';
import { seatPositions } from '../frontend/static/assets/table.js';
import { tileName, tileText } from '../frontend/static/assets/render.js';
import { endsFor } from '../frontend/static/assets/input.js';

test('poll timing', async (t) => {
  const cases = [
    ['every 2 s while visible and someone else is to play', { visible: true, waiting: true, idleMs: 0 }, 2 * SECOND],
    ['still 2 s just before 5 idle minutes', { visible: true, waiting: true, idleMs: 5 * MINUTE - 1 }, 2 * SECOND],
    ['30 s after 5 idle minutes', { visible: true, waiting: true, idleMs: 5 * MINUTE }, 30 * SECOND],
    ['2 minutes after an idle hour', { visible: true, waiting: true, idleMs: 60 * MINUTE }, 2 * MINUTE],
    ['30 s on our own turn (only our other devices change it)', { visible: true, waiting: false, idleMs: 0 }, 30 * SECOND],
    ['30 s while the page is hidden', { visible: false, waiting: true, idleMs: 0 }, 30 * SECOND],
    ['hidden and idle for an hour stays at 2 minutes', { visible: false, waiting: true, idleMs: 2 * 60 * MINUTE }, 2 * MINUTE],
    ['no polling once the match is over', { visible: true, waiting: true, idleMs: 0, finished: true }, 0],
  ];
  for (const [name, input, want] of cases) {
    await t.test(name, () => assert.equal(pollDelay(input), want, `pollDelay(${JSON.stringify(input)})`));
  }
});

test('failed polls back off 2, 4, 8 … 60 s', () => {
  assert.deepEqual([1, 2, 3, 4, 5, 6, 10].map(errorDelay), [2000, 4000, 8000, 16000, 32000, 60000, 60000]);
});

const view = {
  seats: [{ seat: 0, name: 'Ana', team: 0 }, { seat: 1, name: 'Bea', team: 1 }, { seat: 2, name: 'Carlo', team: 2 }],
  log: [],
};

test('the log in plain words', async (t) => {
  const lines = (log, me = null) => describe({ ...view, log }, me).map((l) => l.text);
  await t.test('a play names the tile as it lies, the end and the points', () => {
    assert.deepEqual(lines([{ seq: 1, hand: 1, seat: 1, type: 'play', tile: [6, 2], end: 'right', points: 10 }]),
      ['Bea played 6–2 on the right and scored 10']);
  });
  await t.test('a play that scores nothing says nothing of points', () => {
    assert.deepEqual(lines([{ seq: 1, hand: 1, seat: 0, type: 'play', tile: [4, 2], end: 'left', points: 0 }]), ['Ana played 4–2 on the left']);
  });
  await t.test('a draw followed by a pass of the same seat is one line', () => {
    assert.deepEqual(lines([{ seq: 1, hand: 1, seat: 2, type: 'draw', count: 2 }, { seq: 2, hand: 1, seat: 2, type: 'pass' }]),
      ['Carlo drew 2 and passed']);
  });
  await t.test('the arms of the spinner are above and below it', () => {
    assert.deepEqual(lines([{ seq: 1, hand: 1, seat: 0, type: 'play', tile: [2, 5], end: 'up', points: 0 }]), ['Ana played 2–5 above the spinner']);
  });
  await t.test('the reader is "You"', () => {
    assert.deepEqual(lines([{ seq: 1, hand: 1, seat: 0, type: 'play', tile: [3, 3], end: 'lead', points: 0 }], 0), ['You led 3–3']);
  });
  await t.test('a domino names who went out and what the side scores', () => {
    assert.deepEqual(lines([
      { seq: 1, hand: 2, seat: 1, type: 'play', tile: [1, 1], end: 'left', points: 0 },
      { seq: 2, hand: 2, type: 'handEnd', reason: 'domino', team: 1, points: 15, tiles: [[[1, 2]], [], [[5, 5]]] },
      { seq: 3, hand: 2, type: 'matchEnd', team: 1 },
    ]).slice(1), ['Hand 2 over: Bea went out. Bea scores 15.', 'Bea wins the match!']);
  });
  await t.test('a blocked hand with a tie scores nothing', () => {
    assert.deepEqual(lines([{ seq: 1, hand: 3, type: 'handEnd', reason: 'blocked', team: null, points: 0, tiles: [[], [], []] }]),
      ['Hand 3 blocked with a tie: nobody scores.']);
  });
});

test('seats around the table', async (t) => {
  await t.test('Five Up turns clockwise: the next seat sits on the left', () => {
    assert.deepEqual(seatPositions(4, 0, true), { 0: 'bottom', 1: 'left', 2: 'top', 3: 'right' });
  });
  await t.test('partnership turns counterclockwise: the next seat sits on the right', () => {
    assert.deepEqual(seatPositions(4, 0, false), { 0: 'bottom', 1: 'right', 2: 'top', 3: 'left' });
  });
  await t.test('the reader sits at the bottom whatever their seat', () => {
    assert.deepEqual(seatPositions(4, 2, true), { 2: 'bottom', 3: 'left', 0: 'top', 1: 'right' });
  });
  await t.test('two players face each other', () => {
    assert.deepEqual(seatPositions(2, 1, true), { 1: 'bottom', 0: 'top' });
  });
  await t.test('three players: left then right going clockwise', () => {
    assert.deepEqual(seatPositions(3, 0, true), { 0: 'bottom', 1: 'left', 2: 'right' });
  });
});

test('every tile has a spoken name', () => {
  assert.equal(tileName([6, 2]), 'six–two');
  assert.equal(tileName([0, 0]), 'blank–blank');
  assert.equal(tileText([6, 2]), '6–2');
  const names = new Set();
  for (let a = 0; a <= 6; a++) for (let b = a; b <= 6; b++) names.add(tileName([a, b]));
  assert.equal(names.size, 28);
});

test('a tile is playable exactly where legal lists it, in either order', () => {
  const legal = [{ tile: [1, 3], end: 'right' }, { tile: [3, 1], end: 'up' }, { tile: [1, 1], end: 'right' }];
  assert.deepEqual(endsFor(legal, [3, 1]), ['right', 'up']);
  assert.deepEqual(endsFor(legal, [6, 6]), []);
});
