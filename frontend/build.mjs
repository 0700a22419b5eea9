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
  game: { js: 'app.js', css: ['style.css'] },
  start: { js: 'start.js', css: ['style.css', 'start.css'] },
};

const common = { bundle: true, minify: true, write: false, charset: 'utf8', legalComments: 'none', logLevel: 'error' };

async function build() {
  const out = {};
  for (const [name, page] of Object.entries(pages)) {
    const js = await esbuild.build({ ...common, entryPoints: [path.join(assets, page.js)], format: 'esm', target: ['es2020'], outfile: `${name}.js` });
    out[`${name}.js`] = js.outputFiles[0].contents;
    // One sheet per page: the sheets concatenated, then minified.
    const css = page.css.map((f) => fs.readFileSync(path.join(assets, f), 'utf8')).join('\n');
    const sheet = await esbuild.build({ ...common, bundle: false, stdin: { contents: css, loader: 'css', resolveDir: assets }, outfile: `${name}.css` });
    out[`${name}.css`] = sheet.outputFiles[0].contents;
  }
  return out;
}

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
  for (const [name, body] of Object.entries(files)) fs.writeFileSync(path.join(dist, name), body);
}
