// units.test.mjs: the page's pure parts, without a browser: poll timing,
// the plain-words log, where seats sit, tile names.
// Run: node --test browsertest/

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pollDelay, nextPlay, errorDelay, Poller, SECOND, MINUTE, apiError, ApiError, NetworkError, RateLimited, retryAfterMs } from '../frontend/static/assets/api.js';
import { storyDeps, inviteDeps } from '../frontend/static/assets/log.js';
import { inviteText } from '../frontend/static/assets/invite.js';
import { make as makeStory } from '../frontend/static/assets/story.js';
import { seatPositions } from '../frontend/static/assets/table.js';
import { tileName, tileText } from '../frontend/static/assets/render.js';
import { endsFor } from '../frontend/static/assets/input.js';
import { qrMatrix } from '../frontend/static/assets/qr.js';
import { costliest, reviewable, choosing } from '../frontend/static/assets/coach.js';
import jsQR from 'jsqr';
import fs from 'node:fs';
import { useCatalog } from '../frontend/static/assets/i18n.js';

// The page's words in English (the catalog the pages load; i18n.test.mjs
// checks both catalogs).
useCatalog('en', JSON.parse(fs.readFileSync(new URL('../frontend/words/en.json', import.meta.url), 'utf8')));
// The log's lines are the game page's story chunk, made as the page makes it.
const { describe, announcement } = makeStory(storyDeps());
// The join form's lines are the seat chunk's (invite.js).
const { invitation } = inviteText(inviteDeps());

test('poll timing', async (t) => {
  const cases = [
    ['every 2 s while the game is live (changed in the last minute)', { visible: true, waiting: true, idleMs: 0 }, 2 * SECOND],
    ['still 2 s just before an idle minute', { visible: true, waiting: true, idleMs: MINUTE - 1 }, 2 * SECOND],
    ['10 s after an idle minute', { visible: true, waiting: true, idleMs: MINUTE }, 10 * SECOND],
    ['30 s after 3 idle minutes', { visible: true, waiting: true, idleMs: 3 * MINUTE }, 30 * SECOND],
    ['2 minutes after 15 idle minutes', { visible: true, waiting: true, idleMs: 15 * MINUTE }, 2 * MINUTE],
    ['5 minutes after an idle hour', { visible: true, waiting: true, idleMs: 60 * MINUTE }, 5 * MINUTE],
    ['30 s on our own turn (only our other devices, or a clock, change it)', { visible: true, waiting: false, idleMs: 0 }, 30 * SECOND],
    ['our own turn backs off too', { visible: true, waiting: false, idleMs: 2 * 60 * MINUTE }, 5 * MINUTE],
    ['30 s while the page is hidden', { visible: false, waiting: true, idleMs: 0 }, 30 * SECOND],
    ['hidden and idle for an hour: 5 minutes', { visible: false, waiting: true, idleMs: 2 * 60 * MINUTE }, 5 * MINUTE],
    ['no polling once the match is over', { visible: true, waiting: true, idleMs: 0, finished: true }, 0],
    ['no polling while hidden with push on: the push wakes the page', { visible: false, waiting: true, idleMs: 0, push: true }, 0],
    ['with push, live play by the seat before us that the push may not bring is still 2 s', { visible: true, waiting: true, idleMs: 0, gapMs: 90 * SECOND, push: true, next: 'near' }, 2 * SECOND],
    ['with push, live play the turn push brings: 30 s, in case the push is lost', { visible: true, waiting: true, idleMs: 0, gapMs: 90 * SECOND, push: true, next: 'pushed' }, 30 * SECOND],
    ['with push, live play by a seat further from us: 10 s', { visible: true, waiting: true, idleMs: 0, gapMs: 90 * SECOND, push: true, next: 'far' }, 10 * SECOND],
    ['with push, one move after a quiet spell is not live: 15 minutes (the push wakes the page)', { visible: true, waiting: true, idleMs: 0, gapMs: 20 * MINUTE, push: true, next: 'near' }, 15 * MINUTE],
    ['with push, a page that saw one change only is not live: 15 minutes', { visible: true, waiting: true, idleMs: 0, gapMs: Infinity, push: true, next: 'far' }, 15 * MINUTE],
    ['with push, waiting after an idle minute: 15 minutes, not 10 s', { visible: true, waiting: true, idleMs: MINUTE, gapMs: 90 * SECOND, push: true, next: 'far' }, 15 * MINUTE],
    ['with push, our own turn in live play is 1 minute (clocks and turns come by push)', { visible: true, waiting: false, idleMs: 0, gapMs: 90 * SECOND, push: true }, MINUTE],
    ['with push, our own turn when nothing is live: 15 minutes (only our other devices change it)', { visible: true, waiting: false, idleMs: 0, gapMs: Infinity, push: true }, 15 * MINUTE],
    ['with push, idle play still backs off', { visible: true, waiting: true, idleMs: 2 * 60 * MINUTE, gapMs: 90 * SECOND, push: true, next: 'near' }, 15 * MINUTE],
    ['watched (every move pushed with its view): 30 minutes, live or not', { visible: true, waiting: true, idleMs: 0, gapMs: 90 * SECOND, push: true, next: 'far', watched: true }, 30 * MINUTE],
    ['watched, on our own turn: 30 minutes', { visible: true, waiting: false, idleMs: 0, gapMs: 90 * SECOND, push: true, watched: true }, 30 * MINUTE],
    ['watched but push off (cannot be): as without push', { visible: true, waiting: true, idleMs: 0, watched: true }, 2 * SECOND],
    ['watched, hidden: no polling', { visible: false, waiting: true, idleMs: 0, push: true, watched: true }, 0],
    ['watched with the table talk open: 3 s', { visible: true, waiting: true, idleMs: 0, push: true, watched: true, talking: true }, 3 * SECOND],
    ['the table talk open in view: 3 s, even on our own turn', { visible: true, waiting: false, idleMs: 0, talking: true }, 3 * SECOND],
    ['the table talk open, idle and with push: still 3 s', { visible: true, waiting: true, idleMs: 2 * 60 * MINUTE, push: true, talking: true }, 3 * SECOND],
    ['the table talk open on a live game: 2 s as before', { visible: true, waiting: true, idleMs: 0, talking: true }, 2 * SECOND],
    ['the table talk open but hidden: as without it', { visible: false, waiting: true, idleMs: 0, talking: true }, 30 * SECOND],
    ['the table talk open after the match: 3 s, for the last words', { visible: true, waiting: true, idleMs: 0, finished: true, talking: true }, 3 * SECOND],
    ['the table talk open after the match, hidden: no polling', { visible: false, waiting: true, idleMs: 0, finished: true, talking: true }, 0],
  ];
  for (const [name, input, want] of cases) {
    await t.test(name, () => assert.equal(pollDelay(input), want, `pollDelay(${JSON.stringify(input)})`));
  }
});

