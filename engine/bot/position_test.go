package bot

import (
	"math/bits"
	"math/rand/v2"
	"testing"

	"tessera/engine"
)

// What draws and passes say about the numbers a seat lacks.
func TestReadLogVoids(t *testing.T) {
	three := engine.Options{Variant: engine.FiveUp, Players: 3, Target: 250, Redeal: true}
	for _, c := range []struct {
		rule string
		s    spec
		seat int
		want uint8 // numbers the seat lacks, a bit per number
	}{
		{
			rule: "a seat that passed on ends 2 and 3 lacks 2 and 3",
			s: spec{opts: partnership, seat: 0,
				mine:   []engine.Tile{tl(2, 6), tl(3, 5), tl(0, 0), tl(6, 1), tl(1, 1), tl(4, 4)},
				events: []engine.Event{play(0, tl(2, 3), lead), pass(1)},
				held:   []int{6, 7, 7, 7}},
			seat: 1, want: 1<<2 | 1<<3,
		},
		{
			rule: "passes add up",
			s: spec{opts: partnership, seat: 0,
				mine: []engine.Tile{tl(2, 6), tl(3, 5), tl(0, 0), tl(6, 1), tl(1, 1)},
				events: []engine.Event{play(0, tl(2, 3), lead), pass(1), play(2, tl(3, 4), right),
					pass(3), play(0, tl(4, 4), right), pass(1)},
				held: []int{5, 7, 6, 7}},
			seat: 1, want: 1<<2 | 1<<3 | 1<<4,
		},
		{
			rule: "a seat that drew one tile and played it lacks the ends it drew on and what it lacked before",
			s: spec{opts: three, seat: 0,
				mine: []engine.Tile{tl(0, 0), tl(1, 1), tl(0, 1), tl(5, 5), tl(6, 6), tl(0, 6)},
				events: []engine.Event{play(0, tl(2, 3), lead), draw(1, 2), pass(1),
					play(2, tl(3, 4), right), draw(1, 1), play(1, tl(4, 5), right)},
				held: []int{6, 9, 6}, boneyard: 4},
			seat: 1, want: 1<<2 | 1<<3 | 1<<4,
		},
		{
			rule: "a seat that drew several tiles keeps only the ends it drew on",
			s: spec{opts: three, seat: 0,
				mine: []engine.Tile{tl(0, 0), tl(1, 1), tl(0, 1), tl(5, 5), tl(6, 6), tl(0, 6)},
				events: []engine.Event{play(0, tl(2, 3), lead), draw(1, 2), pass(1),
					play(2, tl(3, 4), right), draw(1, 3), play(1, tl(4, 5), right)},
				held: []int{6, 11, 6}, boneyard: 2},
			seat: 1, want: 1<<2 | 1<<4,
		},
		{
			rule: "a seat that played without drawing lacks nothing known",
			s: spec{opts: three, seat: 0,
				mine:   []engine.Tile{tl(0, 0), tl(1, 1), tl(0, 1), tl(5, 5), tl(6, 6), tl(0, 6)},
				events: []engine.Event{play(0, tl(2, 3), lead), play(1, tl(3, 4), right)},
				held:   []int{6, 6, 7}, boneyard: 7},
			seat: 1, want: 0,
		},
	} {
		t.Run(c.rule, func(t *testing.T) {
			p, err := readPosition(c.s.view(t))
			if err != nil {
				t.Fatal(err)
			}
			if p.void[c.seat] != c.want {
				t.Fatalf("void[%d] = %07b, want %07b", c.seat, p.void[c.seat], c.want)
			}
		})
	}
}

