// render.js: the layout drawn as SVG dominoes (docs/frontend.md, "The board").

import { t } from './i18n.js';

const NS = 'http://www.w3.org/2000/svg';
/** tileName([6, 2]) is "six–two" ("sei–due"): every tile's accessible name. */
export function tileName(tile) { return `${t('pips.' + tile[0])}–${t('pips.' + tile[1])}`; }
/** tileText([6, 2]) is "6–2", for the log. */
export function tileText(t) { return `${t[0]}–${t[1]}`; }
export const sameTile = (a, b) => (a[0] === b[0] && a[1] === b[1]) || (a[0] === b[1] && a[1] === b[0]);

export function svg(tag, attrs, parent) {
  const el = document.createElementNS(NS, tag);
  for (const k in attrs) el.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(el);
  return el;
}

// Pip spots on a 3x3 grid (column, row) for a half standing upright; a half
// of a tile lying sideways swaps them, so the six runs along the tile.
const SPOTS = [
  [],
  [[1, 1]],
  [[0, 0], [2, 2]],
  [[0, 0], [1, 1], [2, 2]],
  [[0, 0], [2, 0], [0, 2], [2, 2]],
  [[0, 0], [2, 0], [1, 1], [0, 2], [2, 2]],
  [[0, 0], [0, 1], [0, 2], [2, 0], [2, 1], [2, 2]],
];

function pips(g, n, x, y, sideways) {
  for (const [c, r] of SPOTS[n]) {
    const [cc, rr] = sideways ? [r, c] : [c, r];
    svg('circle', { cx: (x + 0.22 + cc * 0.28).toFixed(3), cy: (y + 0.22 + rr * 0.28).toFixed(3), r: 0.085, class: 'pip' }, g);
  }
}

/**
 * drawTile draws a tile in the box (x, y, w, h): w > h lies sideways with a
 * on the left; otherwise a on top. Returns the <g>.
 */
export function drawTile(parent, x, y, w, h, a, b, extraClass) {
  const g = svg('g', { class: 'tile' + (extraClass ? ' ' + extraClass : ''), role: 'img', 'aria-label': tileName([a, b]),
    'data-tile': `${Math.min(a, b)}-${Math.max(a, b)}` }, parent);
  const inset = 0.03;
  svg('rect', { x: x + inset, y: y + inset, width: w - 2 * inset, height: h - 2 * inset, rx: 0.12, class: 'face' }, g);
  const sideways = w > h;
  if (sideways) {
    svg('line', { x1: x + 1, y1: y + 0.15, x2: x + 1, y2: y + h - 0.15, class: 'divider' }, g);
    pips(g, a, x, y, true);
    pips(g, b, x + 1, y, true);
  } else {
    svg('line', { x1: x + 0.15, y1: y + 1, x2: x + w - 0.15, y2: y + 1, class: 'divider' }, g);
    pips(g, a, x, y, false);
    pips(g, b, x, y + 1, false);
  }
  return g;
}

/** tileSVG: a standalone tile (for the hand and the summaries). */
export function tileSVG(t, sideways) {
  const s = svg('svg', { viewBox: sideways ? '0 0 2 1' : '0 0 1 2', class: 'tile-svg', 'aria-hidden': 'true', focusable: 'false' });
  if (sideways) drawTile(s, 0, 0, 2, 1, t[0], t[1]); else drawTile(s, 0, 0, 1, 2, t[0], t[1]);
  return s;
}

// ---- layout -------------------------------------------------------------

/**
 * An arm walker places tiles from an attachment point p heading d; when the
 * next tile would cross the arm's bound it turns a corner in direction adv
 * and comes back the other way (a snake). Doubles are laid crosswise.
 */
function walker(p, d, adv, lo, hi, lastAcross) {
  return { p, d, adv, lo, hi, lastAcross, inRow: 0 };
}

