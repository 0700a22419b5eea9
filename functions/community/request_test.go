package community

import (
	"errors"
	"testing"

	"tessera/engine"
)

// A tournament's rules are the community's: defaults filled in, formats
// and bounds checked, whatever transport asked.
func TestTournamentRequestCheck(t *testing.T) {
	two := engine.DefaultOptions(engine.FiveUp)
	two.Players, two.Pairs = 2, false
	four := engine.DefaultOptions(engine.FiveUp)
	block := engine.DefaultOptions(engine.Block)
	ok := func(r TournamentRequest) TournamentRequest {
		r.Name, r.MoveTime, r.RoundTime = "Coppa", 86400, 86400
		return r
	}
	cases := []struct {
		name        string
		req         TournamentRequest
		rounds, siz int // 0: refused
	}{
		{"a Swiss plays 3 rounds and seats 16 unless told", ok(TournamentRequest{Format: Swiss, Options: four}), 3, 16},
		{"a Swiss as asked", ok(TournamentRequest{Format: Swiss, Options: two, Rounds: 5, Size: 8}), 5, 8},
		{"a round robin has one round", ok(TournamentRequest{Format: RoundRobin, Options: two}), 1, 16},
		{"a round robin of two rounds", ok(TournamentRequest{Format: RoundRobin, Options: two, Rounds: 2}), 0, 0},
		{"a round robin of four a table", ok(TournamentRequest{Format: RoundRobin, Options: four}), 0, 0},
		{"an unknown format", ok(TournamentRequest{Format: "knockout", Options: two}), 0, 0},
		{"a rated rule set without a pool", ok(TournamentRequest{Format: Swiss, Options: block, Rated: true}), 0, 0},
		{"too many rounds", ok(TournamentRequest{Format: Swiss, Options: two, Rounds: MaxRounds + 1}), 0, 0},
		{"too large", ok(TournamentRequest{Format: Swiss, Options: two, Size: MaxSize + 1}), 0, 0},
		{"a round too short", TournamentRequest{Name: "Coppa", Format: Swiss, Options: two, MoveTime: 86400, RoundTime: MinRoundTime - 1}, 0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := c.req
			err := r.Check()
			if c.rounds == 0 {
				if !errors.Is(err, engine.ErrBadInput) {
					t.Fatalf("Check() = %v, want engine.ErrBadInput", err)
				}
				return
			}
			if err != nil || r.Rounds != c.rounds || r.Size != c.siz {
				t.Fatalf("Check() = %v: rounds %d, size %d; want %d, %d", err, r.Rounds, r.Size, c.rounds, c.siz)
			}
		})
	}
}
