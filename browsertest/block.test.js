// Block for three, alone, against two computer players, through the page:
// the start form offers it from the generated rule sets (its table has no
// redeal: the box is off and unchecked; its target defaults to 100), the
// table turns counterclockwise with no count, no boneyard is drawn from,
// and the match plays to its end by clicking.

'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const h = require('./harness.js');
const { act, state } = require('./play.js');

const env = h.suite();
const { skip } = env;
const errors = [];

test('Block for three against two computers, from the start form to the end', { skip, timeout: 240000 }, async () => {
  const { page } = await h.newPlayer(env.browser, errors, { width: 1000, height: 760 }, { reducedMotion: 'reduce' }); // plays in turn: replay.test.js
  await page.goto(env.server.url + '/');
  // The rule sets' descriptions come with the words (drawn again then).
  await page.waitForFunction(() => /Block — \S/.test(document.querySelector('#variants').textContent));
  assert.match(await page.textContent('#variants'), /Block — 2-4 players alone, block game/);
  await page.check('input[name=variant][value=block]');
  assert.equal(await page.inputValue('input[name=target]'), '100', 'Block plays to 100');
  assert.equal(await page.isDisabled('input[name=redeal]'), true);
  assert.equal(await page.isChecked('input[name=redeal]'), false, 'no redeal in Block');
  assert.equal(await page.isDisabled('input[name=pairs]'), true);
  await page.selectOption('select[name=players]', '3');
  await page.fill('input[name=target]', '20');
  await page.fill('input[name=name]', 'Ana');
  await page.selectOption('select[name=seat1]', 'easy');
  await page.selectOption('select[name=seat2]', 'easy');
  await Promise.all([page.waitForURL(/\/g\/[^/]+$/), page.click('#create button[type=submit]')]);
  await page.waitForSelector('.hand-tile');
  const id = page.url().split('/g/')[1];

  // Counterclockwise: the next seat (1) on the right, seat 2 on the left.
  const at = async (pos) => page.locator(`.seat-slot[data-pos=${pos}] .seat`).getAttribute('data-seat');
  assert.deepEqual([await at('bottom'), await at('right'), await at('left')], ['0', '1', '2']);
  assert.doesNotMatch(await page.textContent('#board-info'), /Count/, 'no count in Block');

  for (let step = 0; step < 1500; step++) {
    const s = await state(page);
    if (s.status === 'finished') break;
    if (!(await act(page))) await page.waitForTimeout(200);
  }
  const v = await (await fetch(`${env.server.url}/api/games/${id}`)).json();
  assert.equal(v.status, 'finished');
  assert.equal(v.variant, 'block');
  assert.ok(v.scores[v.winner] >= 20);
  assert.ok(!v.log.some((e) => e.type === 'draw'), 'nobody draws in Block');
  await page.waitForSelector('body[data-status="finished"]');
  assert.deepEqual(errors, []);
});
