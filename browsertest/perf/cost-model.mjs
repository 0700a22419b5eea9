// cost-model.mjs: what one match costs on AWS at list prices, with the
// page's own polling schedule (pollDelay from frontend/static/assets/api.js,
// imported, not copied). Not a test: a model, run by hand:
//
//   node browsertest/perf/cost-model.mjs
//
// Four people play a 4-player Five Up match over about three days: 245
// plays, the length of the real matches the issue replayed through the
// local server (a match to 250).
// Scenario "2 h a day": all four have the game page open and visible from
// 20:00 to 22:00 each day, and closed otherwise; a person whose turn it is
// plays after a think time drawn from an exponential of mean 90 s (5 s to
// 10 min). Scenario "visible all day": every page is open and visible from
// 08:00 to 24:00, and a turn is played after a mean of 14 minutes (the
// person is doing other things). A turn that reaches someone whose page is
// closed waits for their next session. Both spread the match over about
// three days. Push is on
// (a closed page costs nothing; a turn push makes an open page poll at
// once, as sw.js does). Each open page polls on pollDelay's schedule: a
// GET that is a 200 when the game changed since its last view, else a 304;
// a move is a POST whose answer is the new view. The tiles are dealt and
// played at random (7 each, no boneyard, a line with two open ends: no
// spinner, which only adds ends), so that nextPlay sees real hands and ends;
// a seat that cannot play passes within the move before, as the server does.
import { pollDelay, nextPlay, SECOND, MINUTE } from '../../frontend/static/assets/api.js';

const HOUR = 60 * MINUTE, DAY = 24 * HOUR, LIMIT = 5 * DAY; // a match not over by then is reported unfinished
const PLAYS = 245;

// Prices (us-east-1 list prices, the ones the figures used).
const PRICE = {
  apiGateway: 1.00 / 1e6, // HTTP API, per request
  cloudFront: 0.0100 / 1e4, // HTTPS requests through the distribution (/api/* goes through it), per request
  cloudFrontGB: 0.085, // data out to the internet, per GB
  lambdaRequest: 0.20 / 1e6,
  lambdaGBs: 0.0000133334, // arm64, per GB-second
  read: 0.25 / 1e6, // DynamoDB on-demand, per read request unit (a strong read <= 4 KB; an eventual one is half)
  write: 1.25 / 1e6, // per write request unit (1 KB)
};
const MEMORY_GB = 0.25; // the functions' 256 MB
const MS = { poll304: 4, poll200: 8, move: 25, push: 40 }; // billed duration per request, ms (1 ms steps); push: a move waits for its push service (about one round trip)
// A move writes one unit: 90% of the stored items written are <= 1 KB
// (functions/api/size_test.go).
const WRITE_UNITS = 1;
const KB = { poll304: 0.3, poll200: 1.5, move: 1.5 }; // answer bytes on the wire, gzipped (CloudFront's data out)

function rng(seed) {
  let x = seed >>> 0 || 1;
  return () => { x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0; return x / 2 ** 32; };
}

