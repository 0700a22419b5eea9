// cost-model.mjs: what one match costs on AWS at list prices. It runs the
// page's own code: each person's game page is a real Poller (api.js, with
// pollState, pollDelay and nextPlay) on a fake clock, and the match is the
// engine's (browsertest/perf/trace: every move, each seat's view as the
// poll schedule reads it, and the pushes the server's game.Messages sends
// for it). Not a test: a model, run by hand (cost-model.test.mjs keeps it
// honest):
//
//   node browsertest/perf/cost-model.mjs [matches]      (default 8)
//
// Four people play 4-player Five Up matches to 250. Scenario "2 h a day":
// every page is open and visible from 20:00 to 22:00 each day, closed
// otherwise; a person whose page shows their turn acts after a think time
// drawn from an exponential of mean 90 s (5 s to 10 min). "Visible all
// day": every page is open and visible from 08:00 to 24:00, and a turn is
// played after a mean of 14 minutes (5 s to 1 h; the person is doing other
// things). A turn that comes while a page is closed waits for its next
// session. Push is on: a closed page costs nothing; a push to an open page
// makes it poll at once (sw.js; app.js: Poller.now(true)). A move is a POST whose
// answer is the new view and its ETag (Poller.moved).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { Poller, pollState, myTurn, SECOND, MINUTE } from '../../frontend/static/assets/api.js';
import { renewAt } from '../../frontend/static/assets/watch.js';

const HOUR = 60 * MINUTE, DAY = 24 * HOUR, LIMIT = 10 * DAY; // a match not over by then is reported unfinished
/** GLANCED is the scenario of a tab looked at 8 x 15 minutes a day (issue 45). */
export const GLANCED = 'glanced 8 x 15 min a day';

/**
 * LEVERS are the page as it was and as it is, side by side (issue 34):
 * keepETag, the move's ETag kept (Poller.moved); watch, a page in view
 * watches its game (watch.js) and is pushed every move with its view;
 * skipMover, the page that moved names its device (app.js send(): device)
 * and the server pushes it nothing of that move (issue 45).
 */
export const LEVERS = {
  'before (0.1 page)': { keepETag: false, watch: false },
  'the move\'s ETag kept': { keepETag: true, watch: false },
  'ETag kept, pages watch': { keepETag: true, watch: true },
  'now: and the mover\'s page not pushed its move': { keepETag: true, watch: true, skipMover: true },
};
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

// List prices, us-east-1, December 2026 (docs/deploy.md "What a match costs").
export const PRICE = {
  apiGateway: 1.00 / 1e6, // HTTP API, per request (first 300 million a month)
  cloudFront: 0.0100 / 1e4, // HTTPS requests (North America and Europe), per request
  cloudFrontOutGB: 0.085, // data out to the internet, per GB (first 10 TB)
  cloudFrontOriginGB: 0.020, // data from CloudFront to the origin (requests' bodies and headers), per GB
  lambdaRequest: 0.20 / 1e6,
  lambdaGBs: 0.0000133334, // arm64, per GB-second
  read: 0.125 / 1e6, // DynamoDB on-demand, per read request unit (since November 2024; a strong read <= 4 KB, an eventual one half)
  write: 0.625 / 1e6, // per write request unit (1 KB)
  lambdaOutGB: 0.09, // data out from Lambda to the internet (the pushes, to the browsers' push services), per GB (first 10 TB)
};
const MEMORY_GB = 0.25; // the functions' 256 MB
// Billed duration per request, ms (1 ms steps); a push: the move's
// function waits for its push service (about one round trip).
const MS = { poll304: 4, poll200: 8, move: 25, watch: 8, push: 40 };
const WRITE_UNITS = 1; // a move: 90% of stored games are <= 1 KB (functions/api/size_test.go)
// Bytes on the wire, gzipped, in KB: answers (CloudFront's data out) and
// requests (to the origin: headers, a move's body).
const KB = { poll304: 0.3, poll200: 1.5, move: 1.5, request: 0.5,
  // A push on the wire (issue 45: the model left them out): the encrypted
  // payload (aes128gcm: 86 bytes of header and tag), its title and body
  // in both languages, the request's headers (VAPID's JWT); a watched
  // page's push carries its packed view too (the largest measured: 2,064
  // bytes, issue 45), taken here for every one.
  push: 0.6, pushView: 2.7 };