function step(w, near, far) {
  const dbl = near === far;
  const ax = w.d[0] !== 0 ? 0 : 1;
  const sign = w.d[ax];
  const len = dbl ? 1 : 2;
  const fits = sign > 0 ? w.p[ax] + len <= w.hi : w.p[ax] - len >= w.lo;
  let p = w.p, d = w.d;
  if (!fits && !dbl && w.inRow > 0) {
    // corner: flush with the row's last half, hanging towards adv
    const s = w.lastAcross / 2;
    const pc = [p[0] - 0.5 * d[0] + s * w.adv[0], p[1] - 0.5 * d[1] + s * w.adv[1]];
    const placed = box(pc, w.adv, near, far, false);
    w.p = [pc[0] + 1.5 * w.adv[0] - 0.5 * d[0], pc[1] + 1.5 * w.adv[1] - 0.5 * d[1]];
    w.d = [-d[0], -d[1]];
    w.lastAcross = 1;
    w.inRow = 0;
    return placed;
  }
  const placed = box(p, d, near, far, dbl);
  w.p = [p[0] + len * d[0], p[1] + len * d[1]];
  w.lastAcross = dbl ? 2 : 1;
  w.inRow++;
  return placed;
}

// box: the rectangle of a tile attached at p heading d, and which value
// shows on the left/top.
function box(p, d, near, far, dbl) {
  const len = dbl ? 1 : 2, across = dbl ? 2 : 1;
  const along = d[0] !== 0;
  let x, y, w, h;
  if (along) {
    w = len; h = across;
    x = d[0] > 0 ? p[0] : p[0] - len;
    y = p[1] - across / 2;
  } else {
    w = across; h = len;
    y = d[1] > 0 ? p[1] : p[1] - len;
    x = p[0] - across / 2;
  }
  const forward = d[0] > 0 || d[1] > 0; // near half is left/top
  const a = forward ? near : far, b = forward ? far : near;
  return { x, y, w, h, a, b };
}

/**
 * layoutBoard places every tile of board for the half sizes hx, hy (in tile
 * widths). anchorIndex: the spinner, else the lead tile's index in line.
 * Returns {tiles: [{x,y,w,h,a,b,tile}], ends: {left|right|up|down|lead: box}}.
 */
export function layoutBoard(board, anchorIndex, hx, hy, ghostDouble) {
  const tiles = [], ends = {};
  const line = board ? board.line : [];
  if (!line.length) {
    ends.lead = { x: -1, y: -0.5, w: 2, h: 1 };
    return { tiles, ends };
  }
  const k = anchorIndex;
  const anchor = line[k];
  const dbl = anchor[0] === anchor[1];
  const arms = board.spinner !== null && board.spinner !== undefined;
  // With arms, each snake lives in a quarter beyond 2 units from the spinner;
  // 7 units leave every return run room for at least one tile.
  if (arms) { hx = Math.max(hx, 7); hy = Math.max(hy, 7); }
  if (dbl) tiles.push({ x: -0.5, y: -1, w: 1, h: 2, a: anchor[0], b: anchor[1], tile: anchor });
  else tiles.push({ x: -1, y: -0.5, w: 2, h: 1, a: anchor[0], b: anchor[1], tile: anchor });
  const half = dbl ? 0.5 : 1, across = dbl ? 2 : 1;
  const walkers = {
    right: walker([half, 0], [1, 0], [0, 1], arms ? 2 : -hx, hx, across),
    left: walker([-half, 0], [-1, 0], [0, -1], -hx, arms ? -2 : hx, across),
  };
  for (let i = k + 1; i < line.length; i++) {
    const t = line[i];
    tiles.push({ ...step(walkers.right, t[0], t[1]), tile: t });
  }
  for (let i = k - 1; i >= 0; i--) {
    const t = line[i];
    tiles.push({ ...step(walkers.left, t[1], t[0]), tile: t });
  }
  if (arms && dbl) {
    walkers.down = walker([0, 1], [0, 1], [-1, 0], 2, hy, 1);
    walkers.up = walker([0, -1], [0, -1], [1, 0], -hy, -2, 1);
    for (const name of ['up', 'down']) {
      for (const t of board[name] || []) tiles.push({ ...step(walkers[name], t[0], t[1]), tile: t });
    }
  }
  for (const name in walkers) {
    const w = walkers[name];
    const ghost = { ...w, p: w.p.slice(), d: w.d.slice() };
    const g = ghostDouble ? step(ghost, 7, 7) : step(ghost, 7, 8);
    ends[name] = { x: g.x, y: g.y, w: g.w, h: g.h };
  }
  return { tiles, ends };
}

