package bot

import (
	"math/rand/v2"
	"testing"

	"tessera/engine"
)

// randomHand deals a hand of o at random and returns its Sim.
func randomHand(t testing.TB, o engine.Options, r *rand.Rand) *engine.Sim {
	t.Helper()
	order := r.Perm(engine.NumTiles)
	hands := make([][]engine.Tile, o.Players)
	for s := range hands {
		for _, i := range order[7*s : 7*s+7] {
			hands[s] = append(hands[s], tileOf[i])
		}
	}
	var bone []engine.Tile
	for _, i := range order[7*o.Players:] {
		bone = append(bone, tileOf[i])
	}
	sim, err := engine.NewSim(o, nil, hands, bone, r.IntN(o.Players))
	if err != nil {
		t.Fatal(err)
	}
	return sim
}

// The board's count, open ends and arms agree with the engine's layout after
// every play of thousands of random Five Up hands, and countAfter predicts
// the count of every legal move.
func TestBoardFollowsTheLayout(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, name := range []string{"fiveup2", "fiveup3", "fiveup4"} {
		o := configs[name]
		for h := 0; h < 2000; h++ {
			sim := randomHand(t, o, r)
			b := newBoard(true)
			var buf [32]engine.Move
			for !sim.Over() {
				legal := sim.AppendLegal(buf[:0])
				for _, mv := range legal {
					c := *sim
					pts, _ := c.Play(mv.Tile, mv.End)
					if got := b.countAfter(mv.Tile, mv.End); got != c.Layout().Count() || points(got) != pts {
						t.Fatalf("%s hand %d: countAfter(%v, %v) = %d, want %d (points %d)", name, h, mv.Tile, mv.End, got, c.Layout().Count(), pts)
					}
				}
				mv := legal[r.IntN(len(legal))]
				if _, err := sim.Play(mv.Tile, mv.End); err != nil {
					t.Fatal(err)
				}
				b.place(mv.Tile, mv.End)
				l := sim.Layout()
				if b.count() != l.Count() {
					t.Fatalf("%s hand %d: count = %d, want %d", name, h, b.count(), l.Count())
				}
				if b.armsOpen() != l.Open(engine.EndUp) {
					t.Fatalf("%s hand %d: armsOpen = %v, want %v", name, h, b.armsOpen(), l.Open(engine.EndUp))
				}
				for e := engine.EndLeft; e <= engine.EndDown; e++ {
					if l.Open(e) && int(b.ends[e-engine.EndLeft].pips) != l.Pips(e) {
						t.Fatalf("%s hand %d: %v end shows %d, want %d", name, h, e, b.ends[e-engine.EndLeft].pips, l.Pips(e))
					}
				}
				sim.Advance()
			}
		}
	}
}