// A page opened: its HTML, script, styles and words from CloudFront (S3
// behind it), about 6 requests and 25 KB gzipped (frontend/static/dist).
const STATIC = { requests: 6, kb: 25 };

function rng(seed) {
  let x = seed >>> 0 || 1;
  return () => { x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0; return x / 2 ** 32; };
}

/** traces plays n matches through the engine (browsertest/perf/trace). */
export function traces(n, seed = 1) {
  const out = execFileSync('go', ['run', './browsertest/perf/trace', '-n', String(n), '-seed', String(seed)], { cwd: ROOT, maxBuffer: 1 << 28 });
  return JSON.parse(out);
}

/** Clock is the fake clock the pages' Pollers run on: timers in a queue. */
class Clock {
  constructor(t) { this.t = t; this.queue = []; this.seq = 0; }
  now() { return this.t; }
  at(t, f) { const e = { t, f, seq: this.seq++ }; this.queue.push(e); return e; }
  cancel(e) { if (e) e.f = null; }
  /** next runs the earliest timer; false when none is left before limit. */
  next(limit) {
    this.queue = this.queue.filter((e) => e.f);
    let best = null;
    for (const e of this.queue) if (!best || e.t < best.t || (e.t === best.t && e.seq < best.seq)) best = e;
    if (!best || best.t > limit) return false;
    this.t = Math.max(this.t, best.t);
    const f = best.f;
    best.f = null;
    f();
    return true;
  }
}

// Lets the Pollers' awaited reads (resolved promises) finish before the
// clock moves on.
const settle = () => new Promise((r) => setImmediate(r));

/**
 * simulate plays trace tr in scenario; returns what was sent, by kind:
 * getFirst (a page's first GET, read strongly), get200 and get304 (polls;
 * with an ETag an eventual read, without one strong), strong (GETs read
 * strongly), move, push (pushes sent), pushOpen (pushes that reached an
 * open page), opens (pages opened), and for the test: served (every GET
 * the pages' Pollers made), late (the longest an open page showed an old
 * version, ms).
 */
