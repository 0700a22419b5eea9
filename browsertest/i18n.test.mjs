// i18n.test.mjs: the catalogs (frontend/words/{en,it}.json) without a
// browser: the same keys in both, the same placeholders, plural forms for
// both languages' rules, every key used by a page and every key the code
// names present; no text in the pages' HTML or scripts outside a catalog.
// (browsertest/i18n.test.js plays in Italian in Chromium.)

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ORDER } from '../frontend/static/assets/config.js';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'frontend', 'static');
const read = (p) => fs.readFileSync(path.join(root, p), 'utf8');
const words = path.join(root, '..', 'words'); // the catalogs, shared with the server (frontend/words)
const catalogs = { en: JSON.parse(fs.readFileSync(path.join(words, 'en.json'), 'utf8')), it: JSON.parse(fs.readFileSync(path.join(words, 'it.json'), 'utf8')) };
const keys = Object.keys(catalogs.en);
const forms = (v) => (typeof v === 'object' ? Object.values(v) : [v]);
const holes = (v) => new Set(forms(v).flatMap((s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1])));

// The sources the pages are built from (config.js and rules.js are made by
// frontend/config_test.go; qr.js draws, it says nothing).
const scripts = fs.readdirSync(path.join(root, 'assets')).filter((f) => f.endsWith('.js') && !['config.js', 'rules.js', 'qr.js'].includes(f));
const pages = ['index.html', 'game.html', 'rules.html'];

test('both catalogs have the same keys, placeholders and plural forms', () => {
  assert.deepEqual(Object.keys(catalogs.it).sort(), [...keys].sort(), 'the same keys in Italian and English');
  for (const k of keys) {
    const en = catalogs.en[k], it = catalogs.it[k];
    assert.deepEqual([...holes(it)].sort(), [...holes(en)].sort(), `${k}: the same {placeholders}`);
    for (const [lang, v] of [['en', en], ['it', it]]) {
      for (const s of forms(v)) assert.ok(typeof s === 'string' && s.trim() !== '', `${lang} ${k}: a text`);
      // A plural text has the forms the language's rules pick (Italian and
      // English: one and other).
      if (typeof v === 'object') {
        // The forms the language's rules pick for the counts the pages show
        // (0 to 10,000: Italian's "many" starts at a million).
        const rules = new Intl.PluralRules(lang);
        const want = [...new Set(Array.from({ length: 10001 }, (_, n) => rules.select(n)))].sort();
        assert.deepEqual(Object.keys(v).sort(), want, `${lang} ${k}: plural forms`);
      }
    }
  }
});

test('every key is used by a page, in the part the build gives it, or by the server\'s pushes and mails', () => {
  const used = new Set();
  for (const f of fs.readdirSync(path.join(root, 'dist')).filter((f) => f.endsWith('.en.json'))) {
    const part = JSON.parse(fs.readFileSync(path.join(root, 'dist', f), 'utf8'));
    for (const k of Object.keys(part)) used.add(k);
    const it = JSON.parse(fs.readFileSync(path.join(root, 'dist', f.replace('.en.json', '.it.json')), 'utf8'));
    assert.deepEqual(Object.keys(it).sort(), Object.keys(part).sort(), `${f}: the same keys in Italian`);
  }
  // The push texts' and the mails' keys are the server's
  // (functions/game/pushtext.go lists each in pushKeys, mail.go in
  // mailKeys, and their test checks them in both catalogs).
  const server = ['pushtext.go', 'mail.go'].map((f) => fs.readFileSync(path.join(root, '..', '..', 'functions', 'game', f), 'utf8')).join('\n');
  assert.deepEqual(keys.filter((k) => !used.has(k) && !server.includes(`"${k}"`)), [], 'keys neither a page nor the server uses');
  for (const v of ORDER) assert.ok(catalogs.en[`variant.${v}`] && catalogs.it[`variant.${v}`], `the rule set ${v} has a name in both languages`);
});

