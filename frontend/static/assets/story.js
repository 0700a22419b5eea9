// story.js: the log in plain words ("Bea played 6–2 on the right and
// scored 10", "Carlo drew 2 and passed"), its lines on the page and what a
// screen reader is told when a view arrives. A chunk of the game page
// (issue 44: its first load draws the table; the log, below it, comes a
// moment later). It imports nothing (a chunk that did would pull a shared
// chunk into the first load): make gets what it uses from the page's
// bundle, log.js's storyDeps().

export function make({ t, say, seatPerson, seatName, teamName, person, handEndText, tileText, when }) {
  /**
   * awayAtStart: for each seat, whether the computer was playing for it when
   * the view's log begins (its first away/back event there is a back, or it
   * has none and is away now).
   */
  function awayAtStart(view) {
    const first = {};
    for (const e of view.log || []) if ((e.type === 'away' || e.type === 'back') && !(e.seat in first)) first[e.seat] = e.type;
    return view.seats.map((s) => (s.seat in first ? first[s.seat] === 'back' : !!s.away));
  }

  /**
   * describe turns the log into plain lines, newest last. A draw followed by a
   * pass of the same seat becomes one line.
   */
  function describe(view, me) {
    const out = [];
    const log = view.log || [];
    let lastPlayer = null;
    const away = awayAtStart(view);
    for (let i = 0; i < log.length; i++) {
      const e = log[i];
      // The computer's moves for an away seat are told as the computer's:
      // "The computer played 5–5 on the left for you".
      const bot = e.seat !== undefined && away[e.seat] && ['play', 'draw', 'pass'].includes(e.type);
      const p = bot ? 'one' : e.seat !== undefined ? seatPerson(e.seat, me) : 'one';
      const who = bot ? t('who.computer') : e.seat !== undefined ? seatName(view, e.seat, me) : '';
      if (e.type === 'away') away[e.seat] = true;
      if (e.type === 'back') away[e.seat] = false;
      let text;
      switch (e.type) {
        case 'deal': text = say('log.deal', seatPerson(e.leader, me), { hand: e.hand, name: seatName(view, e.leader, me) }); break;
        case 'play': {
          lastPlayer = e.seat;
          const scored = e.points > 0 ? '.scored' : '';
          text = e.end === 'lead' ? say('log.lead' + scored, p, { name: who, tile: tileText(e.tile), n: e.points })
            : say('log.play' + scored, p, { name: who, tile: tileText(e.tile), where: t('where.' + e.end), n: e.points });
          break;
        }
        case 'draw': {
          const next = log[i + 1];
          const passed = next && next.type === 'pass' && next.seat === e.seat;
          text = say(passed ? 'log.drawPass' : 'log.draw', p, { name: who, n: e.count });
          if (passed) i++;
          break;
        }
        case 'pass': text = say('log.pass', p, { name: who }); break;
        case 'redeal': text = say('log.redeal', p, { name: who }); break;
        case 'keep': text = say('log.keep', p, { name: who }); break;
        case 'handEnd': text = handEndText(view, e, me, e.reason === 'domino' ? lastPlayer : null); break;
        case 'away': text = say(e.reason === 'timeout' ? 'log.timeout' : 'log.away', p, { name: who }); break;
        case 'back': text = say('log.back', p, { name: who }); break;
        case 'matchEnd': text = say('log.matchEnd', person(view, e.team, me), { team: teamName(view, e.team, me) }); break;
        default: text = e.type;
      }
      if (bot) text += seatPerson(e.seat, me) === 'you' ? t('log.forYou') : t('log.for', { name: seatName(view, e.seat, me) });
      // mine: the reader did it (not the computer for them): never "new".
      out.push({ seq: e.seq, type: e.type, seat: e.seat, text, at: e.at || null, mine: !bot && e.seat !== undefined && seatPerson(e.seat, me) === 'you' });
    }
    return out;
  }

  /**
   * announcement is what a screen reader is told when a view arrives: the
   * lines of the events after seq afterSeq, except the reader's own moves
   * (they know those), as sentences. "" when nothing new.
   */
  function announcement(view, me, afterSeq) {
    const own = new Set(['play', 'draw', 'pass', 'redeal', 'keep', 'away', 'back']);
    return describe(view, me)
      .filter((l) => l.seq > afterSeq && !(own.has(l.type) && l.seat === me && me !== null && me !== undefined))
      .map((l) => (/[.!]$/.test(l.text) ? l.text : l.text + '.'))
      .join(' ');
  }

  /**
   * renderLog shows the newest lines first (at most limit), each with its
   * time ("yesterday 21:40"); lines after seenSeq (what this browser showed
   * last time) are marked new.
   */
  function renderLog(el, view, me, limit = 60, seenSeq = Infinity) {
    const lines = describe(view, me).slice(-limit).reverse();
    el.replaceChildren(...lines.map((l) => {
      const li = document.createElement('li');
      li.className = 'ev-' + l.type;
      li.textContent = l.text;
      li.dataset.seq = l.seq; // where a hint asked goes (coach.js)
      // The time and the "new" mark are drawn by the style sheet from these
      // attributes, so the line's text stays the sentence itself.
      if (l.at) li.dataset.at = when(l.at);
      if (l.seq > seenSeq && !l.mine) { li.classList.add('new'); li.dataset.new = t('log.new'); }
      return li;
    }));
  }

  return { describe, announcement, renderLog };
}
