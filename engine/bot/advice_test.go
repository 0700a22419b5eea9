package bot

import (
	"math"
	"testing"

	"tessera/engine"
)

// The advice names the expert's own move (the same view and seed), one
// entry per legal play in the view's order, chances between 0 and 1; the
// end of a hand (solved exactly by the expert) included.
func TestAdviceIsTheExpertsChoice(t *testing.T) {
	ends := 0
	for _, name := range []string{"fiveup2", "partnership"} {
		stages := samplePlayPositions(t, configs[name], 2, 9)
		for st, ds := range stages {
			for i, d := range ds {
				if i >= 6 {
					break
				}
				a, ok := Advise(d.view, d.seed)
				want, _ := Expert(d.view, d.seed)
				if !ok || a.Best != want {
					t.Fatalf("%s stage %d: advice %v (%v), the expert plays %v", name, st, a.Best, ok, want)
				}
				if len(a.Plays) != len(d.view.You.Legal) {
					t.Fatalf("%s: %d plays advised, %d legal", name, len(a.Plays), len(d.view.You.Legal))
				}
				for j, pa := range a.Plays {
					l := d.view.You.Legal[j]
					if pa.Move.Tile != l.Tile || pa.Move.End != l.End || pa.Win < 0 || pa.Win > 1 || math.IsNaN(pa.Points) || math.IsInf(pa.Points, 0) {
						t.Fatalf("%s: play %d advised as %+v (legal %v)", name, j, pa, l)
					}
				}
				if p, _ := readPosition(d.view); endgame(p) {
					ends++
				}
			}
		}
	}
	if ends == 0 {
		t.Fatal("no position at the end of a hand was advised")
	}
	// Nothing to choose: no advice.
	if _, ok := Advise(&engine.View{}, 1); ok {
		t.Fatal("advice for a view without a seat")
	}
	if _, ok := Advise(&engine.View{You: &engine.ViewYou{Confirm: true}}, 1); ok {
		t.Fatal("advice for the redeal question")
	}
}

// A playout in which a team reaches the target counts as won or lost
// outright; otherwise the race model decides from the scores after it.
func TestTallyCountsTheMatchesEnd(t *testing.T) {
	p := &position{opts: engine.Options{Variant: engine.FiveUp, Players: 2, Target: 250}, seat: 1}
	var tl tally
	scores := [4]int{240, 200}
	tl.add(p, 1, &scores, &[4]int{15, 0}) // seat 0's team reached 250: lost
	tl.add(p, 1, &scores, &[4]int{0, 55}) // seat 1's: won
	tl.add(p, 2, &scores, &[4]int{5, 10}) // neither: the race from 245-210
	want := (0 + 1 + 2*raceWin(p.opts, [4]int{245, 210}, 1)) / 4
	if tl.weight != 4 || math.Abs(tl.win/tl.weight-want) > 1e-12 {
		t.Fatalf("win %v over %v; want %v", tl.win, tl.weight, want)
	}
	if pts := tl.points / tl.weight; pts != (-15+55+2*5)/4.0 {
		t.Fatalf("points %v", pts)
	}
}

