// harness.js: what every browser test needs: the local server (real API,
// real store, real frontend), Debian's chromium through playwright-core, and
// a watch on console errors.
//
// The server: TESSERA_URL (an already running server), else TESSERA_BIN (a
// built functions/local binary, a test build: -tags testclock), else
// `go build -tags testclock ./functions/local` here.
// Chromium: CHROMIUM or /usr/bin/chromium. With CI=true a missing chromium
// or server FAILS the tests; otherwise they are skipped with a message.

'use strict';
const { spawn, execFileSync } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const CI = process.env.CI === 'true';
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
// SEEDED: the test builds' random source is a fixed stream
// (TESSERA_TEST_SEED, functions/testclock/seed.go): a file that creates its
// games in the same order gets the same ids, tokens and deals on every run,
// so no test hopes for a deal. A file may ask for another stream
// (suite({ TESSERA_TEST_SEED: 'n' })); TESSERA_TEST_SEED= in the
// environment (empty) gives random deals again, to look for tests that
// lean on their deal.
const SEEDED = { TESSERA_TEST_SEED: process.env.TESSERA_TEST_SEED ?? '1' };
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync'];

/** missing returns why the tests cannot run here, or '' when they can. */
function missing() {
  if (!fs.existsSync(CHROMIUM)) return `chromium not found at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM)`;
  try { require.resolve('playwright-core'); } catch (e) { return 'playwright-core is not installed (npm ci --ignore-scripts)'; }
  return '';
}

/** skipOrFail: call at the top of a test file; returns a skip reason or throws under CI. */
function skipReason() {
  const why = missing();
  if (why && CI) throw new Error(`browser tests cannot run: ${why}`);
  if (why) console.log(`# SKIP browser tests: ${why}`);
  return why;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => resolve(p)); });
  });
}

async function waitUp(url, child, ms = 60000, said) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (child && child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    // said(): the child's own output says it listens on url's port. Until
    // then an answer there may come from another process that holds the
    // port (ours then fails to bind and exits): never test against it.
    if (said && !said()) { await new Promise((r) => setTimeout(r, 50)); continue; }
    try { const r = await fetch(url); if (r.ok) return; } catch (e) { /* not yet */ }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`server at ${url} did not answer within ${ms} ms`);
}

/**
 * startServer returns {url, stop}; env adds to the server's environment;
 * port (tests of the harness) is the port to ask for, else a free one.
 */
async function startServer(env = {}, { port: askedPort } = {}) {
  if (process.env.TESSERA_URL) return { url: process.env.TESSERA_URL.replace(/\/$/, ''), stop: async () => {} };
  let bin = process.env.TESSERA_BIN;
  if (!bin) {
    bin = path.join(os.tmpdir(), `tessera-local-${process.pid}`);
    execFileSync('go', ['build', '-tags', 'testclock', '-o', bin, './functions/local'], { cwd: ROOT, stdio: 'inherit' });
  }
  const data = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-data-'));
  const port = askedPort || await freePort();
  const child = spawn(bin, ['-addr', `127.0.0.1:${port}`, '-data', data],
    // The tests play every seat from one address: no rate limit unless a
    // test asks for one.
    { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, RATE_LIMIT: '0', ...SEEDED, ...env } });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr = (stderr + d).slice(-20000); });
  const url = `http://127.0.0.1:${port}`;
  const listening = new RegExp(`listening.*127\\.0\\.0\\.1:${port}\\b`);
  try { await waitUp(url + '/', child, 60000, () => listening.test(stderr)); } catch (e) { child.kill(); throw new Error(e.message + '\n' + stderr); }
  return {
    url,
    log: () => stderr,
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((r) => { child.once('exit', r); setTimeout(r, 5000); });
      }
      if (!process.env.TESSERA_BIN) fs.rmSync(bin, { force: true });
      fs.rmSync(data, { recursive: true, force: true });
    },
  };
}

/**
 * startWorker runs the Cloudflare Worker under miniflare
 * (infra/workers/serve.mjs) on a free port with a fresh D1, and returns
 * {url, stop} as startServer does. The module is TESSERA_WORKER_BUILD's (a
 * directory make worker-build filled), else built here.
 */