export async function simulate(tr, scenario, seed, { keepETag = true, watch = true, skipMover = false } = {}) {
  const rand = rng(seed);
  const players = tr.players;
  // GLANCED: a tab kept open and looked at 8 times a day for 15 minutes
  // (every 2 hours from 08:00, each person 25 minutes after the one
  // before): between glances it is hidden, not closed (issue 45).
  const glance = scenario === GLANCED;
  const online = (t, seat) => {
    const tod = t % DAY;
    if (glance) {
      if (tod < 8 * HOUR) return false;
      const from = 8 * HOUR + Math.floor((tod - 8 * HOUR) / (2 * HOUR)) * 2 * HOUR + seat * 25 * MINUTE;
      return tod >= from && tod < from + 15 * MINUTE;
    }
    return scenario === 'visible all day' ? tod >= 8 * HOUR : tod >= 20 * HOUR && tod < 22 * HOUR;
  };
  const mean = scenario === 'visible all day' ? 14 * MINUTE : glance ? 2 * MINUTE : 90 * SECOND;
  const cap = scenario === 'visible all day' ? HOUR : 10 * MINUTE;
  const think = () => Math.min(cap, Math.max(5 * SECOND, -Math.log(1 - rand()) * mean));
  const clock = new Clock(8 * HOUR);
  const count = { getFirst: 0, get200: 0, get304: 0, strong: 0, move: 0, push: 0, pushOpen: 0, pushView: 0, watch: 0, opens: 0, visits: 0, served: 0, late: 0 };
  let version = 1, views = tr.start, i = 0; // i: the next move of the trace
  const etagOf = (seat, v) => `"v${v}-s${seat}"`;
  const serverView = (seat) => ({
    version, status: views[seat].status, seats: new Array(views[seat].seats).fill({}),
    hand: views[seat].phase ? { phase: views[seat].phase, turn: views[seat].turn } : null,
    you: { seat, confirm: views[seat].confirm, answers: views[seat].answers },
  });
  const pages = Array.from({ length: players }, (_, seat) => ({ seat, open: false, poller: null, view: null, staleSince: null, moveTimer: null, turnAt: null, watched: false, renew: null }));
  // A page in view with push on watches its game: PUT at once and at
  // renewAt (watch.js), DELETE when it closes; each a request and a write.
  const watchOn = (pg) => {
    count.watch++;
    pg.watched = true;
    const until = clock.now() + tr.watchLeaseMs; // game.WatchLease, from the trace
    pg.renew = clock.at(renewAt(until, clock.now()), () => { if (pg.open) watchOn(pg); });
  };
  // A person acts on their page: when it shows that they must act, after
  // a think time (the trace says whose move comes next).
  const plan = (pg) => {
    if (!pg.open || i >= tr.moves.length || tr.moves[i].seat !== pg.seat || pg.moveTimer) return;
    if (!myTurn(pg.view) || pg.view.version !== version) return;
    pg.moveTimer = clock.at(Math.max(clock.now() + SECOND, pg.turnAt + think()), () => { pg.moveTimer = null; move(pg); });
  };
  const show = (pg, v) => {
    const was = myTurn(pg.view);
    pg.view = v;
    if (myTurn(v) && !was) pg.turnAt = clock.now();
    if (v.version >= version && pg.staleSince !== null) { count.late = Math.max(count.late, clock.now() - pg.staleSince); pg.staleSince = null; }
    plan(pg);
  };
  const read = (seat) => async (id, token, etag) => {
    count.served++;
    if (etag === undefined || etag === null) count.strong++;
    if (etag && etag === etagOf(seat, version)) { count.get304++; return { status: 304, etag }; }
    count.get200++;
    return { status: 200, data: serverView(seat), etag: etagOf(seat, version) };
  };
  const open = (pg) => {
    pg.open = true;
    count.visits++;
    if (glance && pg.poller) {
      // A hidden tab seen again: app.js's visibilitychange: the Poller's
      // wake (a GET with its ETag) and the watch; no page load.
      pg.poller.wake();
      if (watch) watchOn(pg);
      plan(pg);
      return;
    }
    count.opens++;
    pg.view = null;
    pg.poller = new Poller('g', {
      token: String(pg.seat),
      onView: (v) => show(pg, v),
      onError: () => {},
      state: () => pollState(pg.view, { push: true, talking: false, watched: pg.watched }),
      env: { now: () => clock.now(), setTimer: (f, d) => clock.at(clock.now() + d, f), clearTimer: (e) => clock.cancel(e), read: read(pg.seat), hidden: () => !pg.open }, // every part of api.js's pageEnv
    });
    count.getFirst++;
    pg.poller.now(); // the page's first GET (start())
    if (watch) watchOn(pg);
  };
  const close = (pg, end = false) => {
    pg.open = false;
    if (pg.watched) { count.watch++; pg.watched = false; clock.cancel(pg.renew); } // the DELETE as it goes
    // Hidden (a glanced tab): its Poller keeps the schedule of a hidden
    // page (none with push on); closed: it stops.
    if (glance && !end) pg.poller.schedule(); else pg.poller.stop();
    clock.cancel(pg.moveTimer);
    pg.moveTimer = null;
    pg.staleSince = null;
  };
  const move = (pg) => {
    const m = tr.moves[i++];
    version++;
    views = m.views;
    count.move++;
    for (const other of pages) if (other !== pg && other.open && other.staleSince === null) other.staleSince = clock.now();
    // The move's answer: the new view and its ETag (app.js send()).
    show(pg, serverView(pg.seat));
    pg.poller.moved(keepETag ? etagOf(pg.seat, version) : null);
    for (const q of pages) {
      const kind = m.pushes[q.seat];
      // The server pushes a watching device every move, its own seat's
      // too; with skipMover, not the page that made it (watch.go).
      const watched = q.watched && !(skipMover && q === pg);
      if (!kind && !watched) continue;
      count.push++;
      if (!q.open) continue;
      count.pushOpen++;
      if (q.view && q.view.version >= version) continue; // app.js: a push of a version the page has is ignored
      if (watched) { count.pushView++; q.poller.got(serverView(q.seat), etagOf(q.seat, version)); } else q.poller.now(true); // app.js: a push of a newer version
    }
    for (const q of pages) plan(q);
  };
  // Sessions: every page opens and closes with its person's day.
  const day = (t) => {
    for (const pg of pages) {
      const on = online(t, pg.seat);
      if (on && !pg.open) open(pg);
      if (!on && pg.open) close(pg);
    }
    clock.at(t + MINUTE, () => day(clock.now()));
  };
  day(clock.now());
  while (i < tr.moves.length && clock.next(LIMIT)) await settle();
  count.finished = i >= tr.moves.length;
  count.players = players;
  count.watchItem = watch ? 1 : 0;
  count.days = (clock.now() - 8 * HOUR) / DAY;
  for (const pg of pages) if (pg.open || (glance && pg.poller)) close(pg, true);
  return count;
}