function simulate(scenario, seed) {
  const rand = rng(seed);
  const players = 4, plays = PLAYS;
  const online = (p, t) => {
    const tod = t % DAY;
    if (scenario === 'visible all day') return tod >= 8 * HOUR;
    return tod >= 20 * HOUR && tod < 22 * HOUR;
  };
  const mean = scenario === 'visible all day' ? 14 * MINUTE : 90 * SECOND;
  const think = () => Math.min(10 * MINUTE * (mean > 10 * MINUTE ? 6 : 1), Math.max(5 * SECOND, -Math.log(1 - rand()) * mean));
  const nextOnline = (p, t) => { while (!online(p, t) && t < LIMIT) t += MINUTE; return t; };
  const count = { poll304: 0, poll200: 0, move: 0, strong: 0, push: 0 }; // strong: polls read strongly (no ETag), the rest read eventually
  let version = 1, turn = 0, done = 0, t = 8 * HOUR;
  // The hand: hands[p] the tiles of seat p, ends the two open ends' pips.
  let hands, ends, played;
  const canPlay = (p) => ends.length === 0 || hands[p].some((x) => x.includes(ends[0]) || x.includes(ends[1]));
  const deal = (leader) => {
    const all = [];
    for (let a = 0; a <= 6; a++) for (let b = a; b <= 6; b++) all.push([a, b]);
    for (let i = all.length - 1; i > 0; i--) { const j = Math.floor(rand() * (i + 1)); [all[i], all[j]] = [all[j], all[i]]; }
    hands = [0, 1, 2, 3].map((p) => all.slice(7 * p, 7 * p + 7));
    ends = [];
    played = [];
    turn = leader;
  };
  const play = () => { // the seat to act plays a random legal tile; then the turn passes to the next seat that can play
    const options = [];
    for (const [i, x] of hands[turn].entries()) {
      if (ends.length === 0) options.push([i, -1]);
      else for (const e of [0, 1]) if (x.includes(ends[e])) options.push([i, e]);
    }
    const [i, e] = options[Math.floor(rand() * options.length)];
    const [x] = hands[turn].splice(i, 1);
    played.push(x);
    if (e < 0) ends = [x[0], x[1]]; else ends[e] = x[0] === ends[e] ? x[1] : x[0];
    if (hands[turn].length === 0) { deal(turn); return; } // domino: the winner leads
    for (let k = 1; k <= players; k++) {
      if (canPlay((turn + k) % players)) { turn = (turn + k) % players; return; }
    }
    deal((turn + 1) % players); // blocked
  };
  // answers is the view's you.answers (the engine's Match.answers) for
  // this model's game, a line with two ends: the seat before p plays and,
  // whatever tile it plays (one p cannot see, at an end it fits), p holds
  // a tile that fits after it.
  const answers = (p) => {
    if ((turn + 1) % players !== p || hands[turn].length <= 1 || ends.length === 0) return false;
    const key = ([x, y]) => x < y ? x * 7 + y : y * 7 + x;
    const seen = new Set([...played, ...hands[p]].map(key));
    for (let x = 0; x < 7; x++) for (let y = x; y < 7; y++) {
      if (seen.has(x * 7 + y)) continue;
      for (const [i, pips] of ends.entries()) {
        if (pips !== x && pips !== y) continue;
        const after = ends.map((q, j) => j !== i ? q : pips === x ? y : x);
        if (!hands[p].some((t) => after.some((q) => t.includes(q)))) return false;
      }
    }
    return true;
  };
  const viewOf = (p) => ({
    status: 'playing',
    seats: hands.map((h) => ({ tiles: h.length, away: false })),
    hand: { phase: 'play', turn, board: { line: played, ends: ends.map((pips) => ({ pips })) } },
    you: { seat: p, tiles: hands[p], answers: answers(p) },
  });
  deal(0);
  const page = Array.from({ length: players }, () => ({ open: false, seen: 0, changedAt: 0, gap: Infinity, next: Infinity, fresh: false }));
  const changed = (pg, now) => { pg.gap = now - pg.changedAt; pg.changedAt = now; };
  let moveAt = nextOnline(0, t) + think();
  const delay = (p, now) => pollDelay({ visible: true, waiting: turn !== p, finished: done >= plays, idleMs: now - page[p].changedAt, gapMs: page[p].gap, push: true, next: nextPlay(viewOf(p)) });
  const poll = (p, now, fresh) => { // fresh: without the ETag (a first GET, one a push asked for): a strong read
    const pg = page[p];
    // After its own move the page forgets its ETag (Poller.seen): its
    // next poll is a full GET, a 200 read strongly.
    if (pg.fresh) { fresh = true; pg.fresh = false; count.poll200++; count.strong++; pg.seen = version; pg.next = now + delay(p, now); return; }
    if (fresh) count.strong++;
    if (pg.seen < version) { count.poll200++; pg.seen = version; changed(pg, now); } else count.poll304++;
    const d = delay(p, now);
    pg.next = d === 0 ? Infinity : now + d;
  };
  for (; t < LIMIT && done < plays; t += SECOND) {
    for (let p = 0; p < players; p++) {
      const pg = page[p], on = online(p, t);
      if (on && !pg.open) { pg.open = true; pg.changedAt = t; pg.gap = Infinity; poll(p, t, true); } // the page opens: its first GET
      if (!on && pg.open) { pg.open = false; pg.next = Infinity; }
      if (pg.open && t >= pg.next) poll(p, t);
    }
    if (t >= moveAt) {
      count.move++; version++; done++;
      const mover = turn;
      play();
      const pg = page[mover];
      pg.seen = version; changed(pg, t); pg.fresh = true; // the move's answer is the new view
      if (turn !== mover) count.push++; // the turn push to the seat that must act now
      const d = delay(mover, t);
      pg.next = d === 0 ? Infinity : t + d;
      if (page[turn].open && turn !== mover) poll(turn, t, true); // the turn push makes the open page poll now
      moveAt = nextOnline(turn, t + SECOND) + think();
      if (!online(turn, moveAt)) moveAt = nextOnline(turn, moveAt) + think(); // the session ended first
    }
  }
  return { count, done, days: (t - 8 * HOUR) / DAY };
}

