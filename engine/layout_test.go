package engine

import (
	"fmt"
	"testing"
)

// lay builds a Five Up (spinners) or partnership layout from plays given as
// "a-b@end" steps.
func lay(t *testing.T, spinners bool, steps ...string) *Layout {
	t.Helper()
	l := newLayout(spinners)
	for _, s := range steps {
		var a, b int
		var end string
		if _, err := fmt.Sscanf(s, "%d-%d@%s", &a, &b, &end); err != nil {
			t.Fatalf("bad step %q: %v", s, err)
		}
		var e End
		err := e.UnmarshalText([]byte(end))
		tl := Tile{uint8(a), uint8(b)}
		if err != nil || !l.fits(tl, e) {
			t.Fatalf("step %q does not fit", s)
		}
		l.place(tl.index(), e)
	}
	return &l
}

func TestCount(t *testing.T) {
	cases := []struct {
		name  string
		steps []string
		want  int
	}{
		{"lead 5-5 counts both halves", []string{"5-5@lead"}, 10},
		{"lead 4-1 counts both halves", []string{"4-1@lead"}, 5},
		{"lead 6-6 counts 12", []string{"6-6@lead"}, 12},
		{"spinner 5-5 with 5-3 on one side counts 13", []string{"5-5@lead", "5-3@right"}, 13},
		{"a plain line counts its two exposed halves", []string{"2-6@lead", "6-1@right", "2-4@left"}, 5},
		{"a double at the end of the line counts both halves", []string{"6-1@lead", "1-1@left"}, 8},
		{"four arms ending 6-6, 2, 1 and 0 count 15", []string{"5-5@lead", "5-6@left", "5-2@right", "5-1@up", "5-0@down", "6-6@left"}, 15},
		{"empty up and down arms count nothing", []string{"3-3@lead", "3-1@left", "3-2@right"}, 3},
		{"an arm with a tile counts its exposed half", []string{"3-3@lead", "3-1@left", "3-2@right", "3-4@up"}, 7},
		{"a double at an arm's end counts both halves", []string{"3-3@lead", "3-1@left", "3-2@right", "3-4@up", "4-4@up"}, 11},
		{"a later spinner counts both halves while a side is bare", []string{"6-2@lead", "2-2@left"}, 10},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l := lay(t, true, c.steps...)
			if got := l.Count(); got != c.want {
				t.Errorf("Count() = %d, want %d", got, c.want)
			}
		})
	}
}

func TestSpinner(t *testing.T) {
	t.Run("up and down open only after both long sides are covered", func(t *testing.T) {
		l := lay(t, true, "4-4@lead")
		if l.Open(EndUp) || l.Open(EndDown) {
			t.Fatal("arms open on a lone spinner")
		}
		l = lay(t, true, "4-4@lead", "4-1@left")
		if l.Open(EndUp) || l.Open(EndDown) {
			t.Fatal("arms open with one long side covered")
		}
		l = lay(t, true, "4-4@lead", "4-1@left", "4-2@right")
		if !l.Open(EndUp) || !l.Open(EndDown) || l.Pips(EndUp) != 4 || l.Pips(EndDown) != 4 {
			t.Fatal("arms not open with both long sides covered")
		}
	})
	t.Run("only the first double spins", func(t *testing.T) {
		l := lay(t, true, "2-2@lead", "2-5@right", "5-5@right", "5-1@right", "2-3@left")
		if l.Spinner() != 1 {
			t.Fatalf("Spinner() = %d, want 1 (the 2-2)", l.Spinner())
		}
		if l.Pips(EndUp) != 2 {
			t.Fatalf("up end shows %d, want 2", l.Pips(EndUp))
		}
	})
	t.Run("a double played later than the lead is the spinner", func(t *testing.T) {
		l := lay(t, true, "1-3@lead", "3-3@right")
		if l.Spinner() != 1 {
			t.Fatalf("Spinner() = %d, want 1", l.Spinner())
		}
		if l.Open(EndUp) {
			t.Fatal("arms open before the far side is covered")
		}
		l = lay(t, true, "1-3@lead", "3-3@right", "3-6@right")
		if !l.Open(EndUp) || l.Pips(EndDown) != 3 {
			t.Fatal("non-lead spinner's arms do not open")
		}
	})
	t.Run("a double placed on the left becomes the spinner", func(t *testing.T) {
		l := lay(t, true, "1-3@lead", "1-1@left", "1-0@left", "3-5@right")
		if l.Spinner() != 1 || !l.Open(EndUp) || l.Pips(EndUp) != 1 {
			t.Fatalf("Spinner() = %d, up open %v", l.Spinner(), l.Open(EndUp))
		}
	})
	t.Run("partnership has no spinner", func(t *testing.T) {
		l := lay(t, false, "6-6@lead", "6-1@left", "6-2@right")
		if l.Spinner() != -1 || l.Open(EndUp) {
			t.Fatal("partnership layout opened arms")
		}
	})
	t.Run("tiles are written as they lie, the lead low half first", func(t *testing.T) {
		l := lay(t, true, "6-2@lead", "2-2@left", "6-4@right", "2-1@left", "2-5@up", "0-2@down")
		want := []Tile{{1, 2}, {2, 2}, {2, 6}, {6, 4}}
		if got := l.Line(); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("Line() = %v, want %v", got, want)
		}
		if up, down := l.Arm(EndUp), l.Arm(EndDown); up[0] != (Tile{2, 5}) || down[0] != (Tile{2, 0}) {
			t.Fatalf("arms %v %v, want [2-5] [2-0]", up, down)
		}
	})
}

