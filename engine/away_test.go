package engine

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestAwayAndBack(t *testing.T) {
	m := newStarted(t, fiveUp4, Seed{5, 5})
	if m.AllAway() {
		t.Fatal("AllAway with everyone here")
	}
	if err := m.Apply(1, Move{Kind: Back}); !errors.Is(err, ErrIllegalMove) {
		t.Errorf("back by a seat that is not away = %v, want ErrIllegalMove", err)
	}
	if err := m.Apply(1, Move{Kind: Away}); err != nil {
		t.Fatalf("away = %v", err)
	}
	if !m.Seat(1).Away {
		t.Fatal("seat 1 is not away")
	}
	if e := m.log[len(m.log)-1]; e.Type != EventAway || e.Seat != 1 || e.Timeout {
		t.Errorf("event %+v, want away (asked) by 1", e)
	}
	if err := m.Apply(1, Move{Kind: Away}); !errors.Is(err, ErrIllegalMove) {
		t.Errorf("away by a seat that is away = %v, want ErrIllegalMove", err)
	}
	if err := m.Apply(1, Move{Kind: Back}); err != nil || m.Seat(1).Away {
		t.Fatalf("back = %v, away %v", err, m.Seat(1).Away)
	}
	if e := m.log[len(m.log)-1]; e.Type != EventBack || e.Seat != 1 {
		t.Errorf("event %+v, want back by 1", e)
	}
	// A timeout only for a seat that must act.
	acting := m.ToAct()[0]
	other := (acting + 1) % 4
	if err := m.Timeout(other); !errors.Is(err, ErrNotYourTurn) {
		t.Errorf("timeout of a seat that need not act = %v, want ErrNotYourTurn", err)
	}
	if err := m.Timeout(acting); err != nil || !m.Seat(acting).Away {
		t.Fatalf("timeout = %v", err)
	}
	if e := m.log[len(m.log)-1]; e.Type != EventAway || !e.Timeout {
		t.Errorf("event %+v, want away (timeout)", e)
	}
	if err := m.Timeout(acting); !errors.Is(err, ErrIllegalMove) {
		t.Errorf("a second timeout = %v, want ErrIllegalMove", err)
	}
	for s := 0; s < 4; s++ {
		if !m.Seat(s).Away {
			m.Apply(s, Move{Kind: Away})
		}
	}
	if !m.AllAway() {
		t.Error("AllAway false with every person away")
	}
	checkReplay(t, m)

	// Computer seats are never away; an open or finished match has no moves.
	b, _ := NewMatch(fiveUp4, Seed{1, 2})
	if err := b.Apply(0, Move{Kind: Away}); !errors.Is(err, ErrNotYourTurn) {
		t.Errorf("away in an open match = %v, want ErrNotYourTurn", err)
	}
	b.TakeSeat(0, Seat{Name: "A"})
	for s := 1; s < 4; s++ {
		b.TakeSeat(s, Seat{Name: "B", Bot: "easy"})
	}
	if err := b.Apply(2, Move{Kind: Away}); !errors.Is(err, ErrIllegalMove) {
		t.Errorf("away for a computer seat = %v, want ErrIllegalMove", err)
	}
	if b.AllAway() {
		t.Error("AllAway with the one person here")
	}
}

// Random matches in which people go away, come back and time out replay,
// encode and decode to the same match, and the away flags follow the log.
func TestPropertiesAwayAndBack(t *testing.T) {
	n := propertyMatches() / 10
	for _, c := range configs {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			exercised := 0
			for s := 0; s < n; s++ {
				m := newStarted(t, c.opts, Seed{uint64(s), 77})
				r := rand.New(rand.NewPCG(uint64(s), 5))
				var buf [32]Move
				for steps := 0; m.Status() == StatusPlaying; steps++ {
					if steps > 30000 {
						t.Fatal("no end")
					}
					switch k := r.IntN(30); {
					case k == 0:
						seat := r.IntN(c.opts.Players)
						kind := Away
						if m.Seat(seat).Away {
							kind = Back
						}
						if err := m.Apply(seat, Move{Kind: kind}); err != nil {
							t.Fatalf("seed %d: %v by %d: %v", s, kind, seat, err)
						}
					case k == 1:
						seat := m.ToAct()[0]
						err := m.Timeout(seat)
						if m.Seat(seat).Away != (err == nil || errors.Is(err, ErrIllegalMove)) {
							t.Fatalf("seed %d: timeout of %d: %v", s, seat, err)
						}
					default:
						seat, mv := randomMove(m, r, buf[:])
						if err := m.Apply(seat, mv); err != nil {
							t.Fatalf("seed %d: %v", s, err)
						}
					}
					away := map[int]bool{}
					for _, e := range m.log {
						if e.Type == EventAway {
							away[e.Seat] = true
						} else if e.Type == EventBack {
							away[e.Seat] = false
						}
					}
					for seat := 0; seat < c.opts.Players; seat++ {
						if m.Seat(seat).Away != away[seat] {
							t.Fatalf("seed %d: seat %d away %v, the log says %v", s, seat, m.Seat(seat).Away, away[seat])
						}
					}
				}
				checkReplay(t, m)
				if slices.ContainsFunc(m.log, func(e Event) bool { return e.Type == EventAway && e.Timeout }) {
					exercised++
				}
			}
			if exercised < n/2 {
				t.Fatalf("only %d of %d matches had a timeout: the property is not exercised", exercised, n)
			}
		})
	}
}

// A seat's away and back moves are bounded per hand (MaxAskedChanges; the
// next is ErrLimit and changes nothing); a new hand starts the count again,
// and a timeout is never refused.
func TestAwayAndBackAreBoundedPerHand(t *testing.T) {
	m := newStarted(t, Options{Variant: FiveUp, Players: 2, Target: 250}, Seed{4, 4})
	seat := 1 - m.ToAct()[0] // not the seat to play: its moves change nothing else
	kinds := []MoveKind{Away, Back}
	for i := range MaxAskedChanges {
		if err := m.Apply(seat, Move{Kind: kinds[i%2]}); err != nil {
			t.Fatalf("change %d: %v", i+1, err)
		}
	}
	before := m.Seq()
	if err := m.Apply(seat, Move{Kind: kinds[MaxAskedChanges%2]}); !errors.Is(err, ErrLimit) || m.Seq() != before {
		t.Fatalf("change %d: %v (seq %d -> %d), want ErrLimit and no change", MaxAskedChanges+1, err, before, m.Seq())
	}
	other := 1 - seat
	if err := m.Timeout(other); err != nil {
		t.Fatalf("a timeout after the limit: %v", err)
	}
	d, err := Decode(Encode(m))
	if err != nil || d.Seq() != m.Seq() {
		t.Fatalf("a match at the limit does not round-trip: %v", err)
	}
}
