// i18n.js: the pages' words in Italian and English. The catalogs are data,
// one file per language (frontend/words/it.json and en.json: key ->
// text, with {name} placeholders; a text that depends on a number is an
// object of Intl.PluralRules categories); the build gives each page the
// part it uses (dist/<page>.<lang>.json, build.mjs). The language is the
// one chosen on this device, else the first of navigator.languages the
// pages speak, else English. Dates, times, lists and plurals come from Intl
// in that language. docs/i18n.md.

export const LANGS = ['it', 'en'];
const KEY = 'tessera.lang';

let lang = 'en';
let msgs = null; // null until a catalog is loaded: t() is '' (nothing flashes as a key)
let page = 'game';
let complete = false; // every part of the page's catalog is in: a missing key shows as itself
const listeners = [];

/** chooseLang: the stored choice, else the first preferred language spoken here, else English. */
export function chooseLang(stored, prefs) {
  if (LANGS.includes(stored)) return stored;
  for (const p of prefs || []) {
    const l = String(p).toLowerCase().split('-')[0];
    if (LANGS.includes(l)) return l;
  }
  return 'en';
}

function stored() { try { return localStorage.getItem(KEY); } catch (e) { return null; } }

/** currentLang is the language the page speaks now. */
export function currentLang() { return lang; }

/** useCatalog makes l the language, with its messages (tests; loadLang). */
export function useCatalog(l, m) {
  lang = l;
  msgs = m || {};
  complete = true;
  if (typeof document !== 'undefined') {
    document.documentElement.lang = l;
    // The words are in (html[data-words=it]): the page's own text is
    // drawn in them from here on; before, what it drew may be empty.
    document.documentElement.dataset.words = l;
  }
}

async function fetchCatalog(l, part = page) {
  const r = await fetch(`/dist/${part}.${l}.json`);
  if (!r.ok) throw new Error(`catalog ${part}.${l}: ${r.status}`);
  return r.json();
}

let parts = 1; // 2: the page's catalog has a second part (build.mjs)
let laterAsked = false;

/**
 * loadLater adds the second part of the page's catalog (the words that
 * show after a choice or a change) and applies it to the static text.
 */
export async function loadLater() {
  laterAsked = true;
  const l = lang;
  const more = await fetchCatalog(l, page + '-later');
  if (l !== lang) return; // switched meanwhile: setLang loaded both
  msgs = { ...msgs, ...more };
  complete = true;
  // Both parts are in (html[data-later]): what shows after a choice has
  // its words too.
  if (typeof document !== 'undefined') document.documentElement.dataset.later = l;
  changed();
}

/** changed applies new words to the static text and tells the listeners. */
function changed() {
  if (typeof document !== 'undefined') applyStatic(document);
  for (const f of listeners) f(lang, switching);
}

/**
 * loadLang loads the device's language (or l) for page p (game, start,
 * rules: the name of its catalog) and applies it to the page's static
 * text; twoParts: the catalog has a second part, which loadLater adds.
 * English when the catalog cannot be read.
 */
export async function loadLang(l, p, twoParts) {
  if (p) page = p;
  if (twoParts !== undefined) parts = twoParts ? 2 : 1;
  let want = l || chooseLang(stored(), typeof navigator !== 'undefined' ? (navigator.languages || [navigator.language]) : []);
  let m;
  try {
    m = await fetchCatalog(want);
  } catch (e) {
    try {
      if (want === 'en') throw e;
      want = 'en';
      m = await fetchCatalog('en');
    } catch (err) {
      // No catalog at all: the page keeps the English of its HTML, shown
      // (it waits for html[data-words], style.css).
      if (typeof document !== 'undefined') document.documentElement.dataset.words = 'en';
      throw err;
    }
  }
  // A switch: both parts before anything changes, so the page never shows
  // its new language half drawn (its lang attribute before its words).
  const both = parts === 2 && laterAsked;
  if (both) m = { ...m, ...(await fetchCatalog(want, page + '-later')) };
  useCatalog(want, m);
  complete = parts !== 2 || both;
  if (both && typeof document !== 'undefined') document.documentElement.dataset.later = want;
  changed();
  return lang;
}

/** setLang switches the page to l, remembered on this device, and redraws what listens. */
export async function setLang(l) {
  try { localStorage.setItem(KEY, l); } catch (e) { /* private mode: this page only */ }
  switching = true;
  try { await loadLang(l); } finally { switching = false; }
}

let switching = false;

/**
 * onLangChange calls f(lang, switched) whenever the words change: a
 * catalog (or its second part) loaded, or (switched) the player chose the
 * other language.
 */
export function onLangChange(f) { listeners.push(f); }

/**
 * t is the text of key in the page's language, {placeholders} filled from
 * params; a plural text picks its form by params.n. A missing key shows as
 * itself (the catalog test fails on any).
 */
export function t(key, params) {
  if (!msgs) return '';
  let s = msgs[key];
  if (s === undefined) return complete ? key : '';
  if (typeof s === 'object') {
    const n = params && typeof params.n === 'number' ? params.n : 0;
    s = s[new Intl.PluralRules(lang).select(n)] ?? s.other;
  }
  if (!params) return s;
  return s.replace(/\{(\w+)\}/g, (m, k) => (params[k] === undefined ? m : String(params[k])));
}

/** has reports whether the catalog has key (for texts chosen by a value, with a fallback). */
export function has(key) { return !!msgs && msgs[key] !== undefined; }

/** list joins items as the language does: "Ana, Bea and Carlo" / "Ana, Bea e Carlo". */
export function list(items, type = 'conjunction') {
  if (typeof Intl.ListFormat === 'function') return new Intl.ListFormat(lang, { style: 'long', type }).format(items);
  return items.join(', ');
}

/** num writes a number as the language does. */
export function num(n) { return new Intl.NumberFormat(lang).format(n); }

/**
 * applyStatic fills the static text of root's elements: data-i18n="key"
 * sets the text, data-i18n-attr="aria-label:key title:key2" attributes.
 */
export function applyStatic(root) {
  if (!root || !root.querySelectorAll) return;
  for (const e of root.querySelectorAll('[data-i18n]')) e.textContent = t(e.dataset.i18n);
  for (const e of root.querySelectorAll('[data-i18n-attr]')) {
    for (const pair of e.dataset.i18nAttr.trim().split(/\s+/)) {
      const [attr, key] = pair.split(':');
      e.setAttribute(attr, t(key));
    }
  }
}

/**
 * langSwitch fills box with the language choice: a button for the other
 * language, named in that language ("English" on an Italian page, as every
 * site names its languages), its title in the page's.
 */
export function langSwitch(box) {
  const paint = () => {
    box.replaceChildren(...LANGS.filter((l) => l !== lang).map((l) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'link lang-btn';
      b.lang = l;
      b.textContent = { it: 'Italiano', en: 'English' }[l];
      b.title = t('lang.to.' + l);
      b.addEventListener('click', async () => { await setLang(l); const again = box.querySelector('button'); if (again) again.focus(); });
      return b;
    }));
  };
  paint();
  onLangChange(paint);
}