func TestRoundToFive(t *testing.T) {
	for in, want := range map[int]int{0: 0, 1: 0, 2: 0, 3: 5, 4: 5, 5: 5, 12: 10, 13: 15, 17: 15, 18: 20, 22: 20} {
		if got := roundToFive(in); got != want {
			t.Errorf("roundToFive(%d) = %d, want %d", in, got, want)
		}
	}
}

func TestLeadIndex(t *testing.T) {
	cases := []struct {
		name  string
		steps []string
		want  int
	}{
		{"empty layout has no lead", nil, -1},
		{"lead alone is at 0", []string{"2-4@lead"}, 0},
		{"plays on the right keep it at 0", []string{"2-4@lead", "4-5@right", "5-5@right"}, 0},
		{"each play on the left moves it one on", []string{"2-4@lead", "2-3@left", "4-1@right", "3-3@left"}, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l := lay(t, false, c.steps...)
			if got := l.Lead(); got != c.want {
				t.Fatalf("Lead() = %d, want %d", got, c.want)
			}
			if c.want >= 0 && l.Line()[c.want] != lay(t, false, c.steps[0]).Line()[0] {
				t.Fatalf("Line()[%d] = %v is not the lead tile", c.want, l.Line()[c.want])
			}
		})
	}
}

// TestCountTermsSumToCount: over random 2-player Five Up matches, at every
// step, the terms add up to the count.
func TestCountTermsSumToCount(t *testing.T) {
	for s := range uint64(200) {
		m := newStarted(t, configs[0].opts, Seed{s, 7})
		playOut(t, m, newRand(s), func(int, Move) {
			l := &m.hand.layout
			sum := 0
			for _, v := range l.CountTerms() {
				sum += v
			}
			if sum != l.Count() {
				t.Fatalf("terms %v sum to %d, count %d", l.CountTerms(), sum, l.Count())
			}
		})
	}
}

// TestPlaceKeepsTheCachesAsRefreshWould: place updates the open ends, the
// mask and the count from the end it changed; at every step of random
// matches of every variant they equal what refresh computes from the tiles.
func TestPlaceKeepsTheCachesAsRefreshWould(t *testing.T) {
	for _, c := range configs {
		for s := range uint64(100) {
			m := newStarted(t, c.opts, Seed{s, 11})
			check := func(int, Move) {
				l := &m.hand.layout
				want := *l
				want.refresh()
				if l.endPips != want.endPips || l.endVal != want.endVal || l.mask != want.mask || l.count != want.count {
					t.Fatalf("%s seed %d: placed caches %v %v %x %d, refreshed %v %v %x %d", c.name, s,
						l.endPips, l.endVal, l.mask, l.count, want.endPips, want.endVal, want.mask, want.count)
				}
			}
			playOut(t, m, newRand(s), check)
			check(0, Move{})
		}
	}
}
