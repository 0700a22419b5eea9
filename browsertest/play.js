// play.js: what a player does on the page, step by step, through the UI
// only (clicks, form fields, keys). Shared by the browser tests.

'use strict';

/** createGame fills the start page form and lands on the game page. */
async function createGame(page, url, { variant = 'fiveup', players, pairs, redeal, target, name, seats = [] }) {
  await page.goto(url + '/');
  await page.check(`input[name=variant][value=${variant}]`);
  if (players) await page.selectOption('select[name=players]', String(players));
  if (pairs !== undefined) await page.setChecked('input[name=pairs]', pairs);
  if (redeal !== undefined) await page.setChecked('input[name=redeal]', redeal);
  if (target) await page.fill('input[name=target]', String(target));
  await page.fill('input[name=name]', name);
  for (let i = 0; i < seats.length; i++) await page.selectOption(`select[name=seat${i + 1}]`, seats[i]);
  await Promise.all([page.waitForURL(/\/g\/[^/]+$/), page.click('#create button[type=submit]')]);
  await page.waitForSelector('body[data-version]');
  return page.url().split('/g/')[1];
}

/** joinGame opens the invite link and takes a seat with the join form. */
async function joinGame(page, inviteURL, name) {
  await page.goto(inviteURL);
  await page.waitForSelector('#join:not([hidden])');
  const what = await page.textContent('#join-what');
  if (!/ invited you to (Five Up|Partnership): \d players/.test(what)) throw new Error(`the join panel does not say who invited you to what: "${what}"`);
  await page.fill('#join-form input[name=name]', name);
  await page.click('#join-form button[type=submit]');
  await page.waitForSelector('#join', { state: 'hidden' });
}

const state = (page) => page.evaluate(() => ({
  status: document.body.dataset.status || '',
  turn: document.body.dataset.turn || '',
  version: Number(document.body.dataset.version || 0),
}));

/**
 * act makes one decision if the page offers one: closes a hand summary,
 * answers a redeal question (keep), or clicks a playable tile and, when the
 * tile fits more than one end, the first glowing end. Returns what it did.
 */
async function act(page) {
  if (await page.isVisible('#summary')) {
    const s = await state(page);
    if (s.status === 'finished') return 'finished';
    await page.click('#summary-close');
    return 'closed summary';
  }
  if (await page.isVisible('#confirm')) {
    const before = (await state(page)).version;
    await page.click('#keep-btn');
    await waitVersionAbove(page, before);
    return 'kept';
  }
  const s = await state(page);
  if (s.turn !== 'mine') return '';
  const tile = page.locator('.hand-tile.playable').first();
  if (!(await tile.count())) return '';
  const before = s.version;
  await tile.click();
  const target = page.locator('.end-target').first();
  if (await target.count()) await target.click();
  await waitVersionAbove(page, before);
  return 'played';
}

async function waitVersionAbove(page, v, timeout = 15000) {
  try {
    await page.waitForFunction((v) => Number(document.body.dataset.version) > v, v, { timeout });
  } catch (e) {
    const why = await page.evaluate(() => ({
      prompt: document.querySelector('#prompt')?.textContent,
      banner: document.querySelector('#banner')?.hidden ? '' : document.querySelector('#banner')?.textContent,
      status: document.querySelector('#status')?.textContent,
      selected: document.querySelector('.hand-tile.selected')?.getAttribute('aria-label'),
      targets: document.querySelectorAll('.end-target').length,
    }));
    throw new Error(`the game did not move past version ${v}: ${JSON.stringify(why)}`);
  }
}

/**
 * playToEnd lets every page act whenever it may until all of them show a
 * finished match (or stop(pages) says enough). Polling brings each page the
 * others' moves.
 */
async function playToEnd(pages, { maxSteps = 2000, stop } = {}) {
  for (let step = 0; step < maxSteps; step++) {
    let did = false;
    for (const p of pages) if (await act(p)) did = true;
    const states = await Promise.all(pages.map(state));
    if (states.every((s) => s.status === 'finished')) return states;
    if (stop && (await stop(pages))) return states;
    if (!did) await pages[0].waitForTimeout(250);
  }
  throw new Error('the match did not end');
}

/** boardTiles counts the tiles drawn on the layout. */
const boardTiles = (page) => page.locator('#board .layout > .tile').count();

module.exports = { createGame, joinGame, act, state, playToEnd, waitVersionAbove, boardTiles };
