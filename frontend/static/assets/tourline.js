// tourline.js: a tournament game's story, for its page and the inbox:
// which tournament and round, until when, and what is already decided (a
// round's deadline decides a table still playing by its scores then; the
// game goes on, and its end changes nothing of the tournament).

// It imports nothing: the game page loads it as a chunk of its own, only
// for a tournament's game (frontend/build.mjs), and hands it the words
// (t) and the clock's left.

/**
 * tableOf finds game id's table in tournament tr (GET /api/tournaments):
 * {round, deadline, table} of the round it belongs to, or null.
 */
export function tableOf(tr, id) {
  for (const r of tr.pairings) {
    for (const tb of r.tables) if (tb.game === id) return { round: r.round, deadline: r.deadline, table: tb };
  }
  return null;
}

/**
 * tourLine is the game's line: "Coppa, round 2 of 3 · this round ends: 5 h
 * left", or, once its table is decided while the game goes on, what was
 * decided and what the game still counts for. names: the table's players'
 * names in seat order; finished: the game is over.
 */
export function tourLine({ name, rated, rounds }, { round, deadline, table }, names, finished, { t, left }) {
  const head = t('tour.gameOf', { name, n: round, of: rounds });
  if (table.points && !finished) {
    const score = names.map((n, i) => `${n} ${table.points[i]}`).join(' – ');
    return head + ' · ' + t(rated ? 'tour.decidedRated' : 'tour.decided', { score });
  }
  if (table.points || finished) return head;
  return head + ' · ' + t('tour.deadline', { left: left(deadline) });
}