/** cost prices what simulate counted; eventual: polls with an ETag read eventually. */
export function cost(c, eventual = true) {
  const gets = c.get200 + c.get304;
  const api = gets + c.move + c.watch;
  const gbs = MEMORY_GB * (c.get304 * MS.poll304 + c.get200 * MS.poll200 + c.move * MS.move + c.watch * MS.watch + c.push * MS.push) / 1000;
  const outGB = (c.get304 * KB.poll304 + c.get200 * KB.poll200 + c.move * KB.move + c.watch * KB.poll304 + c.opens * STATIC.kb) / 1e6;
  const originGB = api * KB.request / 1e6;
  const pushGB = (c.pushView * KB.pushView + (c.push - c.pushView) * KB.push) / 1e6;
  // A move reads strongly; a GET without an ETag too, one with an ETag
  // eventually (half a unit). After a move the server reads its seats'
  // records and its watch item in one strong BatchGetItem (a unit each,
  // players + 1); a watch reads the game and its item, and writes the item.
  const readUnits = (eventual ? c.move + c.strong + (gets - c.strong) / 2 : api) + c.move * (c.players + c.watchItem) + c.watch * 2;
  const parts = {
    'CloudFront': (api + c.opens * STATIC.requests) * PRICE.cloudFront + outGB * PRICE.cloudFrontOutGB + originGB * PRICE.cloudFrontOriginGB,
    'API Gateway': api * PRICE.apiGateway,
    'Lambda requests': api * PRICE.lambdaRequest,
    'Lambda compute': gbs * PRICE.lambdaGBs,
    'Lambda data out (pushes)': pushGB * PRICE.lambdaOutGB,
    'DynamoDB reads': readUnits * PRICE.read,
    'DynamoDB writes': (c.move * WRITE_UNITS + c.watch) * PRICE.write,
  };
  return { requests: api, parts, total: Object.values(parts).reduce((a, b) => a + b, 0) };
}

/** report runs every trace in both scenarios with each lever and prints the table docs/deploy.md keeps. */
export async function report(trs) {
  const rows = [];
  console.log(`${trs.length} matches, ${Math.round(trs.reduce((a, t) => a + t.moves.length, 0) / trs.length)} moves each on average`);
  console.log('| page | scenario | days | API requests: first GETs / GETs 200 / 304 / moves / watches | pushes (to open pages, with a view) | CloudFront | API Gateway | Lambda | DynamoDB | $/match |');
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const [lever, opts] of Object.entries(LEVERS)) {
    for (const scenario of ['2 h a day', 'visible all day', GLANCED]) {
      const runs = [];
      for (const [k, tr] of trs.entries()) runs.push(await simulate(tr, scenario, k + 1, opts));
      const avg = (key) => runs.reduce((a, r) => a + r[key], 0) / runs.length;
      const c = Object.fromEntries(['getFirst', 'get200', 'get304', 'strong', 'move', 'watch', 'push', 'pushOpen', 'pushView', 'opens', 'days', 'players', 'watchItem'].map((key) => [key, avg(key)]));
      const { parts, total, requests } = cost(c);
      const usd = (x) => `$${x.toFixed(5)}`;
      const r = Math.round;
      console.log(`| ${lever} | ${scenario} | ${c.days.toFixed(1)} | ${r(requests)}: ${r(c.getFirst)} / ${r(c.get200 - c.getFirst)} / ${r(c.get304)} / ${r(c.move)} / ${r(c.watch)} | ${r(c.push)} (${r(c.pushOpen)}, ${r(c.pushView)}) | ` +
        `${usd(parts['CloudFront'])} | ${usd(parts['API Gateway'])} | ${usd(parts['Lambda requests'] + parts['Lambda compute'] + parts['Lambda data out (pushes)'])} | ${usd(parts['DynamoDB reads'] + parts['DynamoDB writes'])} | **$${total.toFixed(4)}** |`);
      const unfinished = runs.filter((x) => !x.finished).length;
      if (unfinished) console.log(`| (${unfinished} of ${runs.length} matches did not finish in ${LIMIT / DAY} days) | | | | | | | | | |`);
      rows.push({ lever, scenario, counts: c, total });
    }
  }
  return rows;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const n = Number(process.argv[2] || 8);
  await report(traces(n));
}
