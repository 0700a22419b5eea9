package bot

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"tessera/engine"
)

// The expert's model of play weighs a world by how likely the others'
// plays were in it: a world in which the seat that played held a better
// play it did not make weighs less; a play made before its seat drew
// again is not read (its hand then is unknown), nor is the lead. (With
// beta 0 the expert weighs nothing: expert passes no observer.)
func TestExpertWeighsWorldsByTheOthersPlays(t *testing.T) {
	o := configs["fiveup2"]
	p := &position{opts: o, seat: 0, plays: []engine.PlayedTile{
		{Seat: 0, Tile: engine.Tile{5, 5}, End: engine.EndLead},
		{Seat: 1, Tile: engine.Tile{5, 1}, End: engine.EndRight},
	}}
	played := bit(engine.Tile{5, 5}) | bit(engine.Tile{5, 1})
	obs := newObserver(p, 0.3)
	if len(obs.decs) != 1 || obs.decs[0].k != 1 {
		t.Fatalf("decisions read: %+v, want seat 1's play 1 alone", obs.decs)
	}
	// mass is what a tile adds to the decision's denominator.
	mass := func(tile engine.Tile) float64 {
		m := 0.0
		for e := engine.EndLeft; e <= engine.EndDown; e++ {
			if obs.boards[1].fits(tile, e) {
				m += math.Exp(0.3 * obs.score(&obs.boards[1], tile, e))
			}
		}
		return m
	}
	var hi, lo engine.Tile
	best, least := -1.0, math.Inf(1)
	for m := allTiles &^ played; m != 0; m &= m - 1 {
		tile := tileOf[bits.TrailingZeros32(m)]
		if x := mass(tile); x > best {
			best, hi = x, tile
		}
		if x := mass(tile); x < least {
			least, lo = x, tile
		}
	}
	if best <= least {
		t.Fatal("no tile scores better than another: the test proves nothing")
	}
	filler := []engine.Tile{{0, 0}, {0, 2}}
	world := func(extra engine.Tile) [][]engine.Tile {
		return [][]engine.Tile{nil, append([]engine.Tile{extra}, filler...)}
	}
	wHi, wLo := obs.weight(world(hi)), obs.weight(world(lo))
	if !(wHi < wLo) || wHi <= 0 {
		t.Errorf("holding %v (a better play than the one made) weighs %.4g, holding %v %.4g: want less", hi, wHi, lo, wLo)
	}
	p.drewAfter[1] = 2 // seat 1 drew after its play: its hand then is unknown
	if d := newObserver(p, 0.3).decs; len(d) != 0 {
		t.Errorf("a play before a draw was read: %+v", d)
	}
}

// The expert is honest by construction (TestBotsSeeOnlyTheirView) and
// spends the same work for one legal play as for many.
func TestExpertWorkIsTheSameForOneOrManyPlays(t *testing.T) {
	stages := samplePlayPositions(t, configs["fiveup2"], 6, 3)
	n := 0
	for _, ps := range stages {
		for _, d := range ps {
			if len(d.view.You.Legal) < 2 {
				continue
			}
			_, _, many := expert(d.view, d.seed, 300, expertBeta)
			one := *d.view
			you := *one.You
			you.Legal = you.Legal[:1]
			one.You = &you
			_, _, single := expert(&one, d.seed, 300, expertBeta)
			if many != single || many.worlds != 300 || many.playouts != 300 {
				t.Fatalf("work: %+v with %d plays, %+v with one; want 300 worlds and playouts each", many, len(d.view.You.Legal), single)
			}
			n++
		}
	}
	if n == 0 {
		t.Fatal("no position with two plays or more")
	}
}

// The omniscient yardstick searches the true world: its dealer deals the
// hands it is given every time (the boneyard's order alone varies), and
// it plays legal moves through a whole match.
func TestOmniscientSearchesTheTrueWorld(t *testing.T) {
	o := configs["fiveup2"]
	checked := 0
	playMatch(t, o, engine.Seed{3, 5}, []Player{Medium, Medium}, func(m *engine.Match, seat int) bool {
		v := m.View(seat)
		if m.Phase() != engine.PhasePlay || len(v.You.Legal) < 2 {
			return true
		}
		hands := make([][]engine.Tile, o.Players)
		for s := range hands {
			for i := range engine.NumTiles {
				if m.Holds(s, tileOf[i]) {
					hands[s] = append(hands[s], tileOf[i])
				}
			}
		}
		p, err := readPosition(v)
		if err != nil {
			t.Fatal(err)
		}
		got := make([][]engine.Tile, o.Players)
		newTrueDealer(p, hands).sample(rand.New(rand.NewPCG(1, 2)), got)
		for s := range hands {
			if !slices.Equal(got[s], hands[s]) {
				t.Fatalf("seat %d dealt %v, holds %v", s, got[s], hands[s])
			}
		}
		mv, ok := Omniscient(v, m.BotSeed(seat), hands)
		if !ok || !slices.ContainsFunc(m.AppendLegal(seat, nil), func(l engine.Move) bool { return l == mv }) {
			t.Fatalf("omniscient chose %v (%v), not a legal move", mv, ok)
		}
		checked++
		return checked < 20
	})
	if checked == 0 {
		t.Fatal("no position with two plays")
	}
}
