// live.js: two friends playing live on the game page with push on (issue
// 14): how long a friend's move takes to show on the other page, and how
// many polls each page sends. Not a test: a measurement, run by hand:
//
//   node browsertest/perf/live.js [moves]      (default 30)
//
// It starts the local server and the push service stand-in
// (web-push-testing), opens Ana's and Bea's pages in Chromium with "Notify
// me" on (PushManager stubbed with a stand-in subscription, as push.test.js
// does), and relays every push the stand-in receives for a page's device to
// that page's service worker through the DevTools protocol, polling the
// stand-in every 50 ms (so a push arrives within about 50 ms, where a real
// push service takes some 100 ms to a few seconds). The two pages then play a
// two-player Five Up match by clicks. For each move it reports the time from
// the mover's page showing its own move to the friend's page showing it,
// and whether a push brought it. The page polls on its own schedule
// (pollDelay); nothing here makes it poll.
'use strict';
const h = require('../harness.js');
const { act, state, createGame, joinGame } = require('../play.js');

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length ? s[(s.length - 1) >> 1] : NaN; };

async function main() {
  const moves = Number(process.argv[2] || 30);
  const server = await h.startServer({ RATE_LIMIT: '0', PUSH_ALLOW_INSECURE: '1' });
  const standIn = await h.startPushStandIn();
  const browser = await h.launch();
  const post = async (base, path, body) => (await fetch(base + path, { method: 'POST', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } })).json();
  const relays = [];
  try {
    const { publicKey } = await (await fetch(server.url + '/api/push')).json();
    const players = [];
    for (const name of ['Ana', 'Bea']) {
      const sub = (await post(standIn.base, '/subscribe', { userVisibleOnly: 'true', applicationServerKey: publicKey })).data;
      const p = await h.newPlayer(browser, []);
      await p.context.grantPermissions(['notifications'], { origin: server.url });
      await h.stubPush(p.context, sub);
      p.name = name;
      p.sub = sub;
      p.gets = 0;
      p.pushes = 0;
      players.push(p);
    }
    const [ana, bea] = players;
    const id = await createGame(ana.page, server.url, { variant: 'fiveup', players: 2, redeal: false, target: 250, name: 'Ana' });
    await joinGame(bea.page, `${server.url}/g/${id}`, 'Bea');
    for (const p of players) {
      await p.page.waitForSelector('#notify:not([hidden])');
      await p.page.click('#notify button');
      await p.page.waitForSelector('#notify[data-state=on]');
      p.page.on('request', (r) => { if (r.method() === 'GET' && r.url().includes(`/api/games/${id}`)) p.gets++; });
      // The relay: the stand-in's messages for this device, to its service worker.
      const cdp = await p.context.newCDPSession(p.page);
      const regs = new Map();
      cdp.on('ServiceWorker.workerRegistrationUpdated', (ev) => { for (const r of ev.registrations) regs.set(r.scopeURL, r.registrationId); });
      await cdp.send('ServiceWorker.enable');
      while (!regs.get(server.url + '/')) await new Promise((r) => setTimeout(r, 50));
      const registrationId = regs.get(server.url + '/');
      let stopped = false;
      relays.push(() => { stopped = true; });
      (async () => {
        while (!stopped) {
          const got = await post(standIn.base, '/get-notifications', { clientHash: p.sub.clientHash }).catch(() => null);
          const all = (got && got.data && got.data.messages) || []; // every message so far
          for (const data of all.slice(p.pushes)) {
            p.pushes++;
            p.lastPush = JSON.parse(data).version;
            await cdp.send('ServiceWorker.deliverPushMessage', { origin: server.url, registrationId, data }).catch(() => {});
          }
          await new Promise((r) => setTimeout(r, 50));
        }
      })();
    }
    const started = Date.now();
    const shown = [];
    let made = 0;
    for (let step = 0; made < moves && step < 20 * moves; step++) {
      for (const [i, p] of players.entries()) {
        const friend = players[1 - i];
        const did = await act(p.page);
        if (did === 'finished') { step = Infinity; break; }
        if (did !== 'played') continue;
        made++;
        const v = (await state(p.page)).version;
        const t0 = Date.now();
        await friend.page.waitForFunction((v) => Number(document.body.dataset.version) >= v, v, { timeout: 120000 });
        shown.push({ ms: Date.now() - t0, pushed: friend.lastPush >= v });
        // A think time of 1-4 s, so that polls and moves do not line up.
        await new Promise((r) => setTimeout(r, 1000 + Math.random() * 3000));
      }
    }
    const minutes = (Date.now() - started) / 60000;
    const byPush = shown.filter((s) => s.pushed).map((s) => s.ms), byPoll = shown.filter((s) => !s.pushed).map((s) => s.ms);
    const all = shown.map((s) => s.ms);
    console.log(`${shown.length} moves in ${minutes.toFixed(1)} min: a friend's move showed after median ${median(all)} ms, max ${Math.max(...all)} ms`);
    console.log(`  brought by a turn push: ${byPush.length}, median ${median(byPush)} ms, max ${byPush.length ? Math.max(...byPush) : '-'} ms`);
    console.log(`  seen by a poll (no push for that move): ${byPoll.length}, median ${median(byPoll)} ms, max ${byPoll.length ? Math.max(...byPoll) : '-'} ms`);
    for (const p of players) console.log(`  ${p.name}'s page: ${p.gets} GETs of the game (${(p.gets / minutes).toFixed(1)} a minute), ${p.pushes} pushes`);
  } finally {
    for (const stop of relays) stop();
    await browser.close();
    standIn.stop();
    await server.stop();
  }
}

main().catch((e) => { console.error(e); process.exit(1); });
