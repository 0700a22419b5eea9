// qr.js: QR codes (ISO/IEC 18004) drawn here, for the player link: byte
// mode, error correction level M, versions 1 to 10 (up to 213 bytes), the
// mask with the lowest penalty. No network, no library: the link is a
// secret and never leaves the page.

// Level M, versions 1-10: [EC codewords per block, [blocks, data codewords]...].
const BLOCKS = [null,
  [10, [1, 16]], [16, [1, 28]], [26, [1, 44]], [18, [2, 32]], [24, [2, 43]],
  [16, [4, 27]], [18, [4, 31]], [22, [2, 38], [2, 39]], [22, [3, 36], [2, 37]], [26, [4, 43], [1, 44]]];
const ALIGN = [null, [], [6, 18], [6, 22], [6, 26], [6, 30], [6, 34], [6, 22, 38], [6, 24, 42], [6, 26, 46], [6, 28, 50]];
const REMAINDER_BITS = [0, 0, 7, 7, 7, 7, 7, 0, 0, 0, 0];

// GF(256) with the polynomial x^8 + x^4 + x^3 + x^2 + 1.
const EXP = new Uint8Array(512);
const LOG = new Uint8Array(256);
for (let i = 0, x = 1; i < 255; i++) {
  EXP[i] = x; LOG[x] = i;
  x <<= 1; if (x & 0x100) x ^= 0x11d;
}
for (let i = 255; i < 512; i++) EXP[i] = EXP[i - 255];
const mul = (a, b) => (a && b ? EXP[LOG[a] + LOG[b]] : 0);

/** ecc returns the n Reed-Solomon check codewords of data. */
function ecc(data, n) {
  let gen = [1]; // highest degree first: the product of (x + 2^i), i < n
  for (let i = 0; i < n; i++) {
    const next = new Array(gen.length + 1).fill(0);
    for (let k = 0; k < gen.length; k++) { next[k] ^= gen[k]; next[k + 1] ^= mul(gen[k], EXP[i]); }
    gen = next;
  }
  const rem = new Array(n).fill(0);
  for (const b of data) {
    const f = b ^ rem.shift();
    rem.push(0);
    for (let k = 0; k < n; k++) rem[k] ^= mul(gen[k + 1], f);
  }
  return rem;
}

function dataCapacity(v) { return BLOCKS[v].slice(1).reduce((s, [n, d]) => s + n * d, 0); }

/** codewords: the message in byte mode, padded, split in blocks, checked and interleaved. */
function codewords(bytes, v) {
  const bits = [];
  const put = (value, n) => { for (let i = n - 1; i >= 0; i--) bits.push((value >>> i) & 1); };
  put(4, 4); // byte mode
  put(bytes.length, v < 10 ? 8 : 16);
  for (const b of bytes) put(b, 8);
  const cap = dataCapacity(v) * 8;
  put(0, Math.min(4, cap - bits.length));
  while (bits.length % 8) bits.push(0);
  for (let pad = 0xec; bits.length < cap; pad ^= 0xec ^ 0x11) put(pad, 8);
  const data = [];
  for (let i = 0; i < bits.length; i += 8) data.push(bits.slice(i, i + 8).reduce((a, b) => (a << 1) | b, 0));
  const [n, ...groups] = BLOCKS[v];
  const blocks = [];
  let at = 0;
  for (const [count, size] of groups) {
    for (let k = 0; k < count; k++) { const d = data.slice(at, at + size); at += size; blocks.push([d, ecc(d, n)]); }
  }
  const out = [];
  const longest = Math.max(...blocks.map(([d]) => d.length));
  for (let i = 0; i < longest; i++) for (const [d] of blocks) if (i < d.length) out.push(d[i]);
  for (let i = 0; i < n; i++) for (const [, e] of blocks) out.push(e[i]);
  return out;
}

/** bch is value's BCH check bits against poly (the format and version fields). */
function bch(value, poly) {
  const deg = 31 - Math.clz32(poly);
  let r = value << deg;
  while (31 - Math.clz32(r) >= deg) r ^= poly << (31 - Math.clz32(r) - deg);
  return (value << deg) | r;
}

const MASKS = [
  (x, y) => (x + y) % 2 === 0, (x, y) => y % 2 === 0, (x) => x % 3 === 0, (x, y) => (x + y) % 3 === 0,
  (x, y) => (Math.floor(x / 3) + Math.floor(y / 2)) % 2 === 0, (x, y) => ((x * y) % 2) + ((x * y) % 3) === 0,
  (x, y) => (((x * y) % 2) + ((x * y) % 3)) % 2 === 0, (x, y) => (((x + y) % 2) + ((x * y) % 3)) % 2 === 0,
];