function cost({ poll304, poll200, move, strong, push }, eventual = true) {
  const requests = poll304 + poll200 + move;
  const gbs = MEMORY_GB * (poll304 * MS.poll304 + poll200 * MS.poll200 + move * MS.move + push * MS.push) / 1000;
  const gb = (poll304 * KB.poll304 + poll200 * KB.poll200 + move * KB.move) / 1e6;
  // A move reads strongly; a poll with an ETag reads eventually (half a unit)
  // unless the read is older than the page's version (then again, strongly:
  // left out, it is the moment after a write).
  // A push reads the record of the seat it goes to (BatchGetItem,
  // eventually consistent: half a unit).
  const readUnits = (eventual ? move + strong + (poll304 + poll200 - strong) / 2 : requests) + push / 2;
  const parts = {
    'CloudFront': requests * PRICE.cloudFront + gb * PRICE.cloudFrontGB,
    'API Gateway': requests * PRICE.apiGateway,
    'Lambda requests': requests * PRICE.lambdaRequest,
    'Lambda compute': gbs * PRICE.lambdaGBs,
    'DynamoDB reads': readUnits * PRICE.read,
    'DynamoDB writes': move * WRITE_UNITS * PRICE.write,
  };
  return { requests, parts, total: Object.values(parts).reduce((a, b) => a + b, 0) };
}

console.log('| scenario | days | requests (304 / 200 / moves) | CloudFront | API Gateway | Lambda req | Lambda compute | DDB reads | DDB writes | $/match | $/match, all reads strong |');
console.log('|---|---|---|---|---|---|---|---|---|---|---|');
for (const scenario of ['2 h a day', 'visible all day']) {
  const runs = [1, 2, 3, 4, 5].map((s) => simulate(scenario, s));
  const days = runs.reduce((a, r) => a + r.days, 0) / runs.length;
  const avg = (k) => runs.reduce((a, r) => a + r.count[k], 0) / runs.length;
  const c = { poll304: avg('poll304'), poll200: avg('poll200'), move: avg('move'), strong: avg('strong'), push: avg('push') };
  const { parts, total } = cost(c);
  const pct = (x) => `${(100 * x / total).toFixed(0)}%`;
  console.log(`| ${scenario} | ${days.toFixed(1)} | ${Math.round(c.poll304 + c.poll200 + c.move)} (${Math.round(c.poll304)} / ${Math.round(c.poll200)} / ${Math.round(c.move)}) | ` +
    `${pct(parts['CloudFront'])} | ${pct(parts['API Gateway'])} | ${pct(parts['Lambda requests'])} | ${pct(parts['Lambda compute'])} | ${pct(parts['DynamoDB reads'])} | ${pct(parts['DynamoDB writes'])} | **$${total.toFixed(4)}** | $${cost(c, false).total.toFixed(4)} |`);
  const unfinished = runs.filter((r) => r.done < PLAYS).length;
  if (unfinished) console.log(`| (${unfinished} of ${runs.length} runs did not finish in 5 days) | | | | | | | | | | |`);
}