test('focus and visibility do not poll again while a poll is on its way or just ended', async () => {
  const saved = { fetch: globalThis.fetch, document: globalThis.document };
  const gets = [];
  let answer;
  globalThis.document = { hidden: false };
  globalThis.fetch = (url) => { gets.push(url); return new Promise((r) => { answer = r; }); };
  const res = { status: 200, ok: true, json: async () => ({ status: 'finished' }), headers: { get: () => '"v1"' } };
  // Waits (up to 5 s) for what an answered GET leads to: a fixed sleep was
  // too short on a loaded machine, and the failed test's poller then kept
  // the process alive for ever (CI waited on it).
  const until = async (cond) => { for (let i = 0; i < 500 && !cond(); i++) await new Promise((r) => setTimeout(r, 10)); };
  let p;
  try {
    const views = [];
    p = new Poller('g1', { token: 't', onView: (v) => views.push(v), onError: () => {}, state: () => ({ finished: true }) });
    p.now();
    p.wake(); // focus while the first GET is on its way
    assert.equal(gets.length, 1, 'one GET while the first is on its way');
    answer(res);
    await until(() => views.length === 1 && !p.busy);
    assert.equal(views.length, 1);
    p.wake(); // visibility just after it ended
    assert.equal(gets.length, 1, 'no GET just after one ended');
    assert.ok(p.timer && p.dueAt <= p.polledAt + 2 * SECOND, 'but one two seconds after it');
    p.polledAt -= 2 * SECOND;
    p.wake(); // focus later: polls
    assert.equal(gets.length, 2, 'a later focus polls');
    p.now(); // a user action polls (after the GET on its way)
    assert.equal(gets.length, 2);
    answer(res);
    await until(() => gets.length === 3);
    assert.equal(gets.length, 3, 'now() while busy polls once more after');
    answer(res);
  } finally {
    if (p) p.stop(); // also when an assertion failed: no timer outlives the test
    globalThis.fetch = saved.fetch;
    globalThis.document = saved.document;
  }
});

