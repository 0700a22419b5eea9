package community

import (
	"context"

	"tessera/engine/pairing"
)

// A tournament's format is a value (issue 41): how a request of it is
// checked and completed (its rounds), how a round is paired, and who wins.
// CreateTournament's check, Start and every round read it from Formats,
// and the page's list of formats is generated from it (config.js): a new
// format is one file with its Format and its line here, and its words.
type Format struct {
	Name string
	// check completes r (its rounds) and checks it; the reason follows
	// engine.ErrBadInput ("" when r is fine).
	check func(r *TournamentRequest) string
	// pair seats the next round of t.
	pair func(ctx context.Context, h *Service, t *Tournament) ([]pairing.Table, error)
	// winner is t's winner once its last round is decided ("" none).
	winner func(t *Tournament) string
}

// Formats are the tournament formats, by name; FormatNames in the order
// the page offers them.
var (
	Formats     = map[string]*Format{Swiss: &swissFormat, RoundRobin: &roundRobinFormat}
	FormatNames = []string{Swiss, RoundRobin}
)

// byStandings: the winner is first in the standings (points, then
// Buchholz: pairing.Order).
func byStandings(t *Tournament) string {
	if order := pairing.Order(t.entrantIDs(), t.history()); len(order) > 0 {
		return order[0].Player
	}
	return ""
}

// swissFormat: Rounds rounds (DefaultSwissRounds when none is asked),
// each paired by standings, keeping apart the entrants who blocked one
// another where it can (docs/blocking.md): it reads their profiles.
var swissFormat = Format{
	Name: Swiss,
	check: func(r *TournamentRequest) string {
		if r.Rounds == 0 {
			r.Rounds = DefaultSwissRounds
		}
		return ""
	},
	pair: func(ctx context.Context, h *Service, t *Tournament) ([]pairing.Table, error) {
		hist := t.history()
		apart, err := h.blocks(ctx, t.entrantIDs())
		if err != nil {
			return nil, err
		}
		hist.Apart = apart
		return pairing.Swiss(t.entrantIDs(), hist, t.Players), nil
	},
	winner: byStandings,
}

// roundRobinFormat: one round in which every entrant meets every other,
// two a table.
var roundRobinFormat = Format{
	Name: RoundRobin,
	check: func(r *TournamentRequest) string {
		switch {
		case r.Rounds > 1:
			return "a round robin has one round"
		case r.Options.Players != 2:
			return "a round robin seats two players a table"
		}
		r.Rounds = 1
		return ""
	},
	pair: func(_ context.Context, _ *Service, t *Tournament) ([]pairing.Table, error) {
		return pairing.RoundRobin(t.entrantIDs()), nil
	},
	winner: byStandings,
}