// Over many real positions: the seat's knowledge is true of the real deal
// (every seat really lacks the numbers it is said to lack), and every
// sampled world agrees with everything public: each seat gets as many tiles
// as it holds, the boneyard as many as are left, no seat a number it lacks,
// and the seat's own tiles are its own.
func TestKnowledgeIsTrueAndWorldsAreConsistent(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	positions, voids, relaxed := 0, 0, 0
	for _, name := range configNames {
		o := configs[name]
		players := []Player{Medium, Easy, Medium, Easy}[:o.Players]
		for i := 0; i < 30; i++ {
			var truth *engine.Sim
			playMatch(t, o, engine.Seed{uint64(i), 5}, players, func(m *engine.Match, seat int) bool {
				v := m.View(seat)
				if v.You.Confirm {
					return true
				}
				p, err := readPosition(v)
				if err != nil {
					t.Fatalf("%s: readPosition: %v", name, err)
				}
				positions++
				truth = revealed(t, m)
				for s := 0; s < o.Players; s++ {
					if p.void[s] != 0 {
						voids++
					}
					for _, tile := range truth.Held(s) {
						if p.void[s]&numbers(tile) != 0 {
							for _, e := range v.Log {
								t.Logf("%+v", e)
							}
							t.Fatalf("%s: seat %d is said to lack %07b but holds %v (viewer %d)", name, s, p.void[s], tile, seat)
						}
					}
				}
				sa := newSampler(p)
				hands := make([][]engine.Tile, o.Players)
				bone := sa.sample(r, hands)
				// A world that gives a seat a number it lacks is one the
				// sampler had to relax (no constrained deal succeeded).
				ignored := false
				var seen uint32
				for s, h := range hands {
					if len(h) != p.held[s] {
						t.Fatalf("%s: world gives seat %d %d tiles, it holds %d", name, s, len(h), p.held[s])
					}
					for _, tile := range h {
						seen |= bit(tile)
						ignored = ignored || s != p.seat && p.void[s]&numbers(tile) != 0
					}
				}
				if ignored {
					relaxed++
				}
				for _, tile := range bone {
					seen |= bit(tile)
				}
				if len(bone) != p.boneyard || seen != p.unseen|p.hand || bits.OnesCount32(seen) != p.boneyard+sumHeld(p) {
					t.Fatalf("%s: world is not a partition of the unseen tiles", name)
				}
				if _, err := engine.NewSim(o, p.plays, hands, bone, p.seat); err != nil {
					t.Fatalf("%s: world is not a position: %v", name, err)
				}
				return true
			})
		}
	}
	if positions < 5000 || voids < 500 {
		t.Fatalf("only %d positions, %d with known voids: the property is not exercised", positions, voids)
	}
	if relaxed*100 > positions {
		t.Fatalf("%d of %d worlds ignored what seats lack", relaxed, positions)
	}
	t.Logf("%d positions, %d with a seat known to lack a number, %d worlds relaxed", positions, voids, relaxed)
}

func sumHeld(p *position) int {
	n := 0
	for s := 0; s < p.opts.Players; s++ {
		n += p.held[s]
	}
	return n
}

// revealed rebuilds the real hand of a match for checking what a seat
// believes against the truth. It is a test's privilege: it reads the
// match's records, which no player ever sees.
func revealed(t *testing.T, m *engine.Match) *engine.Sim {
	t.Helper()
	recs := m.Records()
	rec := recs[len(recs)-1]
	o := m.Options()
	seats := make([]engine.Seat, o.Players)
	for s := range seats {
		seats[s] = m.Seat(s)
	}
	deal := rec.Deals[len(rec.Deals)-1].Order
	log := m.Log()
	leader := -1
	for _, e := range log {
		if e.Type == engine.EventDeal && e.Hand == m.HandNumber() {
			leader = e.Leader
		}
	}
	hands := make([][]engine.Tile, o.Players)
	for s := range hands {
		hands[s] = deal[7*s : 7*s+7]
	}
	var bone []engine.Tile
	if o.Players < 4 {
		bone = deal[7*o.Players:]
	}
	sim, err := engine.NewSim(o, nil, hands, bone, leader)
	if err != nil {
		t.Fatal(err)
	}
	for k, c := range rec.Plays {
		if k > 0 {
			sim.Advance()
		}
		if _, err := sim.Play(c.Tile, c.End); err != nil {
			t.Fatal(err)
		}
	}
	if len(rec.Plays) > 0 {
		sim.Advance()
	}
	return sim
}