async function startWorker(env = {}) {
  let build = process.env.TESSERA_WORKER_BUILD;
  let built = false;
  if (!build) {
    build = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-worker-'));
    execFileSync('make', ['-s', '-C', ROOT, 'worker-build', `WORKER_BUILD=${build}`], { stdio: 'inherit' });
    built = true;
  }
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(ROOT, 'infra', 'workers', 'serve.mjs'), '--port', String(port), '--build', build],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, RATE_LIMIT: '0', ...SEEDED, ...env } });
  let out = '';
  const keep = (d) => { out = (out + d).slice(-20000); };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const url = `http://127.0.0.1:${port}`;
  try { await waitUp(url + '/', child, 60000, () => out.includes(`listening on ${url}`)); } catch (e) { child.kill(); throw new Error(e.message + '\n' + out); }
  return {
    url,
    log: () => out,
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((r) => { child.once('exit', r); setTimeout(r, 10000); });
      }
      if (built) fs.rmSync(build, { recursive: true, force: true });
    },
  };
}

async function launch() {
  const { chromium } = require('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
}

/**
 * watch records console errors, page errors and failed requests of a page,
 * so a test can assert there were none. 304s are answers, not failures.
 */
function watch(page, errors) {
  // waitForFunction polls every 50 ms, not on every animation frame (its
  // default): a frame-rate poll keeps chromium drawing frames for as long
  // as a test waits, which was most of the suite's CPU.
  // A predicate that reads an element not drawn yet (a chunk's: the talk,
  // the hand's summary) throws a TypeError: that is "not yet", never a
  // failure of the wait (CI failed on it once); a wait for an element that
  // never comes still times out.
  const waitForFunction = page.waitForFunction.bind(page);
  page.waitForFunction = (fn, arg, options) => {
    const f = typeof fn === 'function'
      ? new Function('arg', `try { return (${fn.toString()})(arg); } catch (e) { if (e instanceof TypeError) return false; throw e; }`)
      : fn;
    return waitForFunction(f, arg, { polling: 50, ...options });
  };
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('requestfailed', (r) => {
    const why = r.failure() ? r.failure().errorText : '';
    if (!/ERR_ABORTED/.test(why)) errors.push(`requestfailed: ${r.url()} ${why}`);
  });
  return page;
}

/**
 * newPlayer opens a fresh browser context (its own localStorage) and page.
 * Its motion is reduced unless asked otherwise: a page then shows the
 * others' plays at once instead of one after another (replay.js), which
 * only replay.test.js is about, and chromium draws no frames for them.
 */
async function newPlayer(browser, errors, viewport = { width: 1100, height: 800 }, { reducedMotion = 'reduce', locale, colorScheme } = {}) {
  const context = await browser.newContext({ viewport, reducedMotion, locale, colorScheme });
  const page = watch(await context.newPage(), errors);
  return { context, page };
}

/**
 * suite is what a browser test file does first: it decides whether the file
 * runs here (skipReason) and registers the hooks that start the local server
 * and chromium before its tests and stop them after. It returns
 * {skip, server, browser}; server and browser are set once before has run.
 * serverEnv adds to the local server's environment (or an async function
 * answers it). With { worker: true }
 * the server is the Cloudflare Worker under miniflare (startWorker).
 */
function suite(serverEnv = {}, { worker = false } = {}) {
  const { before, after } = require('node:test');
  const env = { skip: skipReason() || false, server: null, browser: null };
  if (worker && !env.skip) {
    let why = '';
    try { require.resolve('miniflare'); } catch (e) { why = 'miniflare is not installed (npm ci --ignore-scripts)'; }
    if (why && CI) throw new Error(`Worker browser tests cannot run: ${why}`);
    if (why) console.log(`# SKIP Worker browser tests: ${why}`);
    env.skip = why || false;
  }
  before(async () => {
    if (env.skip) return;
    // serverEnv may be a function that starts what the server needs first
    // and answers its environment (top-level before hooks do not wait
    // for each other).
    const e = typeof serverEnv === 'function' ? await serverEnv() : serverEnv;
    env.server = await (worker ? startWorker : startServer)(e);
    env.browser = await launch();
  });
  after(async () => {
    if (env.browser) await env.browser.close();
    if (env.server) await env.server.stop();
  });
  return env;
}

const PUSH_STAND_IN = path.join(ROOT, 'node_modules', 'web-push-testing', 'src', 'bin', 'server.js');

/** startPushStandIn starts web-push-testing, the push service stand-in: {base, stop}. */
async function startPushStandIn() {
  if (!fs.existsSync(PUSH_STAND_IN)) throw new Error('web-push-testing is not installed (npm ci)');
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wpt-'));
  const child = spawn(process.execPath, [PUSH_STAND_IN, String(port)], { cwd: dir, stdio: 'ignore' });
  const base = `http://localhost:${port}`;
  for (let i = 0; i < 200; i++) {
    try { if ((await fetch(base + '/status', { method: 'POST' })).ok) return { base, stop: () => child.kill() }; } catch (e) { /* not yet */ }
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill();
  throw new Error('web-push-testing did not start');
}

/**
 * stubPush makes PushManager.subscribe in context's pages return sub, a
 * subscription the stand-in made (headless Chromium has no push service).
 */
async function stubPush(context, sub) {
  await context.addInitScript((sub) => {
    const fake = {
      endpoint: sub.endpoint, expirationTime: null,
      toJSON() { return { endpoint: sub.endpoint, expirationTime: null, keys: sub.keys }; },
      unsubscribe: async () => true,
    };
    window.PushManager.prototype.subscribe = async function subscribe(opts) {
      window.__subscribedWith = opts && opts.applicationServerKey ? opts.applicationServerKey.byteLength : 0;
      localStorage.setItem('test.subscribed', '1');
      return fake;
    };
    window.PushManager.prototype.getSubscription = async function getSubscription() {
      return localStorage.getItem('test.subscribed') ? fake : null;
    };
  }, { endpoint: sub.endpoint, keys: sub.keys });
}

/**
 * apiOf(env) -> api(method, path, body, token): a JSON call to the suite's
 * server (a seat token or player key as bearer); a failure throws, naming
 * the call and the answer.
 */
function apiOf(env) {
  return async (method, path, body, token) => {
    const headers = { 'Content-Type': 'application/json' };
    if (token) headers.Authorization = `Bearer ${token}`;
    const r = await fetch(env.server.url + path, { method, headers, body: body ? JSON.stringify(body) : undefined });
    const data = r.status === 204 ? null : await r.json();
    if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(data)}`);
    return data;
  };
}

/**
 * startSMTP is an SMTP server on loopback for the email tests (as
 * functions/mail/smtptest is for Go's): it takes every message and keeps
 * it as {to, headers, body} (headers lowercased; the body decoded from
 * quoted-printable). -> {addr, messages, wait(n), stop}
 */
async function startSMTP() {
  const messages = [];
  let waiters = [];
  const decode = (raw) => {
    const [head, ...rest] = raw.split('\r\n\r\n');
    const headers = {};
    for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
      const i = line.indexOf(':');
      if (i > 0) headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
    }
    let body = rest.join('\r\n\r\n');
    if (/quoted-printable/i.test(headers['content-transfer-encoding'] || '')) {
      const bytes = Buffer.from(body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (m, h) => String.fromCharCode(parseInt(h, 16))), 'latin1');
      body = bytes.toString('utf8');
    }
    return { headers, body: body.replace(/\r\n/g, '\n') };
  };
  const server = net.createServer((sock) => {
    let buf = '', data = null, to = [];
    const say = (s) => sock.write(s + '\r\n');
    say('220 tessera-test ready');
    sock.on('data', (chunk) => {
      buf += chunk.toString('latin1');
      let i;
      while ((i = buf.indexOf('\r\n')) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 2);
        if (data !== null) {
          if (line === '.') {
            messages.push({ to, ...decode(Buffer.from(data.join('\r\n'), 'latin1').toString('latin1')) });
            data = null; to = [];
            say('250 queued');
            const w = waiters; waiters = []; w.forEach((f) => f());
          } else data.push(line.startsWith('.') ? line.slice(1) : line);
          continue;
        }
        const verb = line.split(' ')[0].toUpperCase();
        if (verb === 'EHLO') { say('250-tessera-test'); say('250 8BITMIME'); } else if (verb === 'RCPT') { to.push(/<([^>]*)>/.exec(line)[1]); say('250 ok'); } else if (verb === 'DATA') { data = []; say('354 go on'); } else if (verb === 'QUIT') { say('221 bye'); sock.end(); } else say('250 ok');
      }
    });
    sock.on('error', () => {});
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    addr: `127.0.0.1:${server.address().port}`,
    messages,
    /** wait resolves once n messages have come (30 s at most). */
    async wait(n) {
      const until = Date.now() + 30000;
      while (messages.length < n && Date.now() < until) await new Promise((r) => { waiters.push(r); setTimeout(r, 1000); });
      return messages;
    },
    stop: () => new Promise((r) => server.close(r)),
  };
}

module.exports = { ROOT, CI, skipReason, suite, apiOf, startServer, startWorker, launch, watch, newPlayer, waitUp, freePort, PUSH_STAND_IN, startPushStandIn, stubPush, startSMTP };

/**
 * shot saves a screenshot under docs/screenshots/ when UPDATE_SCREENSHOTS=1
 * (kept out of ordinary runs so tests do not rewrite tracked files).
 */
async function shot(page, name) {
  if (process.env.UPDATE_SCREENSHOTS !== '1') return;
  const dir = path.join(ROOT, 'docs', 'screenshots');
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, name + '.png') });
}

module.exports.shot = shot;
