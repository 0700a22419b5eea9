package engine

import (
	"encoding/json"
	"testing"
	"time"
)

func TestSmokeRandomMatches(t *testing.T) {
	for _, o := range []Options{
		{Variant: FiveUp, Players: 2, Target: 250, Redeal: true},
		{Variant: FiveUp, Players: 3, Target: 250, Redeal: true},
		{Variant: FiveUp, Players: 4, Target: 250, Redeal: true},
		{Variant: FiveUp, Players: 4, Pairs: true, Target: 250, Redeal: true},
		DefaultOptions(Partnership),
	} {
		for s := uint64(0); s < 50; s++ {
			m, err := NewMatch(o, Seed{s, 7})
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; i < o.Players; i++ {
				if err := m.TakeSeat(i, Seat{Name: "p", Bot: "easy"}); err != nil {
					t.Fatal(err)
				}
			}
			steps := 0
			for m.Status() == StatusPlaying {
				seat := m.ToAct()[0]
				mv, ok := EasyMove(m.View(seat, ViewMeta{}), m.BotSeed(seat))
				if !ok {
					t.Fatalf("no move for %d", seat)
				}
				if err := m.Apply(seat, mv); err != nil {
					t.Fatal(err)
				}
				steps++
				if steps > 100000 {
					t.Fatal("too long")
				}
			}
			b := Encode(m)
			m2, err := Decode(b)
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			j1, _ := json.Marshal(m.View(0, ViewMeta{UpdatedAt: time.Unix(0, 0)}))
			j2, _ := json.Marshal(m2.View(0, ViewMeta{UpdatedAt: time.Unix(0, 0)}))
			if string(j1) != string(j2) {
				t.Fatalf("replay differs")
			}
			if s == 0 {
				t.Logf("%v: %d bytes, %d hands, scores %v", o.Variant, len(b), len(m.Records()), m.Scores())
			}
		}
	}
	m, _ := NewMatch(Options{Variant: FiveUp, Players: 3, Target: 250, Redeal: true}, Seed{1, 2})
	for i := 0; i < 3; i++ {
		m.TakeSeat(i, Seat{Name: "p"})
	}
	j, _ := json.MarshalIndent(m.View(1, ViewMeta{ID: "x"}), "", " ")
	t.Logf("%s", j)
}
