// input.js: tap, drag and keyboard on the hand and the board. It knows only
// the (tile, end) pairs app.js hands it from `you.legal`.

import { tileName, tileSVG, sameTile } from './render.js';
import { t as tr } from './i18n.js';

/** endsFor lists the ends `legal` allows for tile. */
export function endsFor(legal, tile) {
  return (legal || []).filter((m) => sameTile(m.tile, tile)).map((m) => m.end);
}

/**
 * renderHand draws the player's tiles as buttons: on the player's turn the
 * playable ones stand out and the others are dimmed and announced as not
 * playable; while others play (waiting), every tile is shown plainly (none
 * can be played, and none is singled out). focusIndex keeps the roving
 * tabindex where the player left it.
 */
export function renderHand(el, tiles, legal, selected, focusIndex, waiting = false) {
  const buttons = tiles.map((t, i) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'hand-tile';
    b.dataset.index = i;
    const playable = !waiting && endsFor(legal, t).length > 0;
    b.classList.add(playable ? 'playable' : waiting ? 'waiting' : 'dimmed');
    if (!playable) b.setAttribute('aria-disabled', 'true');
    if (selected === i) { b.classList.add('selected'); b.setAttribute('aria-pressed', 'true'); }
    b.setAttribute('aria-label', playable || waiting ? tileName(t) : tr('hand.cannotPlay', { tile: tileName(t) }));
    b.tabIndex = i === focusIndex ? 0 : -1;
    b.append(tileSVG(t, false));
    return b;
  });
  el.replaceChildren(...buttons);
}

/**
 * attachInput wires the hand and board once; the callbacks read app state:
 *   choose(i)      the player picked tile i (app plays at once or selects)
 *   select(i)      a drag of tile i began: select it without playing
 *   play(end)      the player picked an end for the selected tile
 *   cancel()       drop the selection
 *   focusIndex(i)  remember the focused tile
 */
export function attachInput(hand, board, cb) {
  const tileButton = (t) => t && t.closest && t.closest('.hand-tile');
  const buttons = () => [...hand.querySelectorAll('.hand-tile')];
  const focusTile = (i) => {
    const bs = buttons();
    if (!bs.length) return;
    i = (i + bs.length) % bs.length;
    bs.forEach((b, k) => { b.tabIndex = k === i ? 0 : -1; });
    bs[i].focus();
    cb.focusIndex(i);
  };

  hand.addEventListener('click', (ev) => {
    const b = tileButton(ev.target);
    if (!b || dragged) return;
    cb.choose(Number(b.dataset.index));
  });

  hand.addEventListener('keydown', (ev) => {
    const b = tileButton(ev.target);
    if (!b) return;
    const i = Number(b.dataset.index);
    if (ev.key === 'ArrowRight' || ev.key === 'ArrowDown') { focusTile(i + 1); ev.preventDefault(); }
    else if (ev.key === 'ArrowLeft' || ev.key === 'ArrowUp') { focusTile(i - 1); ev.preventDefault(); }
    else if (ev.key === 'Home') { focusTile(0); ev.preventDefault(); }
    else if (ev.key === 'End') { focusTile(-1); ev.preventDefault(); }
    else if (ev.key === 'Escape') cb.cancel();
    // Enter and Space click the button: handled by 'click'.
  });

  const targets = () => [...board.querySelectorAll('.end-target')];
  board.addEventListener('click', (ev) => {
    const t = ev.target.closest && ev.target.closest('.end-target');
    if (t) cb.play(t.dataset.end);
  });
  board.addEventListener('keydown', (ev) => {
    const t = ev.target.closest && ev.target.closest('.end-target');
    if (!t) return;
    const all = targets();
    const i = all.indexOf(t);
    if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); cb.play(t.dataset.end); }
    else if (ev.key.startsWith('Arrow')) {
      const d = ev.key === 'ArrowRight' || ev.key === 'ArrowDown' ? 1 : -1;
      all[(i + d + all.length) % all.length].focus();
      ev.preventDefault();
    } else if (ev.key === 'Escape') { cb.cancel(); ev.preventDefault(); }
  });

  // Drag: a playable tile follows the pointer; dropped on a glowing end (or
  // near one) it is played there.
  let drag = null, dragged = false;
  hand.addEventListener('pointerdown', (ev) => {
    const b = tileButton(ev.target);
    if (!b || !b.classList.contains('playable') || ev.button !== 0) return;
    dragged = false;
    drag = { b, i: Number(b.dataset.index), x: ev.clientX, y: ev.clientY, ghost: null, id: ev.pointerId };
  });
  window.addEventListener('pointermove', (ev) => {
    if (!drag || ev.pointerId !== drag.id) return;
    if (!drag.ghost) {
      if (Math.hypot(ev.clientX - drag.x, ev.clientY - drag.y) < 10) return;
      dragged = true;
      cb.select(drag.i);
      drag.ghost = drag.b.cloneNode(true);
      drag.ghost.classList.add('drag-ghost');
      drag.ghost.removeAttribute('tabindex');
      drag.ghost.setAttribute('aria-hidden', 'true');
      document.body.append(drag.ghost);
    }
    drag.ghost.style.left = ev.clientX + 'px';
    drag.ghost.style.top = ev.clientY + 'px';
    const near = nearest(ev.clientX, ev.clientY);
    for (const t of targets()) t.classList.toggle('hover', t === near);
  });
  const nearest = (x, y) => {
    const br = board.getBoundingClientRect();
    if (x < br.left || x > br.right || y < br.top || y > br.bottom) return null;
    let best = null, bestD = Infinity;
    for (const t of targets()) {
      const r = t.getBoundingClientRect();
      const d = Math.hypot(x - (r.left + r.width / 2), y - (r.top + r.height / 2));
      if (d < bestD) { best = t; bestD = d; }
    }
    return best;
  };
  const endDrag = (ev) => {
    if (!drag || ev.pointerId !== drag.id) return;
    const d = drag;
    drag = null;
    if (!d.ghost) return;
    d.ghost.remove();
    const t = ev.type === 'pointerup' ? nearest(ev.clientX, ev.clientY) : null;
    if (t) cb.play(t.dataset.end); else cb.cancel();
    setTimeout(() => { dragged = false; }, 0);
  };
  window.addEventListener('pointerup', endDrag);
  window.addEventListener('pointercancel', endDrag);

  return { focusTile, focusFirstTarget: () => { const t = targets()[0]; if (t) t.focus(); } };
}