test('every key the code and the HTML name is in the catalogs', () => {
  const spaces = new Set(keys.map((k) => k.split('.')[0]));
  const missing = [];
  for (const f of scripts) {
    for (const m of read('assets/' + f).matchAll(/["'`]([a-z][A-Za-z]*\.[A-Za-z0-9_.]*)(?=["'`]|\$\{)/g)) {
      const s = m[1];
      if (!spaces.has(s.split('.')[0])) continue; // not a key (a storage name, a file)
      if (!keys.some((k) => k === s || k.startsWith(s.endsWith('.') ? s : s + '.'))) missing.push(`${f}: ${s}`);
    }
  }
  for (const f of pages) {
    for (const m of read(f).matchAll(/data-i18n(?:-attr)?="([^"]+)"/g)) {
      for (const part of m[1].trim().split(/\s+/)) {
        const k = part.includes(':') ? part.split(':')[1] : part;
        if (!keys.includes(k)) missing.push(`${f}: ${k}`);
      }
    }
  }
  assert.deepEqual(missing, []);
});

test('the HTML says nothing outside the catalogs', () => {
  for (const f of pages) {
    // The rules page's articles are its text in each language (lang="it",
    // lang="en"); rules.js shows the one of the page's language.
    const html = read(f).replace(/<article[^>]*data-lang[^>]*>[\s\S]*?<\/article>/g, '').replace(/<!--[\s\S]*?-->/g, '')
      .replace(/<(script|style)[\s\S]*?<\/\1>/g, '');
    const bare = [];
    // Every run of text between tags belongs to an element that names its key.
    const re = /<([a-z0-9]+)([^>]*)>([^<]*)/g;
    for (const m of html.matchAll(re)) {
      const text = m[3].trim();
      if (!text || text === 'Tessera' || /^[\d\s·—–-]*$/.test(text)) continue; // the name, numbers
      if (!/data-i18n=/.test(m[2])) bare.push(`<${m[1]}${m[2]}>${text}`);
    }
    assert.deepEqual(bare, [], `${f}: text without a data-i18n key`);
    for (const m of html.matchAll(/\s(aria-label|title|placeholder|alt)="([^"]*)"/g)) {
      const tag = html.slice(html.lastIndexOf('<', m.index), html.indexOf('>', m.index));
      assert.ok(new RegExp(`data-i18n-attr="[^"]*${m[1]}:`).test(tag) || m[2] === 'Tessera', `${f}: ${m[1]}="${m[2]}" without a key`);
    }
  }
});

test('the scripts say nothing outside the catalogs', () => {
  // A string literal with two words of letters is a sentence a person may
  // read, unless it is a selector, a style, a name of ours or a format.
  const technical = [
    /^[.#\[]/, /^(?:\.|#)?[a-z-]+(?:\[[^\]]+\])?(?:[ ,>+:.#]\s*[a-z-[#.][^\s]*)+$/, // selectors
    /^(?:button|a\[href\]|input|select)/, /xMidYMid/, /^Bearer /, /^● /, /^\w+\/[\w.+-]+$/,
    /^(?:text|image|application)\//, /application\/json/, /\d(?:px|em|rem)\b/, /^\((?:prefers-|pointer:)/, /^</, /^\/api\//, // an API path
  ];
  const prose = [];
  for (const f of scripts) {
    const src = read('assets/' + f).replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '').replace(/\s\/\/ .*$/gm, '');
    for (const m of src.matchAll(/'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"|`((?:[^`\\]|\\.)*)`/g)) {
      const s = (m[1] ?? m[2] ?? m[3]).replace(/\$\{[^}]*\}/g, ' ');
      if (!/[A-Za-z]{2,}[ ,;:!?]+[A-Za-z]{2,}/.test(s)) continue;
      if (technical.some((r) => r.test(s))) continue;
      prose.push(`${f}: ${s}`);
    }
  }
  assert.deepEqual(prose, []);
});

test('the rules page has every rule set the server offers, in both languages', () => {
  const html = read('rules.html');
  for (const lang of ['it', 'en']) {
    const article = html.match(new RegExp(`<article[^>]*data-lang="${lang}"[^>]*>([\\s\\S]*?)</article>`));
    assert.ok(article, `an article in ${lang}`);
    for (const v of ORDER) assert.match(article[1], new RegExp(`<section data-variant="${v}">[\\s\\S]*?<h2>[^<]+</h2>[\\s\\S]*?<p>`), `${lang}: ${v}`);
  }
});
