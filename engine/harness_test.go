package engine

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// configs are the table configurations the property tests cover: every
// one of every rule set (Tables).
var configs = func() (out []struct {
	name string
	opts Options
}) {
	for _, t := range Tables() {
		out = append(out, struct {
			name string
			opts Options
		}{t.Name, t.Options})
	}
	return out
}()

// newStarted returns a match with every seat taken by a person.
func newStarted(t testing.TB, opts Options, seed Seed) *Match {
	t.Helper()
	m, err := NewMatch(opts, seed)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < opts.Players; i++ {
		if err := m.TakeSeat(i, Seat{Name: fmt.Sprintf("P%d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	return m
}

// randomMove picks uniformly among what the seats to act may do.
func randomMove(m *Match, r *rand.Rand, buf []Move) (int, Move) {
	act := m.ToAct()
	seat := act[r.IntN(len(act))]
	if m.Phase() == PhaseConfirm {
		if r.IntN(3) == 0 {
			return seat, Move{Kind: Redeal}
		}
		return seat, Move{Kind: Keep}
	}
	legal := m.AppendLegal(seat, buf[:0])
	return seat, legal[r.IntN(len(legal))]
}

// playOut plays random moves to the end, calling step before each move.
func playOut(t testing.TB, m *Match, r *rand.Rand, step func(seat int, mv Move)) {
	t.Helper()
	var buf [32]Move
	for n := 0; m.Status() == StatusPlaying; n++ {
		if n > 20000 {
			t.Fatal("match did not end after 20000 moves")
		}
		seat, mv := randomMove(m, r, buf[:])
		if step != nil {
			step(seat, mv)
		}
		if err := m.Apply(seat, mv); err != nil {
			t.Fatalf("legal move %+v by %d refused: %v", mv, seat, err)
		}
	}
}

func newRand(s uint64) *rand.Rand { return rand.New(rand.NewPCG(s, 1)) }