function bounds(rects) {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const r of rects) {
    x0 = Math.min(x0, r.x); y0 = Math.min(y0, r.y);
    x1 = Math.max(x1, r.x + r.w); y1 = Math.max(y1, r.y + r.h);
  }
  return { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
}

const MIN_W = 11, MIN_H = 6, PAD = 0.4;

/** TARGET_PX is the smallest end target on screen, in CSS px. */
export const TARGET_PX = 44;
/** TILE_PX: CSS px a unit, so a tile's face is never under 28 px across. */
export const TILE_PX = 30;

/** zoomLayout: the widest snake that fits the width at TILE_PX a unit. */
function zoomLayout(board, anchorIndex, width, height, ghostDouble) {
  let lay, bb;
  for (let hx = 16; hx >= 4; hx--) {
    lay = layoutBoard(board, anchorIndex, hx, 16, ghostDouble);
    bb = bounds([...lay.tiles, ...Object.values(lay.ends)]);
    if ((bb.w + 2 * PAD) * TILE_PX <= width) break;
  }
  const vw = Math.max(bb.w + 2 * PAD, width / TILE_PX), vh = Math.max(bb.h + 2 * PAD, height / TILE_PX);
  return { lay, view: { x: bb.x + bb.w / 2 - vw / 2, y: bb.y + bb.h / 2 - vh / 2, w: vw, h: vh } };
}

/**
 * fitLayout tries snake widths and keeps the one that lets the tiles be
 * largest in a box of width x height pixels.
 */
export function fitLayout(board, anchorIndex, width, height, ghostDouble) {
  const aspect = width > 0 && height > 0 ? width / height : 1.5;
  let best = null;
  for (let hx = 4; hx <= 16; hx++) {
    const hy = Math.max(4, Math.min(16, Math.round(hx / aspect)));
    const lay = layoutBoard(board, anchorIndex, hx, hy, ghostDouble);
    const bb = bounds([...lay.tiles, ...Object.values(lay.ends)]);
    let vw = Math.max(MIN_W, bb.w + 2 * PAD), vh = Math.max(MIN_H, bb.h + 2 * PAD);
    if (vw / vh < aspect) vw = vh * aspect; else vh = vw / aspect;
    const scale = width / vw;
    if (!best || scale > best.scale + 1e-9) {
      best = { scale, lay, view: { x: bb.x + bb.w / 2 - vw / 2, y: bb.y + bb.h / 2 - vh / 2, w: vw, h: vh } };
    }
  }
  return best;
}

/** anchorOf: where the drawing grows from: the spinner, else board.lead. */
export function anchorOf(view) {
  const board = view.hand && view.hand.board;
  if (!board || !board.line.length) return 0;
  if (board.spinner !== null && board.spinner !== undefined) return board.spinner;
  return Number.isInteger(board.lead) ? board.lead : 0;
}

/** lastPlay: the tile of the current hand's last play, or null. */
export function lastPlay(view) {
  if (!view.hand) return null;
  const log = view.log || [];
  for (let i = log.length - 1; i >= 0; i--) {
    const e = log[i];
    if (e.hand !== view.hand.number || e.type === 'deal') break;
    if (e.type === 'play') return e.tile;
  }
  return null;
}

