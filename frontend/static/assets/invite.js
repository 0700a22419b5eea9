// invite.js: the invitation's lines on an open table's join form. Only the
// seat chunk (seat.js) and the unit tests import it: it imports nothing,
// inviteText gets what it uses from log.js's inviteDeps().

export function inviteText({ t, isolate, RULES, ruleTitle, moveTimeText }) {
  /** invitation: "Ana invited you to Five Up: 3 players, to 250." */
  function invitation(view) {
    const host = view.seats[0] && view.seats[0].name && isolate(view.seats[0].name);
    const o = view.options;
    const how = t(o.pairs && (RULES[view.variant] || {}).pairs ? 'invite.howPairs' : 'invite.how', { game: ruleTitle(view.variant), n: o.players, target: o.target });
    return host ? t('invite.by', { host, how }) : t('invite.anon', { how });
  }

  /** seated: who sits at an open table, and its clock: "At the table: Ana, Otto (computer) · 1 day a move". */
  function seated(view) {
    const names = view.seats.filter((s) => s.taken).map((s) => (s.bot ? t('invite.bot', { name: isolate(s.name) }) : isolate(s.name)));
    return t('invite.seated', { names: names.join(', '), clock: moveTimeText(view.options.moveTime) });
  }

  return { invitation, seated };
}
