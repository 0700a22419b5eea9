// a11y.test.js: axe-core (npm, pinned) checks the pages against WCAG 2 A
// and AA: the start page, the game page mid-hand, with the hand summary
// open, and at the end of a match, in light and dark. axe is injected with
// page.evaluate: the pages' CSP blocks script tags.

'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const h = require('./harness.js');
const { createGame, act, state } = require('./play.js');

const env = h.suite();
const { skip } = env;
const errors = [];
const AXE = skip ? '' : fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

async function violations(page) {
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    // eslint-disable-next-line no-undef
    const r = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return r.violations.map((v) => `${v.id} (${v.impact}): ${v.help}; ${v.nodes.slice(0, 3).map((n) => n.target.join(' ') + (n.failureSummary ? ' — ' + n.failureSummary.split('\n').slice(1, 2).join('') : '')).join(' | ')}`);
  });
}

for (const colorScheme of ['light', 'dark']) {
  test(`no accessibility violations (${colorScheme})`, { skip, timeout: 180000 }, async () => {
    const context = await env.browser.newContext({ viewport: { width: 1100, height: 800 }, colorScheme });
    const page = h.watch(await context.newPage(), errors);
    const found = {};
    await page.goto(env.server.url + '/');
    await page.waitForSelector('#create');
    found['start page'] = await violations(page);
    await createGame(page, env.server.url, { variant: 'fiveup', players: 2, target: 100, redeal: false, name: 'Ana', seats: ['easy'] });
    await page.waitForSelector('.hand-tile');
    found['game page, mid-hand'] = await violations(page);
    let summary = false;
    for (let step = 0; step < 600; step++) {
      if (await page.isVisible('#summary')) {
        const s = await state(page);
        if (s.status === 'finished') { found['match end'] = await violations(page); break; }
        if (!summary) { found['hand summary open'] = await violations(page); summary = true; }
      }
      if (!(await act(page))) await page.waitForTimeout(100);
    }
    assert.ok(found['match end'], 'the match ended');
    assert.ok(found['hand summary open'], 'a hand ended before the match did');
    await context.close();
    const all = Object.entries(found).filter(([, v]) => v.length).map(([k, v]) => `${k}:\n  ${v.join('\n  ')}`);
    assert.deepEqual(all, [], all.join('\n'));
    assert.deepEqual(errors, []);
  });
}
