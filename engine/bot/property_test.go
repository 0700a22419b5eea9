package bot

import (
	"fmt"
	"slices"
	"testing"

	"tessera/engine"
)

// quickHard is the hard player with a tiny budget, for properties that need
// thousands of its decisions; the search is the same.
func quickHard(v *engine.View, seed uint64) (engine.Move, bool) {
	mv, ok, _ := hard(v, seed, 24, false)
	return mv, ok
}

// checked wraps a player: every move it returns must be one the view offers
// (a legal play, or redeal/keep when the seat is asked), and it must return
// one whenever the seat has something to do.
func checked(t *testing.T, name string, p Player, count *int) Player {
	return func(v *engine.View, seed uint64) (engine.Move, bool) {
		mv, ok := p(v, seed)
		*count++
		switch {
		case !ok:
			t.Fatalf("%s returned no move for seat %d, which must act", name, v.You.Seat)
		case v.You.Confirm:
			if mv.Kind != engine.Redeal && mv.Kind != engine.Keep {
				t.Fatalf("%s answered the redeal question with %v", name, mv.Kind)
			}
		default:
			lm := engine.ViewMove{Tile: mv.Tile, End: mv.End}
			if mv.Kind != engine.Play || !slices.Contains(v.You.Legal, lm) {
				t.Fatalf("%s chose %v %v at %v, not in legal %v", name, mv.Kind, mv.Tile, mv.End, v.You.Legal)
			}
		}
		return mv, ok
	}
}

// No level ever returns an illegal move or nothing when it must act, over
// thousands of positions of real matches in every configuration (playMatch
// also applies every move and fails on an engine error).
func TestNeverIllegal(t *testing.T) {
	matches := 60
	if testing.Short() {
		matches = 4
	}
	for _, name := range configNames {
		o := configs[name]
		t.Run(name, func(t *testing.T) {
			counts := map[string]*int{"easy": new(int), "medium": new(int), "hard": new(int)}
			levels := []struct {
				name string
				p    Player
			}{{"medium", Medium}, {"hard", quickHard}, {"easy", Easy}, {"medium", Medium}}
			for i := 0; i < matches; i++ {
				players := make([]Player, o.Players)
				for s := range players {
					l := levels[(s+i)%len(levels)]
					players[s] = checked(t, l.name, l.p, counts[l.name])
				}
				playMatch(t, o, engine.Seed{uint64(i), 11}, players, nil)
			}
			if !testing.Short() && (*counts["medium"] < 1500 || *counts["hard"] < 1000) {
				t.Fatalf("too few decisions checked: %d medium, %d hard", *counts["medium"], *counts["hard"])
			}
			t.Logf("%d medium, %d hard, %d easy decisions", *counts["medium"], *counts["hard"], *counts["easy"])
		})
	}
}

// The full-budget hard player also plays only legal moves, on positions of
// every configuration.
func TestHardFullBudgetIsLegal(t *testing.T) {
	if testing.Short() {
		t.Skip("slow with -short")
	}
	n := 0
	for _, name := range configNames {
		stages := samplePlayPositions(t, configs[name], 6, 7)
		for _, st := range stages {
			for _, d := range st {
				checked(t, "hard", Hard, &n)(d.view, d.seed)
			}
		}
	}
	if n < 200 {
		t.Fatalf("only %d positions", n)
	}
	t.Logf("%d positions", n)
}

// cloneView is a deep copy of a view, so that a decision can be shown not to
// depend on where the view lives in memory.
func cloneView(v *engine.View) *engine.View {
	c := *v
	c.Seats = slices.Clone(v.Seats)
	c.Scores = slices.Clone(v.Scores)
	c.Log = slices.Clone(v.Log)
	h := *v.Hand
	c.Hand = &h
	y := *v.You
	y.Tiles = slices.Clone(v.You.Tiles)
	y.Legal = slices.Clone(v.You.Legal)
	c.You = &y
	return &c
}

// The same view and seed give the same move, every time; different seeds
// may differ only where the level uses randomness.
func TestDeterministic(t *testing.T) {
	matches := 3
	if testing.Short() {
		matches = 1
	}
	for _, name := range configNames {
		stages := samplePlayPositions(t, configs[name], matches, 5)
		for _, st := range stages {
			for k, d := range st {
				if k%3 != 0 {
					continue
				}
				for lvl, p := range map[string]Player{"medium": Medium, "hard": Hard} {
					a, _ := p(d.view, d.seed)
					b, _ := p(cloneView(d.view), d.seed)
					c, _ := p(d.view, d.seed)
					if a != b || a != c {
						t.Fatalf("%s %s: %v, %v, %v for the same view and seed", name, lvl, a, b, c)
					}
				}
			}
		}
	}
}

// Levels has the four levels.
func TestLevels(t *testing.T) {
	l := Levels()
	var names []string
	for n := range l {
		names = append(names, n)
	}
	slices.Sort(names)
	if fmt.Sprint(names) != "[easy expert hard medium]" {
		t.Fatalf("Levels() = %v", names)
	}
}