test('nextPlay: which next play the turn push brings', () => {
  // The server says whether our turn surely comes after the seat before
  // ours (you.answers: the engine's promise, tested in engine/answers_test.go);
  // the page reasons about no tile.
  const view = (turn, answers, { seats = 4, you = 2 } = {}) => ({
    status: 'playing',
    seats: Array.from({ length: seats }, () => ({ tiles: 5, away: false })),
    hand: { phase: 'play', turn, board: { line: [[3, 5]], up: [], down: [], ends: [{ pips: 3 }, { pips: 5 }] } },
    you: { seat: you, tiles: [[3, 3]], answers },
  });
  assert.equal(nextPlay(view(1, true)), 'pushed');
  assert.equal(nextPlay(view(1, false)), 'near', 'the seat before ours may leave us nothing to play');
  assert.equal(nextPlay(view(0, false)), 'far', 'two seats before us');
  assert.equal(nextPlay(view(2, false)), 'far', 'our own turn is not a next play');
  assert.equal(nextPlay(view(1, true, { seats: 2, you: 0 })), 'pushed', 'two players: seat 1 is before seat 0');
  assert.equal(nextPlay({ ...view(1, true), status: 'finished' }), null);
  assert.equal(nextPlay({ ...view(1, true), you: null }), null, 'a spectator');
  assert.equal(nextPlay(null), null);
});

test('failed polls back off 2, 4, 8 … 60 s', () => {
  assert.deepEqual([1, 2, 3, 4, 5, 6, 10].map(errorDelay), [2000, 4000, 8000, 16000, 32000, 60000, 60000]);
});

