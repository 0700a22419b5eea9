// i18n.test.js: the pages in Italian in Chromium (a browser whose language
// is Italian, as --lang=it makes it): a Five Up match from the start form to
// its end and a partnership hand, every word read in Italian (the English
// catalog's sentences are looked for in what a person and a screen reader
// get); the switch to English and back in the middle of a game, without a
// reload and without losing the table; the choice remembered on the device;
// the rules page in both languages, reached from both pages.

'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const h = require('./harness.js');
const { act, state, finishByAPI } = require('./play.js');

const env = h.suite();
const { skip } = env;
const errors = [];

const catalog = (lang) => JSON.parse(fs.readFileSync(path.join(h.ROOT, 'frontend', 'words', lang + '.json'), 'utf8'));
const EN = catalog('en'), IT = catalog('it');

// englishOnly: the English catalog's fixed words (between placeholders) of
// at least two words and ten letters that the Italian catalog does not
// also use: none of them may be read on an Italian page.
const englishOnly = (() => {
  const forms = (v) => (typeof v === 'object' ? Object.values(v) : [v]);
  const italian = Object.values(IT).flatMap(forms).join('\n');
  const out = new Set();
  for (const v of Object.values(EN).flatMap(forms)) {
    for (const piece of v.split(/\{\w+\}/)) {
      const p = piece.trim().replace(/^[,.;:!?—–-]+|[,.;:!?—–-]+$/g, '').trim();
      if (p.length >= 10 && /\w+\s+\w+/.test(p) && !italian.includes(p)) out.add(p);
    }
  }
  return [...out];
})();

/** readable: what a person and a screen reader get from the page now. */
const readable = (page) => page.evaluate(() => {
  const attrs = [...document.querySelectorAll('[aria-label], [title]')]
    .filter((e) => !e.closest('[hidden]'))
    .flatMap((e) => [e.getAttribute('aria-label'), e.getAttribute('title')]);
  return [document.title, document.body.innerText, ...attrs].filter(Boolean).join('\n');
});

function noEnglish(text, where) {
  const found = englishOnly.filter((p) => text.includes(p));
  assert.deepEqual(found, [], `${where}: English words on an Italian page`);
}

async function startItalian(viewport) {
  const p = await h.newPlayer(env.browser, errors, viewport, { locale: 'it-IT', reducedMotion: 'reduce' });
  await p.page.goto(env.server.url + '/');
  // The words have come: the rule sets' names show before them (from the
  // config), their descriptions only with them (CI once checked too soon).
  await p.page.waitForSelector('#variants .what:not(:empty)');
  return p;
}

test('a Five Up match in Italian, from the start form to its end', { skip, timeout: 180000 }, async () => {
  const { page, context } = await startItalian();
  // English here means the Italian catalog could not be read (i18n.js
  // falls back): the page's errors say why.
  assert.equal(await page.getAttribute('html', 'lang'), 'it', errors.join('\n'));
  assert.equal(await page.title(), 'Tessera — domino con gli amici');
  assert.equal(await page.textContent('#new-h'), 'Nuova partita');
  assert.match(await page.textContent('#variants'), /Five Up — 2-4 giocatori, si segnano le estremità a multipli di cinque/);
  assert.match(await page.textContent('#variants'), /Domino a coppie — 4 giocatori a coppie, gioco bloccato, senza monte/);
  noEnglish(await readable(page), 'the start page');
  await h.shot(page, 'it-start-page');
  // The form, in Italian: a name, two players, a computer, to 60.
  await page.fill('input[name=name]', 'Ana');
  await page.selectOption('select[name=players]', '2');
  await page.selectOption('select[name=seat1]', 'easy');
  assert.match(await page.textContent('#seats'), /Posto 2/);
  await page.fill('input[name=target]', '60');
  await page.click('#create button[type=submit]');
  await page.waitForSelector('.hand-tile');
  await page.waitForFunction(() => !!document.querySelector('#notify button') && document.querySelector('#notify button').textContent !== '');
  assert.match(await page.textContent('.seat-slot[data-pos=bottom] .name'), /^Ana \(tu\)$/);
  assert.match(await page.textContent('#board-info'), /Mano 1.*Conto.*Monte.*Traguardo 60/s);
  assert.match(await page.textContent('.seat-slot[data-pos=top] .meta'), /computer, facile/);
  assert.match(await page.textContent('#notify'), /Avvisami quando tocca a me/);
  // A few plays through the page, each read in Italian.
  let mine = 0;
  for (let step = 0; step < 200 && mine < 3; step++) {
    const s = await state(page);
    if (s.status === 'finished') break;
    if (s.turn === 'mine' && !(await page.isVisible('#summary')) && !(await page.isVisible('#confirm'))) {
      assert.equal(await page.textContent('#status'), 'Tocca a te');
      assert.equal(await page.title(), '● Tocca a te — Tessera');
      assert.equal(await page.textContent('#prompt'), 'Tocca a te: scegli una tessera tra quelle evidenziate.');
      noEnglish(await readable(page), 'the table, my turn');
      if (mine === 1) await h.shot(page, 'it-fiveup-midgame');
    }
    if ((await act(page)) === 'played') mine++;
    else await page.waitForTimeout(100);
  }
  assert.ok(mine >= 1, 'Ana played through the page');
  const log = await page.locator('#log li').allTextContents();
  assert.ok(log.some((l) => /^(Hai giocato|Hai aperto) \d–\d/.test(l)), `the log says what Ana did: ${log.join(' | ')}`);
  assert.ok(log.some((l) => /^Nuova smazzata, mano 1: apr/.test(l)), 'the deal, in Italian');
  noEnglish(await readable(page), 'the table with its log');
  // To the end (through the API: the page follows), then the end in Italian.
  await finishByAPI([page]);
  await page.waitForSelector('#summary:not([hidden])');
  assert.match(await page.textContent('#status'), /^Partita finita: (hai vinto|vince Otto)$/);
  assert.match(await page.textContent('#summary'), /Punteggi: .*\(traguardo 60\)/);
  assert.match(await page.textContent('#summary'), /Gioca la rivincita/);
  noEnglish(await readable(page), 'the end of the match');
  await context.close();
  assert.deepEqual(errors, []);
});

