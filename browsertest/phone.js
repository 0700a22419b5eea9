// phone.js: what the phone tests (issue 33) measure on a page: axe (every
// rule, best practice included) and the controls a finger presses, 44 px
// tall at least and 24 px wide (WCAG 2.5.5/2.5.8): buttons, fields,
// selects, check boxes' labels, the headers of collapsible sections
// (summary; issue 44 found them 32 px), the top links and the links that
// stand alone (a link inside a sentence is WCAG's inline exception).

'use strict';
const fs = require('node:fs');
const crypto = require('node:crypto');

/** PHONE: a 390x844 touch screen (an iPhone 12-15's CSS pixels). */
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };

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

let axeSource = '';

/**
 * shape is what of a page axe's rules read, without its words and numbers:
 * the language, the colour scheme, the viewport, and every rendered
 * element (hidden subtrees left out, as axe leaves them) with its tag, id,
 * classes, role, type, inline style and which other attributes it has,
 * and whether it holds text of its own. A run of identical siblings (the
 * rows of a table, the tiles of a hand) counts once, so one more row or
 * another player's tiles do not make a new shape. A hash of it.
 */
async function shape(page) {
  const s = await page.evaluate(() => {
    const KEEP = new Set(['class', 'role', 'type', 'style', 'lang', 'dir', 'tabindex', 'disabled', 'open']);
    const walk = (el) => {
      if (el.checkVisibility && !el.checkVisibility()) return '';
      const attrs = [...el.attributes].filter((a) => !a.name.startsWith('data-'))
        .map((a) => (KEEP.has(a.name) || a.name.startsWith('aria-') && (a.value === 'true' || a.value === 'false') ? `${a.name}=${a.value}` : `${a.name}${a.value ? '' : '=""'}`)).sort().join(' ');
      const text = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()) ? ' T' : '';
      const kids = [];
      for (const c of el.children) { const k = walk(c); if (k && k !== kids[kids.length - 1]) kids.push(k); }
      return `<${el.tagName}${el.id ? '#' + el.id : ''} ${attrs}${text}>${kids.join('')}</>`;
    };
    return [document.documentElement.lang, matchMedia('(prefers-color-scheme: dark)').matches, innerWidth, innerHeight, walk(document.documentElement)].join('|');
  });
  return crypto.createHash('sha256').update(s).digest('hex');
}

/**
 * axe runs axe-core on page (injected once per document) and returns its
 * violations as lines. rules limits it to some rules (the dark scheme of a
 * page checked in light: its colours, 'color-contrast' and
 * 'link-in-text-block'). seen (a Set, one per test file) skips a page
 * whose shape (above) a full run of that file already checked: axe's
 * answer depends on that shape, not on a player's name or a score, and a
 * full run costs chromium about 0.3 CPU-s (issue 42). Skipped: null.
 */
async function axe(page, { rules, seen } = {}) {
  let key = '';
  if (seen) {
    key = `${rules ? rules.join() : 'all'} ${await shape(page)}`;
    if (seen.has(key)) return null;
  }
  if (!axeSource) axeSource = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.evaluate(axeSource);
  const v = await page.evaluate(async (rules) => {
    // eslint-disable-next-line no-undef
    const r = await axe.run(document, rules ? { runOnly: rules } : undefined);
    return r.violations.map((x) => `${x.id} (${x.impact}): ${x.help}; ${x.nodes.slice(0, 3).map((n) => n.target.join(' ') + (n.failureSummary ? ' — ' + n.failureSummary.split('\n').slice(1, 2).join('') : '')).join(' | ')}`);
  }, rules);
  if (seen) seen.add(key);
  return v;
}

/** COLOURS: the rules that read a page's colours, for a second colour scheme. */
const COLOURS = ['color-contrast', 'link-in-text-block'];

const checked = new Set();

/**
 * check runs axe on page once its words are in (both parts on a game
 * page), unless this file already checked a page of the same shape, and
 * measures its controls (always); found[name] gets what failed.
 */
async function check(page, found, name) {
  await page.waitForSelector('html[data-words]', { state: 'attached' });
  // A game page's menus and dialogs have their words in a second part.
  if (await page.$('body.game')) await page.waitForSelector('html[data-later]', { state: 'attached' });
  const v = (await axe(page, { seen: checked })) || [];
  found[name] = [...v, ...(await small(page)).map((s) => `under 44 px: ${s}`)];
}

/** failures lists found's states that failed, for one assertion. */
function failures(found) {
  return Object.entries(found).filter(([, x]) => x.length).map(([k, x]) => `${k}:\n  ${x.join('\n  ')}`);
}

module.exports = { PHONE, small, check, failures, axe, COLOURS };
