package bot

import (
	"maps"
	"slices"
	"testing"

	"tessera/engine"
)

// configs are the table configurations every property runs over.
var configs = Tables()

// configNames lists them in a fixed (sorted) order.
var configNames = slices.Sorted(maps.Keys(configs))

// decision is one moment of a real match at which a seat must act.
type decision struct {
	m    *engine.Match // the match at that moment (a replayed copy)
	seat int
	view *engine.View
	seed uint64
}

// playMatch plays a match between the given players (by seat) and calls
// visit at every decision before it is made; visit may stop the match by
// returning false.
func playMatch(t testing.TB, o engine.Options, seed engine.Seed, players []Player, visit func(m *engine.Match, seat int) bool) *engine.Match {
	t.Helper()
	m, err := engine.NewMatch(o, seed)
	if err != nil {
		t.Fatal(err)
	}
	for s := 0; s < o.Players; s++ {
		if err := m.TakeSeat(s, engine.Seat{Name: "bot", Bot: "test"}); err != nil {
			t.Fatal(err)
		}
	}
	for steps := 0; m.Status() == engine.StatusPlaying; steps++ {
		if steps > 10000 {
			t.Fatalf("match %v does not end", seed)
		}
		seat := m.ToAct()[0]
		if visit != nil && !visit(m, seat) {
			return m
		}
		mv, ok := players[seat](m.View(seat), m.BotSeed(seat))
		if !ok {
			t.Fatalf("match %v: seat %d must act but its player has nothing to do", seed, seat)
		}
		if err := m.Apply(seat, mv); err != nil {
			t.Fatalf("match %v: seat %d: %v", seed, seat, err)
		}
	}
	return m
}

// samplePlayPositions collects views of seats that must choose between at
// least two plays, from matches between medium and easy players, grouped by
// the stage of the hand: start (fewer than 5 tiles on the layout), middle
// (5..11) and end (12 or more).
func samplePlayPositions(t testing.TB, o engine.Options, matches int, every int) (stages [3][]decision) {
	t.Helper()
	players := make([]Player, o.Players)
	for s := range players {
		players[s] = Medium
		if s%2 == 1 {
			players[s] = Easy
		}
	}
	k := 0
	for i := 0; i < matches; i++ {
		playMatch(t, o, engine.Seed{uint64(i), 99}, players, func(m *engine.Match, seat int) bool {
			v := m.View(seat)
			if v.You.Confirm || len(v.You.Legal) < 2 {
				return true
			}
			k++
			if k%every != 0 {
				return true
			}
			n := 0
			for _, e := range v.Log {
				if e.Hand == v.Hand.Number && e.Type == engine.EventPlay {
					n++
				}
			}
			st := 1
			switch {
			case n < 5:
				st = 0
			case n >= 12:
				st = 2
			}
			stages[st] = append(stages[st], decision{seat: seat, view: v, seed: m.BotSeed(seat)})
			return true
		})
	}
	return stages
}
