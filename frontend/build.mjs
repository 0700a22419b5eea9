// build.mjs: bundles and minifies each page's entry with esbuild into
// frontend/static/dist/, which is committed (so `go run ./functions/local`
// needs no Node) and checked current by frontend/bundle_test.go.
//
//   node frontend/build.mjs           write static/dist/
//   node frontend/build.mjs --check   exit 1 (naming the files) when
//                                     static/dist/ is not what this builds
//
// Run by `make bundle` and `go generate ./frontend`. docs/frontend.md,
// "Bundles", says why.

import * as esbuild from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const assets = path.join(here, 'static', 'assets');
const dist = path.join(here, 'static', 'dist');

// Each page: its script and its style sheets, in the order they apply.
const pages = {
  // The game page's words in two parts: what its first drawing of the
  // table needs, and (game-later) what shows only after a choice or a
  // change (menus, dialogs, errors, notifications), fetched once the first
  // part is in, so the phone's first load stays within its budget.
  game: {
    js: 'app.js', css: ['style.css', 'table.css', 'style-end.css'], html: 'game.html',
    later: ['summary.', 'sheet.', 'push.', 'share.', 'join.', 'error.', 'banner.', 'rematch.', 'away.', 'form.', 'lang.', 'notify.', 'nav.',
      'prompt.stale', 'prompt.noFit', 'prompt.notYourTurn', 'prompt.sending', 'prompt.notFound', 'prompt.invite', 'prompt.takeSeat', 'status.notFound',
      // after a tap on a tile, or in a hand's summary
      'prompt.chooseEnd', 'prompt.confirmPlay', 'board.leadHere', 'board.playOn', 'board.playOnPips', 'count.',
      'invite.', 'moveTime.', 'game.privateWarn', 'game.keyNote', 'game.awayNote', 'game.awayBtn', 'game.copyPrivate', 'game.privateLink', 'game.inviteLink',
      'game.shareInvite', 'game.confirm', 'game.redeal', 'game.keep', 'game.backBtn', 'game.handResult', 'game.sheet', 'game.startPage',
      // at a match's end; the table talk (its own chunk); a tournament's
      // line (its own chunk, drawn after the tournament's GET)
      'won.', 'trophy.', 'chat.', 'tour.', 'coach.',
      // the log's lines (story.js, a chunk: drawn once these are in) and a
      // hand's end (the log's and the summary's)
      'log.', 'where.', 'end.'],
  },
  // The start page's second part: the email digest's words (its chunk).
  start: { js: 'start.js', css: ['style.css', 'style-end.css', 'start.css'], html: 'index.html', later: ['email.'] },
  rules: { js: 'rulespage.js', html: 'rules.html' },
  room: { js: 'room.js', css: ['style.css', 'style-end.css', 'start.css'], html: 'room.html' },
};

// The catalogs, one file per language (static/i18n), and the part of them
// each page uses: a key goes to a page whose bundle holds a string that
// begins it (the key itself, or a prefix its code completes: 'error.' +
// code) or whose HTML names it (data-i18n, data-i18n-attr).
const i18n = path.join(here, 'words'); // the catalogs, shared with the server (package words)
const LANGS = ['en', 'it'];

