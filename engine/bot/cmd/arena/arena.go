package main

import (
	"fmt"
	"math"
	"strings"
	"sync"

	"tessera/engine"
	"tessera/engine/bot"
	"tessera/engine/bot/referee"
)

// configs are the table configurations the arena knows.
var configs = bot.Tables()

// seatings lists, for one match seed, which seats level A takes in each of
// the mirrored matches. Two teams (2 players, or pairs): A takes one team,
// then the other. Three or four seats played alone: A takes one seat and B
// all the others, and A's seat goes round the table, so A's fair share of
// wins is 1/players.
func seatings(o engine.Options) [][]bool {
	if o.Teams() == 2 {
		a0 := make([]bool, o.Players)
		a1 := make([]bool, o.Players)
		for s := range a0 {
			a0[s] = o.TeamOf(s) == 0
			a1[s] = !a0[s]
		}
		return [][]bool{a0, a1}
	}
	out := make([][]bool, o.Players)
	for k := range out {
		out[k] = make([]bool, o.Players)
		out[k][k] = true
	}
	return out
}

// result is one match's outcome from A's side.
type result struct {
	aWon   bool
	hands  int
	aScore int // the best score of a team of A
	bScore int // the best score of a team of B
}

// play runs one match to its end; isA[s] says whether seat s is level A.
// maker makes a level's player for one match: most ignore it; the
// omniscient yardstick reads the match's hands (arena only).
type maker func(m *engine.Match) bot.Player

// fixed is the maker of a player that reads only its view.
func fixed(p bot.Player) maker { return func(*engine.Match) bot.Player { return p } }

// omniscient is the maker of bot.Omniscient, handed the match's true hands
// at each decision.
func omniscient(m *engine.Match) bot.Player {
	return func(v *engine.View, seed uint64) (engine.Move, bool) {
		o := m.Options()
		hands := make([][]engine.Tile, o.Players)
		for s := range hands {
			for a := uint8(0); a <= 6; a++ {
				for b := a; b <= 6; b++ {
					if t := (engine.Tile{a, b}); m.Holds(s, t) {
						hands[s] = append(hands[s], t)
					}
				}
			}
		}
		return bot.Omniscient(v, seed, hands)
	}
}

func play(o engine.Options, seed engine.Seed, isA []bool, ma, mb maker) (result, error) {
	m, err := engine.NewMatch(o, seed)
	if err != nil {
		return result{}, err
	}
	pa, pb := ma(m), mb(m)
	for s := range isA {
		lvl := "b"
		if isA[s] {
			lvl = "a"
		}
		if err := m.TakeSeat(s, engine.Seat{Name: lvl, Bot: lvl}); err != nil {
			return result{}, err
		}
	}
	if err := referee.Play(m, map[string]bot.Player{"a": pa, "b": pb}, "", nil); err != nil {
		return result{}, fmt.Errorf("match %v: %w", seed, err)
	}
	if m.Status() != engine.StatusFinished {
		return result{}, fmt.Errorf("match %v stopped before its end", seed)
	}
	r := result{hands: m.HandNumber(), aScore: -1, bScore: -1}
	scores := m.Scores()
	for s, a := range isA {
		t := o.TeamOf(s)
		if a {
			r.aScore = max(r.aScore, scores[t])
			r.aWon = r.aWon || m.Winner() == t
		} else {
			r.bScore = max(r.bScore, scores[t])
		}
	}
	return r, nil
}

// summary is the arena's tally.
type summary struct {
	Matches, AWins, Hands int
	Players               int
	AScore, BScore        int
	// By deal (a mirrored group: one seed played from every side): A's
	// share of the group's wins, and A's points per hand minus B's. Deals
	// are independent, the matches of one deal are not: the intervals of
	// these are the duplicate's (they cancel the luck of the deal).
	DealWins, DealPoints []float64
}

