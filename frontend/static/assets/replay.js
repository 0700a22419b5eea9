// replay.js: plays that arrive together are shown one after another: each
// tile fades in, its seat is highlighted, a scoring play shows "+10" by the
// tile and the score. A key or tap finishes; none with reduced motion.
// The game page loads it once its first drawing is done (a chunk of its
// own, off the first load's budget: docs/frontend.md), so it imports
// nothing the page's bundle holds.

/** STEP_MS: how long each play of a batch is shown before the next. */
export const STEP_MS = 400;

/** newPlays: the plays of this hand since the view before, oldest first. */
export function newPlays(before, view) {
  if (!before || !view || before.id !== view.id || !view.hand || !before.hand) return [];
  if (before.hand.number !== view.hand.number) return [];
  const last = before.log.length ? before.log[before.log.length - 1].seq : 0;
  const out = [];
  for (const e of view.log) {
    if (e.seq <= last || e.hand !== view.hand.number) continue;
    if (e.type === 'deal') return []; // a redeal laid the board anew
    if (e.type === 'play') out.push(e);
  }
  return out;
}

/** tileKey: drawTile's data-tile. */
export const tileKey = (t) => `${Math.min(t[0], t[1])}-${Math.max(t[0], t[1])}`;

let running = null;

/** finish ends a replay under way. */
export function finish() {
  if (!running) return;
  const r = running;
  running = null;
  r.timers.forEach(clearTimeout);
  for (const el of document.querySelectorAll('.tile.pending, .tile.arrive')) el.classList.remove('pending', 'arrive');
  for (const el of document.querySelectorAll('.seat.playing')) el.classList.remove('playing');
  for (const el of document.querySelectorAll('.points-pop')) el.remove();
  document.removeEventListener('keydown', finish, true);
  document.removeEventListener('pointerdown', finish, true);
  document.body.removeAttribute('data-replaying');
}

const reduced = () => typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;

/** replay shows plays in turn on the board (every tile drawn already). */
export function replay(board, table, plays) {
  finish();
  if (plays.length < 1 || reduced() || document.hidden) return;
  const root = board.querySelector('svg.layout');
  if (!root) return;
  const steps = plays.map((p) => ({ play: p, tile: root.querySelector(`.tile[data-tile="${tileKey(p.tile)}"]`) }));
  if (steps.some((s) => !s.tile)) return;
  running = { timers: [] };
  document.body.dataset.replaying = 'true';
  for (const s of steps) s.tile.classList.add('pending');
  steps.forEach((s, i) => {
    running.timers.push(setTimeout(() => {
      for (const el of table.querySelectorAll('.seat.playing')) el.classList.remove('playing');
      s.tile.classList.remove('pending');
      s.tile.classList.add('arrive');
      const seat = table.querySelector(`.seat[data-seat="${s.play.seat}"]`);
      if (seat) seat.classList.add('playing');
      if (s.play.points > 0) {
        const face = s.tile.querySelector('rect.face');
        const x = Number(face.getAttribute('x')) + Number(face.getAttribute('width')) / 2;
        const y = Number(face.getAttribute('y'));
        const pop = root.appendChild(document.createElementNS('http://www.w3.org/2000/svg', 'text'));
        for (const [k, v] of Object.entries({ class: 'points-pop', x, y, 'text-anchor': 'middle', 'font-size': '0.8', 'aria-hidden': 'true' })) pop.setAttribute(k, v);
        pop.textContent = `+${s.play.points}`;
        const score = seat && seat.querySelector('.score');
        if (score) {
          const gain = document.createElement('span');
          gain.className = 'points-pop gain';
          gain.setAttribute('aria-hidden', 'true');
          gain.textContent = ` +${s.play.points}`;
          score.append(gain);
        }
      }
    }, i * STEP_MS));
  });
  running.timers.push(setTimeout(finish, steps.length * STEP_MS + 600));
  document.addEventListener('keydown', finish, true);
  document.addEventListener('pointerdown', finish, true);
}