function usedKeys(catalog, js, html) {
  const strings = new Set();
  // A key (or a prefix the code completes) is a whole string literal, or a
  // template literal's first piece: found between its quotes, whatever the
  // code around it.
  for (const m of js.matchAll(/["'`]([a-z][A-Za-z]*\.[A-Za-z0-9_.]*)(?=["'`]|\$\{)/g)) strings.add(m[1]);
  for (const m of html.matchAll(/data-i18n(?:-attr)?="([^"]+)"/g)) {
    for (const part of m[1].trim().split(/\s+/)) strings.add(part.includes(':') ? part.split(':')[1] : part);
  }
  const prefixes = [...strings];
  return Object.keys(catalog).filter((k) => prefixes.some((p) => k === p || (k.startsWith(p) && (p.endsWith('.') || k[p.length] === '.'))));
}

const common = { bundle: true, minify: true, write: false, charset: 'utf8', legalComments: 'none', logLevel: 'error' };

// A style sheet a chunk imports (import './talk.css') is adopted when the
// chunk comes, so rules only a chunk's drawing needs are off the page's
// first load: the import is a module that makes a constructed sheet of
// the file's minified text (the page's Content-Security-Policy allows no
// inline <style>; CSSOM is not one).
const cssAdopted = {
  name: 'css-adopted',
  setup(b) {
    b.onLoad({ filter: /\.css$/ }, async (args) => {
      const out = await esbuild.transform(fs.readFileSync(args.path, 'utf8'), { loader: 'css', minify: true, legalComments: 'none' });
      return {
        loader: 'js',
        contents: `const sheet = new CSSStyleSheet();
sheet.replaceSync(${JSON.stringify(out.code.trim())});
document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];`,
      };
    });
  },
};

async function build() {
  const out = {};
  for (const [name, page] of Object.entries(pages)) {
    // Split: a module the page imports with import() is a chunk of its
    // own, fetched when asked for (it must import nothing the page's
    // bundle holds, or a shared chunk would join the first load).
    const js = await esbuild.build({ ...common, entryPoints: { [name]: path.join(assets, page.js) }, format: 'esm', target: ['es2020'],
      splitting: true, outdir: dist, chunkNames: `${name}-[name]-[hash]`, plugins: [cssAdopted] });
    for (const f of js.outputFiles) out[path.basename(f.path)] = f.contents;
    const entry = js.outputFiles.find((f) => path.basename(f.path) === `${name}.js`);
    if (js.outputFiles.some((f) => f !== entry && entry.text.includes(`from"./${path.basename(f.path)}"`))) {
      throw new Error(`${name}.js imports a shared chunk statically: its first load would grow by a request`);
    }
    // One sheet per page: the sheets concatenated, then minified.
    if (page.css) {
      const css = page.css.map((f) => fs.readFileSync(path.join(assets, f), 'utf8')).join('\n');
      const sheet = await esbuild.build({ ...common, bundle: false, stdin: { contents: css, loader: 'css', resolveDir: assets }, outfile: `${name}.css` });
      out[`${name}.css`] = sheet.outputFiles[0].contents;
    }
    const html = fs.readFileSync(path.join(here, 'static', page.html), 'utf8');
    const text = js.outputFiles.map((f) => f.text).join('\n');
    for (const lang of LANGS) {
      const catalog = JSON.parse(fs.readFileSync(path.join(i18n, `${lang}.json`), 'utf8'));
      const part = {}, later = {};
      for (const k of usedKeys(catalog, text, html)) {
        if ((page.later || []).some((p) => k === p || k.startsWith(p.endsWith('.') ? p : p + '.'))) later[k] = catalog[k];
        else part[k] = catalog[k];
      }
      out[`${name}.${lang}.json`] = new TextEncoder().encode(JSON.stringify(part));
      if (page.later) out[`${name}-later.${lang}.json`] = new TextEncoder().encode(JSON.stringify(later));
    }
  }
  return out;
}

export { usedKeys };

const files = await build();
if (process.argv.includes('--check')) {
  const stale = [];
  for (const [name, body] of Object.entries(files)) {
    const file = path.join(dist, name);
    if (!fs.existsSync(file) || !Buffer.from(body).equals(fs.readFileSync(file))) stale.push(name);
  }
  const extra = fs.existsSync(dist) ? fs.readdirSync(dist).filter((f) => !(f in files)) : [];
  if (stale.length || extra.length) {
    console.error(`frontend/static/dist is stale (${[...stale, ...extra.map((f) => f + ' (not built)')].join(', ')}): run make bundle`);
    process.exit(1);
  }
} else {
  fs.mkdirSync(dist, { recursive: true });
  for (const f of fs.readdirSync(dist)) if (!(f in files)) fs.rmSync(path.join(dist, f)); // an older chunk's name
  for (const [name, body] of Object.entries(files)) fs.writeFileSync(path.join(dist, name), body);
}