// run plays n matches (whole mirrored groups) on workers goroutines. The
// result does not depend on workers: every match's seed is fixed by its
// number.
func run(o engine.Options, pa, pb maker, n int, base uint64, workers int) (summary, error) {
	seats := seatings(o)
	groups := (n + len(seats) - 1) / len(seats)
	type job struct{ g, k int }
	jobs := make(chan job)
	results := make([]result, groups*len(seats))
	errs := make([]error, len(results))
	var wg sync.WaitGroup
	for range max(workers, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				i := j.g*len(seats) + j.k
				results[i], errs[i] = play(o, engine.Seed{base, uint64(j.g)}, seats[j.k], pa, pb)
			}
		}()
	}
	for g := 0; g < groups; g++ {
		for k := range seats {
			jobs <- job{g, k}
		}
	}
	close(jobs)
	wg.Wait()
	sum := summary{Matches: len(results), Players: o.Players}
	if o.Teams() == 2 {
		sum.Players = 2
	}
	for i, r := range results {
		if errs[i] != nil {
			return sum, errs[i]
		}
		if r.aWon {
			sum.AWins++
		}
		sum.Hands += r.hands
		sum.AScore += r.aScore
		sum.BScore += r.bScore
	}
	for g := 0; g < groups; g++ {
		wins, pts := 0.0, 0.0
		for _, r := range results[g*len(seats) : (g+1)*len(seats)] {
			if r.aWon {
				wins++
			}
			pts += float64(r.aScore-r.bScore) / float64(max(r.hands, 1))
		}
		sum.DealWins = append(sum.DealWins, wins/float64(len(seats)))
		sum.DealPoints = append(sum.DealPoints, pts/float64(len(seats)))
	}
	return sum, nil
}

// meanCI is the mean of xs and its normal 95% interval (1.96 standard
// errors; deals are many, so the t and normal quantiles agree).
func meanCI(xs []float64) (mean, lo, hi float64) {
	n := float64(len(xs))
	if n < 2 {
		return 0, 0, 0
	}
	for _, x := range xs {
		mean += x
	}
	mean /= n
	v := 0.0
	for _, x := range xs {
		v += (x - mean) * (x - mean)
	}
	se := math.Sqrt(v / (n - 1) / n)
	return mean, mean - 1.959963984540054*se, mean + 1.959963984540054*se
}

// wilson is the 95% Wilson score interval of k successes in n trials.
func wilson(k, n int) (lo, hi float64) {
	if n == 0 {
		return 0, 1
	}
	const z = 1.959963984540054
	p := float64(k) / float64(n)
	nf := float64(n)
	d := 1 + z*z/nf
	c := (p + z*z/(2*nf)) / d
	h := z / d * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf))
	return max(c-h, 0), min(c+h, 1)
}

// Report prints the win rates.
func (s summary) Report() string {
	var b strings.Builder
	lo, hi := wilson(s.AWins, s.Matches)
	bw := s.Matches - s.AWins
	blo, bhi := wilson(bw, s.Matches)
	fmt.Fprintf(&b, "A wins %d/%d = %.1f%% (95%% CI %.1f%%..%.1f%%)\n",
		s.AWins, s.Matches, 100*float64(s.AWins)/float64(s.Matches), 100*lo, 100*hi)
	fmt.Fprintf(&b, "B wins %d/%d = %.1f%% (95%% CI %.1f%%..%.1f%%)\n",
		bw, s.Matches, 100*float64(bw)/float64(s.Matches), 100*blo, 100*bhi)
	if s.Players > 2 {
		fmt.Fprintf(&b, "(A holds one seat of %d: its fair share is %.1f%%)\n", s.Players, 100/float64(s.Players))
	}
	fmt.Fprintf(&b, "mean hands per match %.2f, mean final score A %.1f, B %.1f\n",
		float64(s.Hands)/float64(s.Matches), float64(s.AScore)/float64(s.Matches), float64(s.BScore)/float64(s.Matches))
	if m, lo, hi := meanCI(s.DealWins); len(s.DealWins) > 1 {
		fmt.Fprintf(&b, "by deal (%d deals, each played from every side): A wins %.1f%% (95%% CI %.1f%%..%.1f%%)\n", len(s.DealWins), 100*m, 100*lo, 100*hi)
	}
	if m, lo, hi := meanCI(s.DealPoints); len(s.DealPoints) > 1 {
		fmt.Fprintf(&b, "points per hand, A's team minus B's (best scores): %+.2f (95%% CI %+.2f..%+.2f)\n", m, lo, hi)
	}
	return b.String()
}
