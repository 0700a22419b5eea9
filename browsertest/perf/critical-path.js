// critical-path.js: how fast the game page draws the board from a cold
// cache, on loopback and on emulated slow 4G (150 ms RTT, 1.6 Mbps down,
// 750 kbps up, through CDP). Not a test: a measurement, run by hand:
//
//   node browsertest/perf/critical-path.js [runs]      (default 10)
//
// It starts the local server (as the browser tests do), seats two people
// through the API, then opens the game page of seat 0 (its private link) in
// a fresh browser context each run and reports the median of first
// contentful paint and of the first hand tile drawn, in ms from navigation.
'use strict';
const h = require('../harness.js');

const PROFILES = {
  loopback: null,
  'slow 4G': { offline: false, latency: 150, downloadThroughput: (1.6e6 / 8) | 0, uploadThroughput: (750e3 / 8) | 0 },
};

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[(s.length - 1) >> 1]; };

async function main() {
  const runs = Number(process.argv[2] || 10);
  const server = await h.startServer({ RATE_LIMIT: '0' });
  const browser = await h.launch();
  try {
    const post = async (path, body, token) => {
      const r = await fetch(server.url + path, { method: 'POST', body: JSON.stringify(body),
        headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: 'Bearer ' + token } : {}) } });
      if (!r.ok) throw new Error(`${path}: ${r.status} ${await r.text()}`);
      return r.json();
    };
    const created = await post('/api/games', { variant: 'fiveup', players: 2, redeal: false, name: 'Ana' });
    await post(`/api/games/${created.game.id}/seats`, { name: 'Bea' });
    const url = `${server.url}/g/${created.game.id}#seat=${created.token}`;
    for (const [name, net] of Object.entries(PROFILES)) {
      const fcp = [], board = [];
      for (let i = 0; i < runs; i++) {
        const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
        const page = await context.newPage();
        const cdp = await context.newCDPSession(page);
        await cdp.send('Network.enable');
        await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
        if (net) await cdp.send('Network.emulateNetworkConditions', net);
        await page.addInitScript(() => {
          new MutationObserver((_, obs) => {
            if (document.querySelector('.hand-tile')) { window.__board = performance.now(); obs.disconnect(); }
          }).observe(document, { childList: true, subtree: true });
        });
        await page.goto(url);
        await page.waitForFunction(() => window.__board !== undefined, null, { timeout: 60000 });
        const t = await page.evaluate(() => ({
          board: window.__board,
          fcp: (performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime,
        }));
        fcp.push(t.fcp);
        board.push(t.board);
        await context.close();
      }
      console.log(`${name.padEnd(8)} first paint ${median(fcp).toFixed(0)} ms, board ${median(board).toFixed(0)} ms (median of ${runs}; board ${Math.min(...board).toFixed(0)}-${Math.max(...board).toFixed(0)} ms)`);
    }
  } finally {
    await browser.close();
    await server.stop();
  }
}

main().catch((e) => { console.error(e); process.exit(1); });