test('a partnership hand in Italian against three computers', { skip, timeout: 180000 }, async () => {
  const { page, context } = await startItalian({ width: 1000, height: 760 });
  await page.fill('input[name=name]', 'Ana');
  await page.check('#variants input[value=partnership]');
  for (const seat of [1, 2, 3]) await page.selectOption(`select[name=seat${seat}]`, 'easy');
  assert.match(await page.textContent('#seats'), /Posto 3 \(il tuo compagno\)/);
  await page.click('#create button[type=submit]');
  await page.waitForSelector('.hand-tile');
  assert.match(await page.textContent('#board-info'), /Traguardo 50/);
  assert.match(await page.textContent('#board-info'), /Tu e \w+: 0.*\w+ e \w+: 0/s, 'the pairs, joined in Italian');
  for (let step = 0; step < 400 && !(await page.isVisible('#summary')); step++) {
    if (!(await act(page, { keepSummary: true }))) await page.waitForTimeout(100);
  }
  assert.ok(await page.isVisible('#summary'), 'the hand ended');
  const summary = await page.textContent('#summary');
  assert.match(summary, /Risultato della mano 1|Partita finita/);
  assert.match(summary, /Mano 1(?: finita: .* chiuso|: gioco bloccato)/);
  assert.match(summary, /Punteggi: /);
  assert.match(await page.textContent('#summary-close'), /^(Continua|Guarda il tavolo)$/);
  noEnglish(await readable(page), 'the hand summary');
  await h.shot(page, 'it-hand-end-summary');
  await context.close();
  assert.deepEqual(errors, []);
});