/** build lays out version v with mask: the grid of dark modules. */
function build(cw, v, mask) {
  const size = 17 + 4 * v;
  const dark = Array.from({ length: size }, () => new Array(size).fill(false));
  const fixed = Array.from({ length: size }, () => new Array(size).fill(false));
  const set = (x, y, on) => { dark[y][x] = on; fixed[y][x] = true; };
  for (let i = 0; i < size; i++) { set(6, i, i % 2 === 0); set(i, 6, i % 2 === 0); }
  for (const [cx, cy] of [[3, 3], [size - 4, 3], [3, size - 4]]) {
    for (let dy = -4; dy <= 4; dy++) {
      for (let dx = -4; dx <= 4; dx++) {
        const x = cx + dx, y = cy + dy;
        if (x < 0 || y < 0 || x >= size || y >= size) continue;
        const d = Math.max(Math.abs(dx), Math.abs(dy));
        set(x, y, d !== 2 && d !== 4);
      }
    }
  }
  const al = ALIGN[v];
  for (const ax of al) {
    for (const ay of al) {
      if ((ax === 6 && ay === 6) || (ax === 6 && ay === al[al.length - 1]) || (ay === 6 && ax === al[al.length - 1])) continue;
      for (let dy = -2; dy <= 2; dy++) for (let dx = -2; dx <= 2; dx++) set(ax + dx, ay + dy, Math.max(Math.abs(dx), Math.abs(dy)) !== 1);
    }
  }
  // Format bits (level M = 00), both copies, and the dark module.
  const format = bch(mask, 0x537) ^ 0x5412;
  const fbit = (i) => ((format >>> i) & 1) === 1;
  for (let i = 0; i <= 5; i++) set(8, i, fbit(i));
  set(8, 7, fbit(6)); set(8, 8, fbit(7)); set(7, 8, fbit(8));
  for (let i = 9; i < 15; i++) set(14 - i, 8, fbit(i));
  for (let i = 0; i < 8; i++) set(size - 1 - i, 8, fbit(i));
  for (let i = 8; i < 15; i++) set(8, size - 15 + i, fbit(i));
  set(8, size - 8, true);
  if (v >= 7) {
    const version = bch(v, 0x1f25);
    for (let i = 0; i < 18; i++) {
      const on = ((version >>> i) & 1) === 1, a = size - 11 + (i % 3), b = Math.floor(i / 3);
      set(a, b, on); set(b, a, on);
    }
  }
  // The codewords, two columns at a time, up and down, right to left.
  const total = cw.length * 8 + REMAINDER_BITS[v];
  let bit = 0;
  for (let right = size - 1; right >= 1; right -= 2) {
    if (right === 6) right = 5;
    const up = ((right + 1) & 2) === 0;
    for (let k = 0; k < size; k++) {
      const y = up ? size - 1 - k : k;
      for (let j = 0; j < 2; j++) {
        const x = right - j;
        if (fixed[y][x] || bit >= total) continue;
        const on = bit < cw.length * 8 && ((cw[bit >>> 3] >>> (7 - (bit & 7))) & 1) === 1;
        dark[y][x] = on !== MASKS[mask](x, y);
        bit++;
      }
    }
  }
  return dark;
}

/** penalty scores a grid by the standard's four rules (lower scans better). */
function penalty(dark) {
  const size = dark.length;
  let score = 0;
  const at = (x, y, transpose) => (transpose ? dark[x][y] : dark[y][x]);
  const finder = [true, false, true, true, true, false, true];
  for (const t of [false, true]) {
    for (let y = 0; y < size; y++) {
      let run = 1;
      for (let x = 1; x <= size; x++) {
        if (x < size && at(x, y, t) === at(x - 1, y, t)) { run++; continue; }
        if (run >= 5) score += run - 2;
        run = 1;
      }
      for (let x = 0; x + 7 <= size; x++) {
        if (!finder.every((f, k) => at(x + k, y, t) === f)) continue;
        const lightBefore = x >= 4 && [1, 2, 3, 4].every((k) => !at(x - k, y, t));
        const lightAfter = x + 11 <= size && [7, 8, 9, 10].every((k) => !at(x + k, y, t));
        if (lightBefore || lightAfter) score += 40;
      }
    }
  }
  let darkCount = 0;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      if (dark[y][x]) darkCount++;
      if (x + 1 < size && y + 1 < size && dark[y][x] === dark[y][x + 1] && dark[y][x] === dark[y + 1][x] && dark[y][x] === dark[y + 1][x + 1]) score += 3;
    }
  }
  score += 10 * Math.floor(Math.abs((darkCount * 100) / (size * size) - 50) / 5);
  return score;
}

/** qrMatrix encodes text (as UTF-8) in the smallest version that holds it: rows of booleans, true dark. */
export function qrMatrix(text) {
  const bytes = new TextEncoder().encode(text);
  let v = 1;
  while (v <= 10 && dataCapacity(v) < bytes.length + (v < 10 ? 2 : 3)) v++;
  if (v > 10) throw new RangeError(`${bytes.length} bytes do not fit a version 10 QR code`);
  const cw = codewords(bytes, v);
  let best = null;
  for (let mask = 0; mask < 8; mask++) {
    const grid = build(cw, v, mask);
    const p = penalty(grid);
    if (!best || p < best.p) best = { p, grid };
  }
  return best.grid;
}

/** qrSVG draws text's QR code as an SVG element with a quiet zone of 4 modules. */
export function qrSVG(text, label) {
  const grid = qrMatrix(text);
  const n = grid.length + 8;
  let d = '';
  grid.forEach((row, y) => row.forEach((on, x) => { if (on) d += `M${x + 4} ${y + 4}h1v1h-1z`; }));
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', `0 0 ${n} ${n}`);
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', label || 'QR code');
  svg.setAttribute('shape-rendering', 'crispEdges');
  svg.classList.add('qr');
  const bg = document.createElementNS(ns, 'rect');
  bg.setAttribute('width', String(n)); bg.setAttribute('height', String(n)); bg.setAttribute('fill', '#fff');
  const path = document.createElementNS(ns, 'path');
  path.setAttribute('d', d); path.setAttribute('fill', '#000');
  svg.append(bg, path);
  return svg;
}
