package game

import (
	"fmt"
	"testing"

	"tessera/engine"
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
		{"the hundredth (ten owned)", won, 1, TrophyFacts{Finished: 99, Owned: trophyBit("ten-matches")}, "[hundred-matches]"},
		{"a feat of each", won, 1, TrophyFacts{Finished: 3, Feats: featDomino | featThirty | featFourArms}, "[domino thirty four-arms]"},
		{"a clean sweep", duel(0, []int{100, 0}), 0, TrophyFacts{Finished: 3}, "[clean-sweep]"},
		{"not clean: 5 against", duel(0, []int{100, 5}), 0, TrophyFacts{Finished: 3}, "[]"},
		{"the sweep's loser", duel(0, []int{100, 0}), 1, TrophyFacts{Finished: 3}, "[]"},
		{"a comeback from 40 behind", duel(0, []int{100, 90}, []int{0, 40}), 0, TrophyFacts{Finished: 3}, "[comeback]"},
		{"39 behind is not one", duel(0, []int{100, 90}, []int{0, 39}), 0, TrophyFacts{Finished: 3}, "[]"},
		{"behind 40 and lost", duel(1, []int{90, 100}, []int{0, 40}), 0, TrophyFacts{Finished: 3}, "[]"},
		{"a fifth rated win in a row", won, 0, TrophyFacts{Finished: 3, Rated: true, Streak: 4}, "[five-in-a-row]"},
		{"a fifth win, unrated", won, 0, TrophyFacts{Finished: 3, Streak: 4}, "[]"},
		{"a fourth rated win", won, 0, TrophyFacts{Finished: 3, Rated: true, Streak: 3}, "[]"},
		{"25 in a row on time", won, 1, TrophyFacts{Finished: 30, OnTime: 24, Owned: trophyBit("ten-matches")}, "[on-time]"},
		{"24 on time", won, 1, TrophyFacts{Finished: 30, OnTime: 23, Owned: trophyBit("ten-matches")}, "[]"},
		{"the 25th timed out", won, 1, TrophyFacts{Finished: 30, OnTime: 24, TimedOut: true, Owned: trophyBit("ten-matches")}, "[]"},
		{"owned already", won, 1, TrophyFacts{Feats: featDomino, Owned: trophyBit("first-match") | trophyBit("domino")}, "[]"},
		{"pairs: partners share the sweep", MatchRecord{Teams: []int{0, 1, 0, 1}, Winner: 0, Scores: []int{50, 0}, Sheet: [][]int{{50, 0}}, Target: 50}, 2, TrophyFacts{Finished: 3}, "[clean-sweep]"},
	} {
		if got := fmt.Sprint(seatTrophies(MatchTrophies(c.rec, c.seat, c.f))); got != c.want && !(got == "[]" && c.want == "[]") {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
}

// The feats come from the events: a play of 30 (not 25), a scoring play
// with the arms open (not one without, nor one scoring nothing), the last
// tile of a hand (not a hand that ends blocked with tiles left).
func TestFeatsFromEvents(t *testing.T) {
	st := &Stored{Seats: make([]SeatAuth, 3)}
	noteFeats(st, []engine.Event{
		{Type: engine.EventPlay, Seat: 0, Points: 30},
		{Type: engine.EventPlay, Seat: 1, Points: 25},
		{Type: engine.EventPlay, Seat: 1, Points: 10, Arms: true},
		{Type: engine.EventPlay, Seat: 2, Points: 0, Arms: true},
		{Type: engine.EventPlay, Seat: 2, Points: 5},
		{Type: engine.EventHandEnd, Result: &engine.Result{Tiles: [][]engine.Tile{{{1, 2}}, {{3, 4}}, {}}}},
		{Type: engine.EventPlay, Seat: 0, Points: 0},
		{Type: engine.EventHandEnd, Result: &engine.Result{Tiles: [][]engine.Tile{{{6, 6}}, {}, {}}}},
	})
	got := fmt.Sprint(st.Seats[0].Feats, st.Seats[1].Feats, st.Seats[2].Feats)
	if want := fmt.Sprint(featThirty, featFourArms, featDomino); got != want {
		t.Errorf("feats %s, want %s", got, want)
	}
}