test('switching language mid-game keeps the table and needs no reload; the choice stays on the device', { skip, timeout: 120000 }, async () => {
  const { page, context } = await startItalian();
  await page.fill('input[name=name]', 'Ana');
  await page.selectOption('select[name=players]', '2');
  await page.selectOption('select[name=seat1]', 'easy');
  await page.click('#create button[type=submit]');
  await page.waitForSelector('.hand-tile');
  for (let step = 0; step < 100 && !(await page.locator('.hand-tile.playable').count()); step++) {
    if ((await state(page)).turn === 'mine' && (await page.isVisible('#confirm'))) await page.click('#keep-btn');
    else if (await page.isVisible('#summary')) await page.click('#summary-close');
    else await page.waitForTimeout(100);
  }
  await page.evaluate(() => { window.__notReloaded = true; });
  const before = await state(page);
  const tiles = await page.locator('.hand-tile').count();
  // A tile that fits two ends is selected, not played: the choice
  // survives the switch (when the hand has one).
  const multi = await page.evaluate(async () => {
    const id = location.pathname.split('/')[2];
    const { token } = JSON.parse(localStorage.getItem('tessera.games'))[id];
    const v = await (await fetch(`/api/games/${id}`, { headers: { Authorization: `Bearer ${token}` } })).json();
    const n = {};
    for (const m of v.you.legal) { const k = [...m.tile].sort().join(); n[k] = (n[k] || 0) + 1; }
    return v.you.tiles.findIndex((t) => n[[...t].sort().join()] > 1);
  });
  if (multi >= 0) await page.locator(`.hand-tile[data-index="${multi}"]`).click();
  const selected = await page.locator('.hand-tile.selected').count();
  assert.equal(selected, multi >= 0 ? 1 : 0);
  await page.click('#menu-btn');
  assert.equal(await page.textContent('#lang button'), 'English');
  await page.click('#lang button');
  await page.waitForFunction(() => document.documentElement.lang === 'en');
  assert.equal(await page.evaluate(() => window.__notReloaded), true, 'no reload');
  assert.equal((await state(page)).version, before.version, 'the same game, the same version');
  assert.equal(await page.locator('.hand-tile').count(), tiles, 'the same hand');
  assert.equal(await page.locator('.hand-tile.selected').count(), selected, 'the selected tile stays selected');
  assert.match(await page.textContent('#status'), /^Your turn$/);
  assert.match(await page.textContent('#board-info'), /Hand 1/);
  assert.ok((await page.locator('#log li').allTextContents()).every((l) => !/Nuova smazzata|Hai /.test(l)), 'the log, in English');
  assert.equal(await page.textContent('#menu-btn'), 'Share');
  assert.equal(await page.textContent('#lang button'), 'Italiano');
  // Remembered: a reload stays English in this Italian browser.
  await page.reload();
  await page.waitForSelector('.hand-tile');
  assert.equal(await page.getAttribute('html', 'lang'), 'en');
  assert.match(await page.textContent('#status'), /turn/);
  // And back, on the start page this time.
  await page.goto(env.server.url + '/');
  await page.waitForSelector('#variants .what:not(:empty)');
  assert.equal(await page.textContent('#new-h'), 'New game');
  await page.click('#lang button');
  await page.waitForFunction(() => document.documentElement.lang === 'it');
  assert.equal(await page.textContent('#new-h'), 'Nuova partita');
  assert.match(await page.textContent('#my-games'), /Five Up con Ana, Otto/);
  await context.close();
  assert.deepEqual(errors, []);
});

test('how to play: the rules of every rule set in both languages, from the start page and the game page', { skip, timeout: 60000 }, async () => {
  const { page, context } = await h.newPlayer(env.browser, errors, undefined, { locale: 'en-GB' });
  await page.goto(env.server.url + '/');
  await page.waitForSelector('#variants .what:not(:empty)');
  await page.click('.top-nav a[href="/rules"]');
  await page.waitForSelector('article[data-lang=en]:not([hidden])');
  assert.equal(await page.title(), 'How to play — Tessera');
  const en = await page.locator('article[data-lang=en] section:not([hidden]) h2').allTextContents();
  assert.deepEqual(en, ['Five Up', 'Partnership', 'Block']);
  assert.equal(await page.isVisible('article[data-lang=it]'), false);
  await page.click('#lang button');
  await page.waitForSelector('article[data-lang=it]:not([hidden])');
  assert.equal(await page.title(), 'Come si gioca — Tessera');
  assert.deepEqual(await page.locator('article[data-lang=it] section:not([hidden]) h2').allTextContents(), ['Five Up', 'Domino a coppie', 'Domino bloccato']);
  assert.equal(await page.isVisible('article[data-lang=en]'), false);
  noEnglish(await readable(page), 'the rules in Italian');
  // The game page's menu leads there too. A table still waiting for its
  // second player: nothing is dealt, so no hand can end (and no dialog can
  // cover the menu) whatever the deal would have been.
  const created = await (await fetch(env.server.url + '/api/games', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ variant: 'block', players: 2, name: 'Ana' }) })).json();
  await page.goto(`${env.server.url}/g/${created.game.id}#seat=${created.token}`);
  await page.waitForSelector('#menu:not([hidden]) #invite-link'); // the creator's menu opens by itself while the table waits
  await page.click('#menu a[href="/rules"]');
  await page.waitForSelector('article[data-lang=it]:not([hidden]) section[data-variant=block]');
  await context.close();
  assert.deepEqual(errors, []);
});
