package community

import (
	"fmt"
	"testing"

	"tessera/functions/game"
)

// Every trophy decided at a match's end, with a constructed record that
// earns it and one that just misses.
func TestMatchTrophies(t *testing.T) {
	duel := func(winner int, scores []int, sheet ...[]int) MatchRecord {
		return MatchRecord{Teams: []int{0, 1}, Winner: winner, Scores: scores, Sheet: append(sheet, scores), Target: 100}
	}
	won := duel(0, []int{100, 35})
	for _, c := range []struct {
		name string
		rec  MatchRecord
		seat int
		f    TrophyFacts
		want string
	}{
		{"a first match", won, 1, TrophyFacts{}, "[first-match]"},
		{"a second match", won, 1, TrophyFacts{Finished: 1}, "[]"},
		{"the tenth", won, 1, TrophyFacts{Finished: 9}, "[ten-matches]"},
		{"the ninth", won, 1, TrophyFacts{Finished: 8}, "[]"},
		{"the hundredth (ten owned)", won, 1, TrophyFacts{Finished: 99, Owned: game.TrophyBit("ten-matches")}, "[hundred-matches]"},
		{"a feat of each", won, 1, TrophyFacts{Finished: 3, Feats: game.FeatDomino | game.FeatThirty | game.FeatFourArms}, "[domino thirty four-arms]"},
		{"a clean sweep", duel(0, []int{100, 0}), 0, TrophyFacts{Finished: 3}, "[clean-sweep]"},
		{"not clean: 5 against", duel(0, []int{100, 5}), 0, TrophyFacts{Finished: 3}, "[]"},
		{"the sweep's loser", duel(0, []int{100, 0}), 1, TrophyFacts{Finished: 3}, "[]"},
		{"a comeback from 40 behind", duel(0, []int{100, 90}, []int{0, 40}), 0, TrophyFacts{Finished: 3}, "[comeback]"},
		{"39 behind is not one", duel(0, []int{100, 90}, []int{0, 39}), 0, TrophyFacts{Finished: 3}, "[]"},
		{"behind 40 and lost", duel(1, []int{90, 100}, []int{0, 40}), 0, TrophyFacts{Finished: 3}, "[]"},
		{"a fifth rated win in a row", won, 0, TrophyFacts{Finished: 3, Rated: true, Streak: 4}, "[five-in-a-row]"},
		{"a fifth win, unrated", won, 0, TrophyFacts{Finished: 3, Streak: 4}, "[]"},
		{"a fourth rated win", won, 0, TrophyFacts{Finished: 3, Rated: true, Streak: 3}, "[]"},
		{"25 in a row on time", won, 1, TrophyFacts{Finished: 30, OnTime: 24, Owned: game.TrophyBit("ten-matches")}, "[on-time]"},
		{"24 on time", won, 1, TrophyFacts{Finished: 30, OnTime: 23, Owned: game.TrophyBit("ten-matches")}, "[]"},
		{"the 25th timed out", won, 1, TrophyFacts{Finished: 30, OnTime: 24, TimedOut: true, Owned: game.TrophyBit("ten-matches")}, "[]"},
		{"owned already", won, 1, TrophyFacts{Feats: game.FeatDomino, Owned: game.TrophyBit("first-match") | game.TrophyBit("domino")}, "[]"},
		{"pairs: partners share the sweep", MatchRecord{Teams: []int{0, 1, 0, 1}, Winner: 0, Scores: []int{50, 0}, Sheet: [][]int{{50, 0}}, Target: 50}, 2, TrophyFacts{Finished: 3}, "[clean-sweep]"},
	} {
		if got := fmt.Sprint(game.SeatTrophies(MatchTrophies(c.rec, c.seat, c.f))); got != c.want && !(got == "[]" && c.want == "[]") {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
}
