// A room safe for strangers, and data its owner controls (issue 36) through
// the pages: on a stranger's profile a player mutes, blocks (after a
// confirmation) and reports; at an open table a message is reported from
// the talk; on their own profile (linked from the start page) they see
// their lists, download their data and, after a confirmation, are
// forgotten: the other player's table then shows "—" and the talk
// "(deleted)". English and Italian.

'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const h = require('./harness.js');

const env = h.suite();
const { skip } = env;
const errors = [];
const api = h.apiOf(env);

async function asPlayer(key, locale) {
  const { page, context } = await h.newPlayer(env.browser, errors, { width: 1000, height: 900 }, { locale, acceptDownloads: true });
  await page.goto(`${env.server.url}/#key=${key}`);
  await page.waitForSelector('#create');
  return { page, context };
}

test('mute, block and report a stranger; see your lists; download your data; be forgotten', { skip, timeout: 180000 }, async () => {
  const keys = { ana: 'safety-ana-key-0123456789abcdef', bea: 'safety-bea-key-0123456789abcdef' };
  await api('PUT', '/api/me/profile', { name: 'Ana' }, keys.ana);
  await api('PUT', '/api/me/profile', { name: 'Bea' }, keys.bea);
  const pb = (await api('GET', '/api/me', null, keys.bea)).player.id;
  const pa = (await api('GET', '/api/me', null, keys.ana)).player.id;
  // A game with talk: Bea says something Ana reports from the talk.
  const g = await api('POST', '/api/games', { variant: 'fiveup', players: 2, name: 'Ana', key: keys.ana });
  await api('POST', `/api/games/${g.game.id}/seats`, { name: 'Bea', key: keys.bea });
  await api('POST', `/api/games/${g.game.id}/chat`, { text: 'brutta mossa' }, keys.bea);

  const ana = await asPlayer(keys.ana, 'en-GB');
  await ana.page.goto(`${env.server.url}/p/${pb}`);
  await ana.page.waitForSelector('#safety:not([hidden]) h2:has-text("Mute, block, report")');
  await ana.page.click('#safety button:has-text("Mute Bea")');
  await ana.page.waitForSelector('#safety-note:has-text("Bea is muted")');
  await ana.page.click('#safety button:has-text("Block Bea")');
  await ana.page.waitForSelector('#safety .confirm-box:has-text("Block Bea?")');
  await ana.page.click('#safety .confirm-box button:has-text("Block Bea")');
  await ana.page.waitForSelector('#safety-note:has-text("Bea is blocked")');
  await ana.page.click('#safety button:has-text("Report Bea")');
  await ana.page.selectOption('#report-what', 'name');
  await ana.page.fill('#report-note', 'an unkind name');
  await ana.page.click('#safety .report-form button[type=submit]');
  await ana.page.waitForSelector('#safety-note:has-text("your report is with the moderators")');
  let me = (await api('GET', '/api/me', null, keys.ana)).player;
  assert.deepEqual(me.muted.map((r) => r.player), [pb]);
  assert.deepEqual(me.blocked.map((r) => r.player), [pb]);

  // The talk: Ana reports Bea's message (two taps). Muted: Bea's words are
  // not shown to Ana, so Bea reports Ana's instead, in Italian.
  await api('POST', `/api/games/${g.game.id}/chat`, { text: 'cattiva' }, keys.ana);
  const bea = await asPlayer(keys.bea, 'it-IT');
  await bea.page.goto(`${env.server.url}/g/${g.game.id}#seat=${keys.bea}`);
  await bea.page.waitForSelector('#talk:not([hidden]) summary');
  await bea.page.click('#talk summary');
  await bea.page.click('#talk li:has-text("cattiva") button:has-text("Segnala")');
  await bea.page.click('#talk li:has-text("cattiva") button:has-text("Segnalare questo messaggio?")');
  await bea.page.waitForSelector('#talk [role=status]:has-text("Segnalato")');
  // After a reload the message says it was reported; it offers no second
  // report (issue 43). Bea mutes Ana where the talk is: Ana's words leave it.
  await bea.page.reload();
  await bea.page.waitForSelector('#talk:not([hidden]) summary');
  await bea.page.click('#talk summary');
  await bea.page.waitForSelector('#talk li:has-text("cattiva") span:has-text("Segnalato")');
  assert.equal(await bea.page.locator('#talk li:has-text("cattiva") button:has-text("Segnala")').count(), 0, 'no second report');
  await bea.page.click('#talk li:has-text("cattiva") button:has-text("Silenzia")');
  await bea.page.waitForSelector('#talk [role=status]:has-text("Ana è silenziato")');
  assert.equal(await bea.page.locator('#talk li:has-text("cattiva")').count(), 0, 'the muted player\'s words leave the talk');
  assert.deepEqual((await api('GET', '/api/me', null, keys.bea)).player.muted.map((r) => r.player), [pa]);

  // Ana's own profile, from the start page: her lists and her data.
  await ana.page.goto(`${env.server.url}/`);
  await ana.page.click('#my-profile');
  await ana.page.waitForSelector(`#safety h2:has-text("Your lists and your data")`);
  assert.match(await ana.page.textContent('#safety'), /Players you muted\s*Bea/);
  const download = ana.page.waitForEvent('download');
  await ana.page.click('#safety button:has-text("Download my data")');
  const file = await (await download).path();
  const data = JSON.parse(require('node:fs').readFileSync(file, 'utf8'));
  assert.equal(data.profile.name, 'Ana');
  assert.ok(data.said.some((m) => m.text === 'cattiva'));
  await ana.page.click('#safety button:has-text("Forget me")');
  await ana.page.waitForSelector('#safety .confirm-box:has-text("This cannot be undone")');
  await Promise.all([ana.page.waitForURL(`${env.server.url}/`), ana.page.click('#safety button:has-text("Yes, forget me")')]);
  // The start page says it is done (it said nothing: issue 43), once.
  await ana.page.waitForSelector('#key-note:not([hidden]):has-text("this server has forgotten you")');
  await ana.page.reload();
  await ana.page.waitForSelector('#variants .what:not(:empty)');
  assert.equal(await ana.page.isVisible('#key-note'), false, 'the note is said once');
  const after = await api('GET', `/api/players/${pa}`).catch((e) => e);
  assert.ok(after instanceof Error || after.status === 404, 'the profile is gone');

  // Bea's table: the seat is "—", the talk "(cancellato)".
  await bea.page.reload();
  await bea.page.waitForSelector('.seat:has-text("—")');
  await bea.page.click('#talk summary');
  await bea.page.waitForSelector('#talk li:has-text("(cancellato)")');
  for (const p of [ana, bea]) await p.context.close();
  assert.deepEqual(errors, []);
});

