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