test('error answers: the API\'s own, API Gateway\'s {"message"} and the rest', () => {
  const own = apiError(404, { error: { code: 'not_found', message: 'There is no such game.' } });
  assert.ok(own instanceof ApiError);
  assert.equal(own.code, 'not_found');
  const gw404 = apiError(404, { message: 'Not Found' });
  assert.ok(gw404 instanceof ApiError, 'API Gateway\'s 404 is not_found, not a network error');
  assert.equal(gw404.code, 'not_found');
  assert.equal(apiError(413, { message: 'Request Entity Too Large' }).code, 'too_large');
  for (const body of [{ message: 'Too Many Requests' }, { error: { code: 'rate_limited', message: 'Too many requests.' } }]) {
    const e = apiError(429, body, '7');
    assert.ok(e instanceof RateLimited && e instanceof NetworkError, 'a 429 is retried');
    assert.equal(e.code, 'rate_limited');
    assert.equal(e.retryAfterMs, 7000);
  }
  assert.equal(apiError(429, null, null).retryAfterMs, 1000, 'no Retry-After: 1 s');
  assert.equal(retryAfterMs('100000'), 600000, 'at most 10 minutes');
  assert.ok(apiError(503, { message: 'Service Unavailable' }) instanceof NetworkError);
  assert.ok(apiError(502, null) instanceof NetworkError);
  assert.ok(!(apiError(418, 'teapot') instanceof ApiError), 'an answer nobody wrote is passing trouble');
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

// The QR codes of player links read back as the same text (jsQR, an
// independent reader), in every version the encoder makes (1 to 10).
test('QR codes read back', () => {
  const read = (grid) => {
    const scale = 4, quiet = 4, n = (grid.length + 2 * quiet) * scale;
    const px = new Uint8ClampedArray(n * n * 4).fill(255);
    grid.forEach((row, y) => row.forEach((dark, x) => {
      if (!dark) return;
      for (let dy = 0; dy < scale; dy++) {
        for (let dx = 0; dx < scale; dx++) {
          const i = (((y + quiet) * scale + dy) * n + (x + quiet) * scale + dx) * 4;
          px[i] = px[i + 1] = px[i + 2] = 0;
        }
      }
    }));
    const r = jsQR(px, n, n);
    return r ? r.data : null;
  };
  const sizes = new Set();
  for (const n of [1, 14, 20, 40, 60, 80, 100, 115, 150, 175, 200, 213]) {
    const text = ('https://tessera.example/#key=' + 'aZ09-_'.repeat(40)).slice(0, n);
    const grid = qrMatrix(text);
    sizes.add(grid.length);
    assert.equal(read(grid), text, `${n} bytes (${grid.length} modules)`);
  }
  assert.deepEqual([...sizes].sort((a, b) => a - b), [21, 25, 29, 33, 37, 41, 45, 49, 53, 57], 'versions 1 to 10');
  assert.equal(read(qrMatrix('Ana’s link: é')), 'Ana’s link: é', 'UTF-8');
  assert.throws(() => qrMatrix('x'.repeat(214)), RangeError);
});

test('"2 hours ago" and "2 days left", in both languages (Intl and the catalogs)', async () => {
  const now = Date.parse('2026-12-01T12:00:00Z');
  const { ago, left } = await import('../frontend/static/assets/clock.js');
  const want = {
    en: ['just now', '5 minutes ago', '2 hours ago', 'yesterday', '4 days ago', '2 days left', '1 day left', '5 h left', '2 min left', '30 s left', '1 s left', 'time is up'],
    it: ['proprio ora', '5 minuti fa', '2 ore fa', 'ieri', '4 giorni fa', 'ancora 2 giorni', 'ancora 1 giorno', 'ancora 5 ore', 'ancora 2 minuti', 'ancora 30 secondi', 'ancora 1 secondo', 'tempo scaduto'],
  };
  try {
    for (const lang of ['en', 'it']) {
      useCatalog(lang, JSON.parse(fs.readFileSync(new URL(`../frontend/words/${lang}.json`, import.meta.url), 'utf8')));
      assert.deepEqual([
        ago('2026-12-01T11:59:30Z', now), ago('2026-12-01T11:55:00Z', now), ago('2026-12-01T10:00:00Z', now),
        ago('2026-11-30T10:00:00Z', now), ago('2026-11-27T12:00:00Z', now),
        left('2026-12-03T12:00:01Z', now), left('2026-12-02T13:00:00Z', now), left('2026-12-01T17:30:00Z', now),
        left('2026-12-01T12:02:10Z', now), left('2026-12-01T12:00:30Z', now), left('2026-12-01T12:00:00.400Z', now), left('2026-12-01T11:00:00Z', now),
      ], want[lang], lang);
    }
  } finally {
    useCatalog('en', JSON.parse(fs.readFileSync(new URL('../frontend/words/en.json', import.meta.url), 'utf8')));
  }
});

test('counts are singular for one', async () => {
  const { count } = await import('../frontend/static/assets/log.js');
  assert.equal(count(1, 'pip'), '1 pip');
  assert.equal(count(0, 'pip'), '0 pips');
  assert.equal(count(12, 'point'), '12 points');
});

test('the join panel says who invited you to what', async () => {
  const v = (variant, players, pairs, target, host = 'Ana') => ({ variant, options: { players, pairs, target }, seats: [{ seat: 0, name: host }] });
  assert.equal(invitation(v('fiveup', 3, false, 250)), 'Ana invited you to Five Up: 3 players, to 250.');
  assert.equal(invitation(v('fiveup', 4, true, 100)), 'Ana invited you to Five Up: 4 players in pairs, to 100.');
  assert.equal(invitation(v('partnership', 4, true, 50, 'Bea')), 'Bea invited you to Partnership: 4 players, to 50.');
});

test("screen readers hear the others' moves since the last view", async () => {
  const v = {
    seats: [{ seat: 0, name: 'Ana', team: 0 }, { seat: 1, name: 'Bea', team: 1 }],
    log: [
      { seq: 1, hand: 1, type: 'deal', leader: 0 },
      { seq: 2, hand: 1, type: 'play', seat: 0, tile: [6, 6], end: 'lead', points: 0 },
      { seq: 3, hand: 1, type: 'play', seat: 1, tile: [6, 1], end: 'right', points: 5 },
      { seq: 4, hand: 1, type: 'draw', seat: 0, count: 2 },
      { seq: 5, hand: 1, type: 'pass', seat: 0 },
    ],
  };
  const said = announcement(v, 0, 2);
  assert.match(said, /^Bea played 6.1 on the right and scored 5\.$/);
  assert.equal(announcement(v, 0, 5), '');
  assert.match(announcement(v, 1, 3), /^You drew 2 and passed\.$|^Ana drew 2 and passed\.$/);
});

test('the count is written as its sum', async () => {
  const { countSum } = await import('../frontend/static/assets/table.js');
  assert.equal(countSum([6, 2, 1, 0, 6]), '6 + 2 + 1 + 0 + 6 = 15');
  assert.equal(countSum([5, 5]), '5 + 5 = 10');
});

test('newPlays: the plays after the view before, in the same hand only', async () => {
  const { newPlays, tileKey } = await import('../frontend/static/assets/replay.js');
  const deal = { seq: 1, hand: 2, type: 'deal' };
  const p = (seq, seat, points = 0) => ({ seq, hand: 2, type: 'play', seat, tile: [seq % 7, 1], end: 'left', points });
  const v = (log, hand = 2, id = 'g') => ({ id, hand: { number: hand }, log });
  const before = v([deal, p(2, 0)]);
  const after = v([deal, p(2, 0), p(3, 1, 5), { seq: 4, hand: 2, type: 'draw', seat: 2, count: 1 }, p(5, 2)]);
  assert.deepEqual(newPlays(before, after).map((e) => e.seq), [3, 5]);
  assert.deepEqual(newPlays(null, after), [], 'nothing on the first load');
  assert.deepEqual(newPlays(v(before.log, 2, 'other'), after), [], 'nothing across games');
  assert.deepEqual(newPlays(v(before.log, 1), after), [], 'nothing across hands');
  assert.deepEqual(newPlays(before, v([...after.log, { seq: 6, hand: 2, type: 'deal' }, p(7, 0)])), [], 'a redeal lays the board anew');
  assert.deepEqual(newPlays(after, after), []);
  assert.equal(tileKey([5, 2]), '2-5');
  assert.equal(tileKey([2, 5]), '2-5');
});

test('isolate: names with right-to-left letters are bidi-isolated inside sentences', async () => {
  const { isolate } = await import('../frontend/static/assets/mygames.js');
  const { seatName } = await import('../frontend/static/assets/log.js');
  assert.equal(isolate('Ana'), 'Ana', 'a left-to-right name is left as it is');
  assert.equal(isolate('12'), '12');
  assert.equal(isolate('דנה'), '\u2068דנה\u2069');
  assert.equal(isolate('سارا!'), '\u2068سارا!\u2069');
  const view = { seats: [{ seat: 0, name: 'דנה', team: 0 }, { seat: 1, name: 'Bea', team: 1 }], options: { players: 2, target: 250 }, variant: 'fiveup' };
  assert.equal(seatName(view, 0, null), '\u2068דנה\u2069');
  assert.equal(seatName(view, 0, 0), 'You');
  assert.match(invitation(view), /^\u2068דנה\u2069 invited you to /);
});

test('a clock turns urgent in its last tenth and its last hour, and counts seconds at the end', async () => {
  const { countdown, nextTick } = await import('../frontend/static/assets/clock.js');
  const now = Date.parse('2026-12-01T12:00:00Z');
  const at = (s) => new Date(now + s * 1000).toISOString();
  const day = 86400;
  assert.deepEqual(countdown(at(3 * day), 7 * day, now), { text: '3 days left', urgent: false });
  assert.deepEqual(countdown(at(0.6 * day), 7 * day, now), { text: 'Hurry: 14 h left', urgent: true }, 'the last tenth of 7 days');
  assert.deepEqual(countdown(at(5 * 3600), day, now), { text: '5 h left', urgent: false });
  assert.deepEqual(countdown(at(40 * 60), day, now), { text: 'Hurry: 40 min left', urgent: true }, 'under an hour');
  assert.deepEqual(countdown(at(45), 60, now), { text: 'Hurry: 45 s left', urgent: true }, 'a one-minute clock counts seconds');
  assert.deepEqual(countdown(at(-5), 60, now), { text: 'time is up', urgent: true });
  assert.equal(nextTick(at(45), now), 1000, 'every second at the end');
  assert.ok(nextTick(at(3 * day + 17), now) <= 30000, 'at most every half minute');
  assert.equal(nextTick(at(-1), now), Infinity);
});

test('the log tells the computer\'s moves for an away seat as the computer\'s; a game where every person is away is paused', async () => {
  const { statusText, paused } = await import('../frontend/static/assets/table.js');
  const seats = [{ seat: 0, team: 0, name: 'Ana', taken: true, away: true }, { seat: 1, team: 1, name: 'Eve', taken: true, away: false }];
  const view = { status: 'playing', seats, hand: { turn: 0, phase: 'play' }, log: [
    { seq: 1, hand: 1, type: 'play', seat: 0, tile: [6, 6], end: 'lead', points: 0 },
    { seq: 2, hand: 1, type: 'away', seat: 0, reason: 'timeout' },
    { seq: 3, hand: 1, type: 'play', seat: 0, tile: [6, 5], end: 'left', points: 5 },
    { seq: 4, hand: 1, type: 'away', seat: 1, reason: 'asked' },
    { seq: 5, hand: 1, type: 'pass', seat: 1 },
    { seq: 6, hand: 1, type: 'back', seat: 1 },
    { seq: 7, hand: 1, type: 'play', seat: 1, tile: [5, 5], end: 'left', points: 0 },
  ] };
  assert.deepEqual(describe(view, 0).map((l) => l.text), [
    'You led 6–6', 'You ran out of time; the computer plays for you', 'The computer played 6–5 on the left and scored 5 for you',
    'Eve let the computer play', 'The computer passed for Eve', 'Eve is back', 'Eve played 5–5 on the left',
  ]);
  assert.equal(describe(view, 1)[2].text, 'The computer played 6–5 on the left and scored 5 for Ana');
  // A seat away since before the log's window: its plays are the computer's too.
  const later = { ...view, log: view.log.slice(2, 3) };
  assert.deepEqual(describe(later, 1).map((l) => l.text), ['The computer played 6–5 on the left and scored 5 for Ana']);
  assert.equal(paused(view), false);
  const all = { ...view, seats: seats.map((s) => ({ ...s, away: true })) };
  assert.equal(paused(all), true);
  assert.equal(statusText(all, 0), 'Paused: everyone is away');
  const bots = { ...view, seats: [seats[0], { ...seats[1], bot: 'easy', away: false }] };
  assert.equal(paused(bots), true, 'the computers do not keep a game of people going');
});

test('the look back: the costliest plays first, plays as good as the expert left out', () => {
  const p = (pw, pp, bw, bp, seq) => ({ seq, played: { win: pw, points: pp }, best: { win: bw, points: bp } });
  const plays = [p(0.5, 2, 0.5, 2, 1), p(0.4, 1, 0.5, 1, 2), p(0.5, 0, 0.5, 3, 3), p(0.3, 0, 0.5, 0, 4), p(0.5, 1, 0.503, 1.4, 5)];
  assert.deepEqual(costliest(plays).map((x) => x.seq), [4, 2, 3]); // 5: within 0.5% and half a point, as good
});

test('what the notes box offers when', () => {
  const v = (o) => ({ status: 'playing', you: { seat: 0, legal: [{}, {}] }, hand: { number: 3, phase: 'play', turn: 0 }, hints: [], ...o });
  assert.equal(choosing(v()), true);
  assert.equal(choosing(v({ you: { seat: 0, legal: [{}] } })), false, 'one play is no choice: no hint (issue 44)');
  assert.equal(choosing(v({ hand: { number: 3, phase: 'confirm', turn: 0 } })), false);
  assert.equal(choosing(v({ hand: { number: 3, phase: 'play', turn: 1 } })), false);
  assert.equal(reviewable(v()), 2, 'the last hand that ended, in a game with hints');
  assert.equal(reviewable(v({ hints: undefined })), 0, 'not during a match without hints');
  assert.equal(reviewable(v({ hints: undefined, status: 'finished' })), 3, 'every game, once it is over');
  assert.equal(reviewable(v({ you: null })), 0, 'a spectator has none');
});