// The race model's table is what play gives: each table's mean and
// deviation of a team's points a hand, measured again on 60 matches of
// medium players, are within 15% of it; and its estimate of the first
// team's chance at every hand's start predicts the matches' outcomes
// better than the even chance does (Brier score), over all tables and in
// every table but block4 (where the winner of a hand takes all and the
// model is as good as the even chance: at most 0.01 worse).
func TestRaceModelFitsPlay(t *testing.T) {
	matches := 60
	if testing.Short() {
		matches = 20
	}
	var allBrier, allEven float64
	for _, tb := range engine.Tables() {
		rc, ok := races[tb.Name]
		if !ok {
			t.Fatalf("%s: not in the race model's table", tb.Name)
		}
		teams := tb.Options.Teams()
		var sum, sq, n, brier, even, preds float64
		for s := range uint64(matches) {
			var predicted []float64
			m := playMatch(t, tb.Options, engine.Seed{s, 99}, []Player{Medium, Medium, Medium, Medium}, func(m *engine.Match, seat int) bool {
				if len(predicted) < m.HandNumber() {
					sc := m.Scores()
					var at [4]int
					copy(at[:], sc)
					predicted = append(predicted, raceWin(tb.Options, at, 0))
				}
				return true
			})
			sheet := m.Sheet()
			prev := make([]int, teams)
			for _, row := range sheet {
				for i := range teams {
					d := float64(row[i] - prev[i])
					sum, sq, n = sum+d, sq+d*d, n+1
				}
				prev = row
			}
			won := 0.0
			if m.Winner() == 0 {
				won = 1
			}
			for _, pr := range predicted {
				preds++
				brier += (pr - won) * (pr - won)
				even += (1/float64(teams) - won) * (1/float64(teams) - won)
			}
		}
		mean := sum / n
		sd := math.Sqrt(sq/n - mean*mean)
		if math.Abs(mean-rc.mean) > 0.15*rc.mean || math.Abs(sd-rc.sd) > 0.15*rc.sd {
			t.Errorf("%s: a team scores %.1f +- %.1f a hand; the model says %.1f +- %.1f", tb.Name, mean, sd, rc.mean, rc.sd)
		}
		allBrier, allEven = allBrier+brier/preds, allEven+even/preds
		if brier/preds >= even/preds+0.01 || (tb.Name != "block4" && brier >= even) {
			t.Errorf("%s: Brier score %.3f, the even chance's %.3f", tb.Name, brier/preds, even/preds)
		}
		t.Logf("%s: %.1f +- %.1f a hand; Brier %.3f (even %.3f)", tb.Name, mean, sd, brier/preds, even/preds)
	}
	if allBrier >= allEven {
		t.Errorf("over all tables: Brier score %.3f, the even chance's %.3f", allBrier, allEven)
	}
}

// The table notes count what is out from the view itself, and every
// number a seat is said to lack it really lacks (the real hands).
func TestTableNotesAreTrue(t *testing.T) {
	lacks := 0
	for _, name := range configNames {
		o := configs[name]
		players := []Player{Medium, Easy, Medium, Easy}[:o.Players]
		playMatch(t, o, engine.Seed{3, 4}, players, func(m *engine.Match, seat int) bool {
			v := m.View(seat)
			n, ok := TableNotes(v)
			if !ok {
				return true
			}
			var out [7]int
			pips := 0
			mine := map[engine.Tile]bool{}
			for _, tl := range v.You.Tiles {
				mine[tl] = true
			}
			onTable := map[engine.Tile]bool{}
			for _, e := range v.Log {
				if e.Hand == v.Hand.Number && e.Type == engine.EventPlay {
					onTable[engine.Tile{min(e.Tile[0], e.Tile[1]), max(e.Tile[0], e.Tile[1])}] = true
				}
			}
			for a := uint8(0); a <= 6; a++ {
				for b := a; b <= 6; b++ {
					tl := engine.Tile{a, b}
					if mine[tl] || onTable[tl] {
						continue
					}
					out[a]++
					if a != b {
						out[b]++
					}
					pips += int(a + b)
				}
			}
			if out != n.Out || pips != n.Pips {
				t.Fatalf("%s: notes %v %d pips; the view says %v %d", name, n.Out, n.Pips, out, pips)
			}
			for s, nums := range n.Lacks {
				if s == seat && len(nums) > 0 {
					t.Fatalf("%s: the seat's own lacks listed", name)
				}
				for _, num := range nums {
					lacks++
					for a := uint8(0); a <= 6; a++ {
						if m.Holds(s, engine.Tile{min(a, uint8(num)), max(a, uint8(num))}) {
							t.Fatalf("%s: seat %d said to lack %d, holds %d-%d", name, s, num, a, num)
						}
					}
				}
			}
			return true
		})
	}
	if lacks == 0 {
		t.Fatal("no seat was seen to lack a number")
	}
}
