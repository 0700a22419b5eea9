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
			want := work{300, 300}
			if p, _ := readPosition(d.view); endgame(p) {
				want = work{endWorlds, endNodes} // solved (a fallback would be the playouts': 300 each)
				if many.playouts == 300 || single.playouts == 300 {
					continue // the budget ran out: the playouts decided
				}
			}
			if many != single || many != want {
				t.Fatalf("work: %+v with %d plays, %+v with one; want %+v each", many, len(d.view.You.Legal), single, want)
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

// minimax is the solver without pruning: the test's reference (the same
// step of a hand, no alpha-beta).
func minimax(sv *solver, s *engine.Sim, mv engine.Move, gain [4]int, scores *[4]int) float64 {
	o := sv.p.opts
	if v, done := step(s, mv, o, sv.me, &gain, scores); done {
		return v
	}
	maxing := o.TeamOf(s.Turn()) == sv.me
	best := math.Inf(1)
	if maxing {
		best = math.Inf(-1)
	}
	for _, next := range s.AppendLegal(nil) {
		c := *s
		v := minimax(sv, &c, next, gain, scores)
		if maxing {
			best = max(best, v)
		} else {
			best = min(best, v)
		}
	}
	return best
}

// The end-of-hand solver's alpha-beta gives plain minimax's values, in
// sampled worlds of real partnership and 2-player Five Up hands near their
// end.
func TestEndgameSolverIsMinimax(t *testing.T) {
	checked := 0
	for _, cfg := range []string{"partnership", "fiveup2"} {
		stages := samplePlayPositions(t, configs[cfg], 8, 1)
		for _, d := range stages[2] {
			p, err := readPosition(d.view)
			if err != nil || !endgame(p) {
				continue
			}
			r := rand.New(rand.NewPCG(d.seed, 1))
			hands := make([][]engine.Tile, p.opts.Players)
			bone := newSampler(p).sample(r, hands)
			base, err := engine.NewSim(p.opts, p.plays, hands, bone, p.seat)
			if err != nil {
				t.Fatal(err)
			}
			var scores [4]int
			copy(scores[:], p.scores)
			for _, mv := range legalMoves(d.view) {
				sv := &solver{p: p, me: p.opts.TeamOf(p.seat), buf: make([][32]engine.Move, endTiles+2)}
				a, b := *base, *base
				got := sv.after(&a, mv, [4]int{}, &scores, 0, math.Inf(-1), math.Inf(1))
				want := minimax(sv, &b, mv, [4]int{}, &scores)
				if got != want && got != errBudget {
					t.Fatalf("%s: alpha-beta %v, minimax %v for %v", cfg, got, want, mv)
				}
				checked++
			}
		}
	}
	if checked < 20 {
		t.Fatalf("only %d end-of-hand positions solved", checked)
	}
	t.Logf("%d moves solved both ways", checked)
}
