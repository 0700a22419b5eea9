// phone.js: what the phone tests (issue 33) measure on a page: axe (every
// rule, best practice included) and the controls a finger presses, 44 px
// tall at least and 24 px wide (WCAG 2.5.5/2.5.8): buttons, fields,
// selects, check boxes' labels, the headers of collapsible sections
// (summary; issue 44 found them 32 px), the top links and the links that
// stand alone (a link inside a sentence is WCAG's inline exception).

'use strict';
const fs = require('node:fs');

/** PHONE: a 390x844 touch screen (an iPhone 12-15's CSS pixels). */
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };

let axeSource = '';

/** small lists the visible controls of the page under 44 px tall (or narrower than 24 px). */
async function small(page) {
  return page.evaluate(() => {
    const visible = (e) => { const r = e.getBoundingClientRect(); const s = getComputedStyle(e); return r.width > 0 && r.height > 0 && s.visibility !== 'hidden'; };
    // A link that stands alone: its parent's text is its own (a list item, a paragraph of one link).
    const alone = (a) => a.parentElement && a.parentElement.textContent.trim() === a.textContent.trim();
    const controls = [...document.querySelectorAll('button, select, input:not([type=checkbox]):not([type=radio]):not([type=hidden]), label.check, label.choice, summary, .top-nav a, .brand a, a')]
      .filter((e) => visible(e) && (e.tagName !== 'A' || e.closest('.top-nav') || e.closest('.brand') || alone(e)))
      .filter((e) => !e.closest('#board') && !e.closest('svg'));
    return controls.map((e) => { const r = e.getBoundingClientRect(); return { what: `${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''}${e.className && typeof e.className === 'string' ? '.' + e.className.split(' ')[0] : ''} "${(e.textContent || e.value || '').trim().slice(0, 30)}"`, w: r.width, h: r.height }; })
      .filter((c) => c.h < 44 - 0.5 || c.w < 24 - 0.5)
      .map((c) => `${c.what} ${c.w.toFixed(0)}x${c.h.toFixed(0)}`);
  });
}

/**
 * check runs axe on page once its words are in (both parts on a game
 * page) and measures its controls; found[name] gets what failed.
 */
async function check(page, found, name) {
  await page.waitForSelector('html[data-words]', { state: 'attached' });
  // A game page's menus and dialogs have their words in a second part.
  if (await page.$('body.game')) await page.waitForSelector('html[data-later]', { state: 'attached' });
  if (!axeSource) axeSource = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(axeSource);
  const v = await page.evaluate(async () => {
    // eslint-disable-next-line no-undef
    const r = await axe.run(document);
    return r.violations.map((x) => `${x.id}: ${x.help}; ${x.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
  });
  found[name] = [...v, ...(await small(page)).map((s) => `under 44 px: ${s}`)];
}

/** failures lists found's states that failed, for one assertion. */
function failures(found) {
  return Object.entries(found).filter(([, x]) => x.length).map(([k, x]) => `${k}:\n  ${x.join('\n  ')}`);
}

module.exports = { PHONE, small, check, failures };
