package engine

import "testing"

// The view's you.answers is a promise: while the seat before yours plays,
// whatever tile it plays, your turn comes (you hold a tile that fits
// after it). Checked over random matches in every configuration by
// playing each of that seat's legal moves on a copy of the match.
func TestAnswersKeepsItsPromise(t *testing.T) {
	for _, c := range configs {
		t.Run(c.name, func(t *testing.T) {
			promised, checked := 0, 0
			for s := range uint64(60) {
				m := newStarted(t, c.opts, Seed{s, s * 7})
				playOut(t, m, newRand(s), func(int, Move) {
					turn := m.Turn()
					if turn < 0 {
						return
					}
					seat := (turn + 1) % c.opts.Players
					if !m.View(seat).You.Answers {
						return
					}
					promised++
					for _, mv := range m.AppendLegal(turn, nil) {
						cp, err := Decode(Encode(m))
						if err != nil {
							t.Fatal(err)
						}
						if err := cp.Apply(turn, mv); err != nil {
							t.Fatal(err)
						}
						checked++
						if cp.Status() == StatusPlaying && cp.HandNumber() == m.HandNumber() && cp.Turn() != seat {
							t.Fatalf("seed %d: seat %d was promised a turn after seat %d's %v, but the turn is %d", s, seat, turn, mv, cp.Turn())
						}
					}
				})
			}
			if promised == 0 {
				t.Fatalf("answers was never true in %s: the check above proves nothing", c.name)
			}
			t.Logf("%s: %d promises, %d plays checked", c.name, promised, checked)
		})
	}
}

// Answers is false outside its case: for a spectator's view, for the
// seat to play, and for a seat two after it.
func TestAnswersOnlyForTheNextSeat(t *testing.T) {
	for _, c := range configs {
		m := newStarted(t, c.opts, Seed{3, 21})
		playOut(t, m, newRand(3), func(int, Move) {
			turn := m.Turn()
			if turn < 0 {
				return
			}
			if m.View(turn).You.Answers {
				t.Fatalf("%s: the seat to play is promised its own turn", c.name)
			}
			if n := c.opts.Players; n > 2 && m.View((turn+2)%n).You.Answers {
				t.Fatalf("%s: a seat two after the turn is promised one", c.name)
			}
		})
	}
}
