package game

import (
	"fmt"
	"testing"

	"tessera/engine"
)

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
	if want := fmt.Sprint(FeatThirty, FeatFourArms, FeatDomino); got != want {
		t.Errorf("feats %s, want %s", got, want)
	}
}
