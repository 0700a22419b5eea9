package main

import (
	"math"
	"reflect"
	"testing"

	"tessera/engine/bot"
)

func TestWilson(t *testing.T) {
	for _, c := range []struct {
		name   string
		k, n   int
		lo, hi float64
	}{
		{"no successes in 10", 0, 10, 0, 0.2775},
		{"half of 10", 5, 10, 0.2366, 0.7634},
		{"750 of 1000", 750, 1000, 0.7222, 0.7758},
	} {
		t.Run(c.name, func(t *testing.T) {
			lo, hi := wilson(c.k, c.n)
			if math.Abs(lo-c.lo) > 5e-4 || math.Abs(hi-c.hi) > 5e-4 {
				t.Fatalf("wilson(%d, %d) = %.4f..%.4f, want %.4f..%.4f", c.k, c.n, lo, hi, c.lo, c.hi)
			}
		})
	}
}

func TestSeatingsMirror(t *testing.T) {
	for _, c := range []struct {
		config string
		want   [][]bool
	}{
		{"fiveup2", [][]bool{{true, false}, {false, true}}},
		{"fiveup4pairs", [][]bool{{true, false, true, false}, {false, true, false, true}}},
		{"partnership", [][]bool{{true, false, true, false}, {false, true, false, true}}},
		{"fiveup3", [][]bool{{true, false, false}, {false, true, false}, {false, false, true}}},
	} {
		t.Run(c.config, func(t *testing.T) {
			got := seatings(configs[c.config])
			if len(got) != len(c.want) {
				t.Fatalf("seatings = %v, want %v", got, c.want)
			}
			for k := range got {
				for s := range got[k] {
					if got[k][s] != c.want[k][s] {
						t.Fatalf("seatings = %v, want %v", got, c.want)
					}
				}
			}
		})
	}
}

// The tally depends on the matches, not on how many goroutines play them.
func TestRunIsTheSameOnAnyNumberOfWorkers(t *testing.T) {
	o := configs["fiveup3"]
	a, err := run(o, fixed(bot.Medium), fixed(bot.Easy), 12, 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	b, err := run(o, fixed(bot.Medium), fixed(bot.Easy), 12, 3, 3)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("1 worker: %+v, 3 workers: %+v", a, b)
	}
	if a.Matches != 12 {
		t.Fatalf("%d matches, want 12", a.Matches)
	}
}

// A quick version of the arena's first target: medium beats easy in 2-player
// Five Up, clearly (the 95% interval lies above 75%).
func TestMediumBeatsEasy(t *testing.T) {
	s, err := run(configs["fiveup2"], fixed(bot.Medium), fixed(bot.Easy), 100, 2, 2)
	if err != nil {
		t.Fatal(err)
	}
	if lo, _ := wilson(s.AWins, s.Matches); lo < 0.75 {
		t.Fatalf("medium won %d of %d against easy (interval from %.2f)", s.AWins, s.Matches, lo)
	}
}

// The duplicate's intervals: a mean and 1.96 standard errors.
func TestMeanCI(t *testing.T) {
	m, lo, hi := meanCI([]float64{1, 0, 1, 0})
	// mean 0.5, sd 0.5774, se 0.2887: 0.5 ± 0.5658
	if math.Abs(m-0.5) > 1e-9 || math.Abs(lo-(0.5-0.5658)) > 1e-3 || math.Abs(hi-(0.5+0.5658)) > 1e-3 {
		t.Fatalf("meanCI = %.4f %.4f..%.4f", m, lo, hi)
	}
}