// The room as a blocker sees it (issue 43): La sala asks for the lobby
// with the player's key, so a blocked player's new table is not in it;
// a seat refused at an unrated table (a block with someone seated there)
// says so plainly, not the rated tables' sentence. Italian and English.
for (const [locale, sit, refused] of [['it-IT', 'Siediti', 'Non puoi sederti a questo tavolo.'], ['en-GB', 'Sit down', 'You cannot sit at this table.']]) {
  test(`a blocker's room leaves out the blocked player's table; a refused seat says so (${locale})`, { skip, timeout: 120000 }, async () => {
    const tag = locale.slice(0, 2);
    const keys = { ana: `room-ana-${tag}-key-0123456789abcdef`, bea: `room-bea-${tag}-key-0123456789abcdef`, cy: `room-cy-${tag}-key-0123456789abcdef` };
    for (const [who, name] of [['ana', 'Ana'], ['bea', 'Bea'], ['cy', 'Cy']]) await api('PUT', '/api/me/profile', { name }, keys[who]);
    const pb = (await api('GET', '/api/me', null, keys.bea)).player.id;
    // Cy's table for three, with Bea seated: Ana sees it before she blocks Bea.
    const cys = await api('POST', '/api/games', { variant: 'fiveup', players: 3, name: 'Cy', key: keys.cy, open: true, moveTime: 86400 });
    await api('POST', `/api/games/${cys.game.id}/seats`, { name: 'Bea', key: keys.bea });
    const ana = await asPlayer(keys.ana, locale);
    await ana.page.goto(`${env.server.url}/room`);
    const entry = ana.page.locator(`#lobby li[data-game="${cys.game.id}"]`);
    await entry.waitFor();
    await api('PUT', `/api/me/blocks/${pb}`, null, keys.ana);
    await ana.page.fill('#name', 'Ana');
    await entry.locator(`button:has-text("${sit}")`).click();
    await ana.page.waitForSelector(`#room-error:not([hidden]):has-text("${refused}")`);
    // Bea's new table: in Cy's lobby, not in Ana's.
    const beas = await api('POST', '/api/games', { variant: 'fiveup', players: 2, name: 'Bea', key: keys.bea, open: true, moveTime: 86400 });
    const lobby = async (key) => (await api('GET', '/api/lobby', null, key)).games.map((g) => g.id);
    assert.ok((await lobby(keys.cy)).includes(beas.game.id), "Bea's table is in Cy's lobby");
    await ana.page.reload();
    // Drawn: a table, or the empty lobby's line (Cy's table has Bea at it too).
    await ana.page.waitForSelector('#lobby li, #lobby-empty:not([hidden])', { state: 'attached' });
    const shown = await ana.page.$$eval('#lobby li', (lis) => lis.map((li) => li.dataset.game));
    assert.ok(!shown.includes(beas.game.id), `Ana's room shows the table of Bea, whom she blocked: ${shown}`);
    await ana.context.close();
    // The refused seat's answer is the one 409 the browser logs.
    assert.equal(errors.filter((e) => /status of 409/.test(e)).length, 1, errors.join('\n'));
    assert.deepEqual(errors.filter((e) => !/status of 409/.test(e)), []);
    errors.length = 0;
  });
}
