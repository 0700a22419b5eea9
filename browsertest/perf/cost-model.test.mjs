// cost-model.test.mjs: the cost model (cost-model.mjs) is the page's own
// code on a fake clock, and stays so (issue 34). It plays an engine match
// (browsertest/perf/trace) with each lever and checks what the model
// counts against what its pages did: every GET it prices is one a real
// Poller sent; the page's calls after a move, a push and a pushed view are
// the ones app.js makes; a watched page shows every move at once and
// sends no poll but its safety net; a page that does not watch keeps the
// schedule pollDelay gives (it shows a move within 15 minutes at worst).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { simulate, traces, cost, LEVERS, GLANCED } from './cost-model.mjs';

const here = (f) => fileURLToPath(new URL(f, import.meta.url));

test('the cost model runs the page\'s Poller, and prices only what it sent', { timeout: 180000 }, async () => {
  const [tr] = traces(1, 7);
  assert.ok(tr.moves.length > 50, `a match of ${tr.moves.length} moves`);
  const totals = {};
  for (const [lever, opts] of Object.entries(LEVERS)) {
    for (const scenario of ['2 h a day', 'visible all day', GLANCED]) {
      const c = await simulate(tr, scenario, 1, opts);
      const tag = `${lever}, ${scenario}`;
      assert.ok(c.finished, `${tag}: the match ended`);
      assert.equal(c.move, tr.moves.length, `${tag}: every move made`);
      assert.equal(c.served, c.get200 + c.get304, `${tag}: every GET priced was sent by a Poller`);
      assert.ok(c.getFirst === c.opens && c.opens > 0, `${tag}: a first GET per page opened`);
      // A glanced tab is loaded once, then hidden and seen again.
      if (scenario === GLANCED) assert.equal(c.opens, tr.players, `${tag}: each tab loaded once`);
      if (opts.watch) {
        assert.equal(c.late, 0, `${tag}: a watched page shows each move as it is made`);
        // (A glanced tab reads the game as it is seen again: one GET a visit.)
        assert.ok(c.get200 + c.get304 - c.getFirst <= c.opens * 40 + (scenario === GLANCED ? c.visits : 0), `${tag}: ${c.get200 + c.get304 - c.getFirst} polls: only the safety net`);
        // (The glances of a match's players never overlap: no page in
        // view is there for another's move.)
        assert.ok((c.pushView > 0 || scenario === GLANCED) && c.watch >= c.opens, `${tag}: pages watch and are pushed views`);
      } else {
        assert.ok(c.late <= 15 * 60 * 1000 + 1000, `${tag}: a page showed an old version for ${c.late} ms`);
        assert.equal(c.watch + c.pushView, 0, `${tag}: no watch`);
      }
      totals[tag] = cost({ ...c }).total;
    }
  }
  // The levers are the page's: watching cuts the polls the model counts.
  for (const scenario of ['2 h a day', 'visible all day', GLANCED]) {
    assert.ok(totals[`ETag kept, pages watch, ${scenario}`] < totals[`before (0.1 page), ${scenario}`], JSON.stringify(totals));
    // The mover's page not pushed its move: fewer pushes, less cost.
    assert.ok(totals[`now: and the mover's page not pushed its move, ${scenario}`] < totals[`ETag kept, pages watch, ${scenario}`], JSON.stringify(totals));
  }
});

test('the model calls the page\'s own methods where app.js does', () => {
  const app = fs.readFileSync(here('../../frontend/static/assets/app.js'), 'utf8');
  const model = fs.readFileSync(here('./cost-model.mjs'), 'utf8');
  // After a move, on a push, on a pushed view; the state a Poller reads.
  for (const call of ['poller.moved(', 'else poller.now(true);', 'poller.got(', 'pollState(view, {']) {
    assert.ok(app.includes(call), `app.js calls ${call}`);
  }
  for (const call of ['.poller.moved(', 'else q.poller.now(true);', '.poller.got(', 'pollState(pg.view, {', 'new Poller(', 'renewAt(']) {
    assert.ok(model.includes(call), `the model calls ${call}`);
  }
  assert.match(app, /pollState\(view, \{ push: pushOn\(\), talking: [^,]+, watched: watch\.watched \}\)/, 'the page tells its Poller push, talk and watch');
  // skipMover is the page's: its move names its device.
  assert.ok(app.includes('device: watch.w?.endpoint'), 'app.js sends its push endpoint with a move');
});