/** renderBoard draws the layout into el, with glowing targets (data-end) for tile. */
export function renderBoard(el, view, targets, tile, { fitAll = false } = {}) {
  const board = view.hand && view.hand.board;
  const rect = el.getBoundingClientRect();
  const W = rect.width || 320, H = rect.height || 240, ghost = !!tile && tile[0] === tile[1];
  let fit = fitLayout(board, anchorOf(view), W, H, ghost);
  // Too small: drawn at TILE_PX, scrolling, unless fitAll (dataset.zoom tells).
  const small = Math.min(W / fit.view.w, H / fit.view.h) < TILE_PX;
  const zoom = small && !fitAll;
  if (zoom) fit = zoomLayout(board, anchorOf(view), W, H, ghost);
  el.dataset.zoom = small ? (zoom ? 'in' : 'out') : '';
  el.classList.toggle('zoomed', zoom);
  if (zoom) el.tabIndex = 0; else el.removeAttribute('tabindex'); // arrows scroll it
  const v = fit.view;
  const n = board ? board.line.length + (board.up || []).length + (board.down || []).length : 0;
  const open = (board && board.ends) || [];
  const spinner = board && board.spinner !== null && board.spinner !== undefined;
  const root = svg('svg', {
    viewBox: `${v.x.toFixed(3)} ${v.y.toFixed(3)} ${v.w.toFixed(3)} ${v.h.toFixed(3)}`,
    preserveAspectRatio: 'xMidYMid meet', class: 'layout', role: 'group',
    'aria-label': n
      ? t('board.layout', { n }) + (open.length ? t('board.openEnds', { ends: open.map((e) => `${t('side.' + e.end)} ${e.pips}`).join(', ') }) : '')
      : t('board.empty'),
  });
  if (zoom) { root.style.width = `${(v.w * TILE_PX).toFixed(1)}px`; root.style.height = `${(v.h * TILE_PX).toFixed(1)}px`; }
  const last = lastPlay(view);
  fit.lay.tiles.forEach((t, i) => {
    const hot = last && sameTile(last, t.tile);
    // The anchor (the first tile drawn) is the spinner when there is one.
    const cls = [hot ? 'last' : '', spinner && i === 0 ? 'spinner' : ''].filter(Boolean).join(' ');
    drawTile(root, t.x, t.y, t.w, t.h, t.a, t.b, cls);
  });
  // Each open end shows the pips a tile must match there, where it would go.
  for (const e of open) {
    const b = fit.lay.ends[e.end];
    if (!b) continue;
    const cx = b.x + b.w / 2, cy = b.y + b.h / 2, r = Math.min(b.w, b.h) * 0.34;
    const g = svg('g', { class: 'end-mark', 'aria-hidden': 'true', 'data-end': e.end }, root);
    svg('circle', { cx, cy, r }, g);
    svg('text', { x: cx, y: cy, 'text-anchor': 'middle', 'dominant-baseline': 'central', 'font-size': (r * 1.25).toFixed(3) }, g).textContent = String(e.pips);
  }
  // A finger needs 44x44 CSS px (WCAG 2.5.5): an end target smaller than
  // that on screen gets an invisible hit area of that size around it.
  const px = zoom ? TILE_PX : Math.min(W / v.w, H / v.h);
  const hitUnits = TARGET_PX / px;
  for (const end of targets || []) {
    const b = fit.lay.ends[end];
    if (!b) continue;
    const pipsAt = board && (board.ends || []).find((e) => e.end === end);
    const label = end === 'lead' ? t('board.leadHere') : t(pipsAt ? 'board.playOnPips' : 'board.playOn', { end: t('side.' + end), pips: pipsAt ? pipsAt.pips : '' });
    const g = svg('g', { class: 'end-target', role: 'button', tabindex: '0', 'aria-label': label, 'data-end': end }, root);
    const hw = Math.max(b.w, hitUnits), hh = Math.max(b.h, hitUnits);
    svg('rect', { class: 'hit', x: b.x + b.w / 2 - hw / 2, y: b.y + b.h / 2 - hh / 2, width: hw, height: hh }, g);
    svg('rect', { x: b.x + 0.05, y: b.y + 0.05, width: b.w - 0.1, height: b.h - 0.1, rx: 0.14 }, g);
  }
  el.replaceChildren(root);
  // Scrolled to where the game is: the targets, else the last tile.
  const focus = zoom && (root.querySelector('.end-target') || root.querySelector('.tile.last'));
  if (focus) {
    const b = focus.getBBox();
    el.scrollLeft = (b.x + b.width / 2 - v.x) * TILE_PX - el.clientWidth / 2;
    el.scrollTop = (b.y + b.height / 2 - v.y) * TILE_PX - el.clientHeight / 2;
  }
  return root;
}
