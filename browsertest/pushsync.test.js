// A device subscribed for another VAPID key (the server's pair changed, so
// the push service refuses our pushes there) is subscribed again for the
// server's current key when the start page opens, and registered: the
// server's next push reaches the new subscription. In Chromium against the
// local server with web-push-testing (PushManager stubbed, as in
// push.test.js: headless Chromium has no push service).

'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const fs = require('node:fs');
const h = require('./harness');

const env = h.suite({ PUSH_ALLOW_INSECURE: '1' });
const skip = env.skip || (!fs.existsSync(h.PUSH_STAND_IN) && !h.CI ? 'web-push-testing is not installed (npm ci)' : false);
const errors = [];

const call = async (method, url, body, token) => {
  const headers = { 'Content-Type': 'application/json' };
  if (token) headers.Authorization = 'Bearer ' + token;
  const r = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return r.status === 204 ? null : r.json();
};
const b64url = (buf) => Buffer.from(buf).toString('base64url');

test('a subscription made for another VAPID key is made again for the current one', { skip, timeout: 60000 }, async () => {
  const url = env.server.url;
  const standIn = await h.startPushStandIn();
  try {
    const key = 'push-sync-test-key-0123456789abcdef';
    const { publicKey } = await call('GET', url + '/api/push');
    const otherKey = b64url(crypto.createECDH('prime256v1').generateKeys());
    const old = (await call('POST', standIn.base + '/subscribe', { userVisibleOnly: 'true', applicationServerKey: otherKey })).data;
    const fresh = (await call('POST', standIn.base + '/subscribe', { userVisibleOnly: 'true', applicationServerKey: publicKey })).data;
    // The device as an older key pair left it: registered, subscribed for
    // the other key.
    assert.equal(await call('PUT', url + '/api/me/push', { endpoint: old.endpoint, expirationTime: null, keys: old.keys }, key), null);

    const ana = await h.newPlayer(env.browser, errors);
    await ana.context.grantPermissions(['notifications'], { origin: url });
    await ana.context.addInitScript(({ old, fresh, otherKey }) => {
      const bytes = (s) => Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
      const fake = (sub, key) => ({
        endpoint: sub.endpoint, expirationTime: null, options: { applicationServerKey: key.buffer },
        toJSON() { return { endpoint: sub.endpoint, expirationTime: null, keys: sub.keys }; },
        unsubscribe: async () => { localStorage.setItem('test.unsubscribed', sub.endpoint); return true; },
      });
      window.PushManager.prototype.getSubscription = async () => {
        if (localStorage.getItem('test.fresh')) return fake(fresh, bytes(localStorage.getItem('test.fresh')));
        return localStorage.getItem('test.unsubscribed') ? null : fake(old, bytes(otherKey));
      };
      window.PushManager.prototype.subscribe = async (opts) => {
        const key = new Uint8Array(opts.applicationServerKey);
        localStorage.setItem('test.fresh', btoa(String.fromCharCode(...key)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''));
        return fake(fresh, key);
      };
    }, { old, fresh, otherKey });
    await ana.page.goto(url + '/');
    await ana.page.evaluate(({ key, endpoint }) => {
      localStorage.setItem('tessera.key', key);
      localStorage.setItem('tessera.push', endpoint);
    }, { key, endpoint: old.endpoint });
    await ana.page.goto(url + '/');
    await ana.page.waitForFunction((e) => localStorage.getItem('tessera.push') === e, fresh.endpoint, { timeout: 15000 });
    assert.equal(await ana.page.evaluate(() => localStorage.getItem('test.unsubscribed')), old.endpoint, 'the old subscription was dropped');
    assert.equal(await ana.page.evaluate(() => localStorage.getItem('test.fresh')), publicKey, 'subscribed with the server\'s key');

    // The server now pushes to the new subscription: Bea creates a game,
    // Ana joins with the key, and Ana's turn comes.
    const created = await call('POST', url + '/api/games', { variant: 'fiveup', players: 2, redeal: false, name: 'Bea' });
    const id = created.game.id;
    await call('POST', `${url}/api/games/${id}/seats`, { name: 'Ana', key });
    // Whoever leads, play on until a move of Bea's gives Ana the turn.
    const tokens = [created.token, key];
    let view = await call('GET', `${url}/api/games/${id}`);
    let byBea = false;
    for (let n = 0; n < 40 && !(byBea && view.hand.turn === 1); n++) {
      const seat = view.hand.turn;
      const mine = await call('GET', `${url}/api/games/${id}`, undefined, tokens[seat]);
      const lm = mine.you.legal[0];
      view = await call('POST', `${url}/api/games/${id}/moves`, { version: mine.version, type: 'play', tile: lm.tile, end: lm.end }, tokens[seat]);
      byBea = seat === 0;
    }
    assert.ok(byBea && view.hand.turn === 1, "Bea's move gave Ana the turn");
    let got = [];
    for (let i = 0; i < 100 && !got.length; i++) {
      got = (await call('POST', standIn.base + '/get-notifications', { clientHash: fresh.clientHash })).data.messages;
      if (!got.length) await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(got.length, 1, 'the turn push reached the new subscription');
    assert.equal(JSON.parse(got[0]).game, id);
    await ana.context.close();
  } finally {
    standIn.stop();
  }
  assert.deepEqual(errors, []);
});
