// summary.js: the hand-end / match-end summary (a modal dialog), the score
// sheet and the link to the trophies a match earned: a chunk of the game
// page (issue 44), asked for at its first drawing and drawn when it comes,
// so the first load (the table and the hand) stays within its budget. It
// reads the view; it decides nothing.

import './summary.css'; // its rules, adopted as it loads (build.mjs)

/**
 * make returns {renderSummary, wonLink, renderSheet, trapKeys} over what the page
 * hands it (its words and its drawing helpers): a chunk imports nothing,
 * or the page's first load would grow by a shared chunk (build.mjs).
 */
export function make({ t, list, seatName, teamName, handEndText, closerOf, count, person, say, tileSVG, tileName, renderBoard, el, pipSum, lastHandEnd, statusText }) {
  /**
   * renderSummary fills the hand-end panel: what happened, every seat's
   * revealed tiles with their pips, the points and the scores; at the end of
   * the match, the winner and the "new match" action.
   */
  function renderSummary(panel, view, me, { onClose, onNewMatch, onLookBack }) {
    const found = lastHandEnd(view);
    panel.replaceChildren();
    const finished = view.status === 'finished';
    const e = found ? found.e : view.hand && view.hand.result;
    panel.append(el('h2', '', finished ? statusText(view, me) : t('summary.title', { hand: e.hand })));
    if (e) {
      const closer = found && e.reason === 'domino' ? closerOf(view.log, found.i) : null;
      panel.append(el('p', 'why', handEndText(view, { hand: e.hand ?? view.hand.number, ...e }, me, closer)));
      // How the hand ended: its final layout (the view's lastHand once the
      // next deal replaced it on the table; the table itself at match end).
      const last = view.lastHand;
      if (last && last.number === (e.hand ?? view.hand.number) && !finished) {
        const box = el('div', 'board final-board');
        box.setAttribute('role', 'img');
        box.setAttribute('aria-label', t('summary.finalBoard', { hand: last.number }));
        panel.append(box);
        renderBoard(box, { variant: view.variant, hand: { number: last.number, board: last.board }, log: [] }, [], null, { fitAll: true });
      }
      const list = el('ul', 'revealed');
      for (const s of view.seats) {
        const tiles = (e.tiles && e.tiles[s.seat]) || [];
        const li = el('li');
        li.append(el('span', 'who', seatName(view, s.seat, me)));
        const row = el('span', 'tiles');
        for (const tile of tiles) {
          const box = el('span', 'mini');
          box.setAttribute('role', 'img');
          box.setAttribute('aria-label', tileName(tile));
          box.append(tileSVG(tile, true));
          row.append(box);
        }
        if (!tiles.length) row.append(el('span', 'muted', t('summary.noTiles')));
        // The hand's points come from the tiles of the seats outside the winning team.
        const counted = e.reason !== 'target' && e.team !== null && e.team !== undefined && s.team !== e.team;
        li.append(row, el('span', 'pips', t(counted ? 'summary.pipsCounted' : 'summary.pips', { pips: count(pipSum(tiles), 'pip') })));
        list.append(li);
      }
      panel.append(list);
      if (e.reason !== 'target' && e.team !== null && e.team !== undefined) {
        const counted = view.seats.filter((s) => s.team !== e.team).reduce((n, s) => n + pipSum((e.tiles && e.tiles[s.seat]) || []), 0);
        // "30 points for you", "for you and Lina": never "for You" mid-sentence.
        const partner = view.seats.filter((s) => s.team === e.team && s.seat !== me).map((s) => seatName(view, s.seat, me)).join(t('team.join'));
        panel.append(el('p', 'how', say('summary.counted', person(view, e.team, me), { pips: count(counted, 'pip'), points: count(e.points, 'point'), team: teamName(view, e.team, me), partner })));
      }
    }
    const scores = el('p', 'scores');
    const teams = [...new Set(view.seats.map((s) => s.team))];
    scores.textContent = t('summary.scores', { scores: teams.map((k) => `${teamName(view, k, me)} ${view.scores[k] ?? 0}`).join(' · '), target: view.options.target });
    panel.append(scores);
    const won = finished && wonLink(view, me);
    if (won) { const p = el('p', 'won'); p.append(won); panel.append(p); }
    const actions = el('div', 'actions');
    if (finished && onNewMatch) {
      const b = el('button', 'primary', t(view.next ? 'rematch.go' : 'rematch.play'));
      b.type = 'button';
      b.id = 'new-match';
      b.addEventListener('click', onNewMatch);
      actions.append(b);
    }
    // The look back at this hand, where the seat may have one (issue 44).
    if (onLookBack && e && (finished || Array.isArray(view.hints))) {
      const b = el('button', '', t('coach.review', { n: e.hand ?? view.hand.number }));
      b.type = 'button';
      b.id = 'summary-review';
      b.addEventListener('click', () => onLookBack(e.hand ?? view.hand.number));
      actions.append(b);
    }
    const close = el('button', '', t(finished ? 'summary.look' : 'summary.continue'));
    close.type = 'button';
    close.id = 'summary-close';
    close.addEventListener('click', onClose);
    actions.append(close);
    panel.append(actions);
    const slot = el('div', 'new-match');
    slot.id = 'new-match-slot';
    panel.append(slot);
  }

  /** wonLink: the trophies seat me earned in a finished match, a link to its profile's shelf; null for none. */
  function wonLink(view, me) {
    const won = (view.trophies || []).filter((x) => x.seat === me).map((x) => t('trophy.' + x.id));
    if (!won.length) return null;
    const a = el('a', '', t('won.trophies', { list: list(won) }));
    a.href = '/p/' + (view.seats[me] || {}).player;
    return a;
  }

  /**
   * renderSheet fills the score sheet: a row per hand that has ended (the
   * view's sheet: each team's running total after it), each team's points
   * in that hand and its total; hidden before the first hand ends.
   */
  function renderSheet(wrap, table, view, me) {
    const rows = view.sheet || [];
    wrap.hidden = rows.length === 0;
    if (!rows.length) { table.replaceChildren(); return; }
    const teams = view.scores.length;
    const head = el('thead');
    const hr = el('tr');
    hr.append(el('th', '', t('sheet.hand')));
    for (let k = 0; k < teams; k++) {
      const th = el('th', '', teamName(view, k, me));
      th.scope = 'col';
      hr.append(th);
    }
    head.append(hr);
    const body = el('tbody');
    rows.forEach((row, i) => {
      const tr = el('tr');
      const th = el('th', '', String(i + 1));
      th.scope = 'row';
      tr.append(th);
      for (let k = 0; k < teams; k++) {
        const gained = row[k] - (i ? rows[i - 1][k] : 0);
        const td = el('td', '', String(row[k]));
        if (gained) td.prepend(el('span', 'gain', `+${gained} `));
        tr.append(td);
      }
      body.append(tr);
    });
    const cap = el('caption', 'sr-only', t('sheet.caption', { target: view.options.target }));
    table.replaceChildren(cap, head, body);
  }

  /**
   * trapKeys: the summary is a modal dialog: Tab and Shift+Tab stay inside
   * panel, and Escape closes it as its close button does (close).
   */
  function trapKeys(ev, panel, close) {
    if (panel.hidden) return;
    if (ev.key === 'Escape') { ev.preventDefault(); close(); return; }
    if (ev.key !== 'Tab') return;
    const items = [...panel.querySelectorAll('button, a[href], input, select, [tabindex]:not([tabindex="-1"])')].filter((x) => !x.disabled);
    if (!items.length) return;
    const first = items[0], last = items[items.length - 1];
    const inside = panel.contains(document.activeElement);
    if (ev.shiftKey && (document.activeElement === first || !inside)) { ev.preventDefault(); last.focus(); }
    else if (!ev.shiftKey && (document.activeElement === last || !inside)) { ev.preventDefault(); first.focus(); }
  }

  return { renderSummary, wonLink, renderSheet, trapKeys };
}
