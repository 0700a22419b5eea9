package bot

import (
	"runtime"
	"slices"
	"testing"
	"time"

	"tessera/engine"
)

// onlyFirst is v with its legal list cut to the first play: the same
// position, in which the seat has one play only.
func onlyFirst(v *engine.View) *engine.View {
	c := *v
	you := *v.You
	you.Legal = v.You.Legal[:1]
	c.You = &you
	return &c
}

// TestHardWorkIsTheSameForOneOrManyPlays: in real positions, a hard
// decision with several legal plays and the same position with one play
// sample the same number of worlds and run the same number of playouts.
func TestHardWorkIsTheSameForOneOrManyPlays(t *testing.T) {
	want := work{worlds: HardPlayouts, playouts: HardPlayouts}
	for _, name := range configNames {
		stages := samplePlayPositions(t, configs[name], 2, 9)
		for _, d := range slices.Concat(stages[:]...) {
			for _, v := range []*engine.View{d.view, onlyFirst(d.view)} {
				mv, ok, w := hard(v, d.seed, HardPlayouts, false)
				if !ok || w != want {
					t.Fatalf("%s: %d legal plays: %+v (ok %v), want %+v", name, len(v.You.Legal), w, ok, want)
				}
				if len(v.You.Legal) == 1 && (mv.Tile != v.You.Legal[0].Tile || mv.End != v.You.Legal[0].End) {
					t.Fatalf("%s: the one legal play %v was not chosen: %v", name, v.You.Legal[0], mv)
				}
			}
		}
	}
}

// TestHardTimeIsTheSameForOneOrManyPlays measures the deciding thread's CPU
// time of hard decisions in real 4-player positions with at least three
// legal plays, and of the same positions cut to one play, interleaved. The
// totals must be alike (within a factor 1.6 either way): before the hard
// player thought about forced plays, the one-play decisions took under 1%
// of the time. The bound is loose on purpose: this is a check that the
// timing channel is closed, not a speed target.
func TestHardTimeIsTheSameForOneOrManyPlays(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	stages := samplePlayPositions(t, configs["fiveup4pairs"], 12, 4)
	var many, one time.Duration
	n := 0
	for _, d := range slices.Concat(stages[:]...) {
		if len(d.view.You.Legal) < 3 || n == 16 {
			continue
		}
		n++
		c0 := threadCPU()
		Hard(d.view, d.seed)
		c1 := threadCPU()
		Hard(onlyFirst(d.view), d.seed)
		c2 := threadCPU()
		many += c1 - c0
		one += c2 - c1
	}
	if n < 8 {
		t.Fatalf("only %d positions with three or more plays", n)
	}
	ratio := float64(one) / float64(many)
	t.Logf("%d positions: %v with several plays, %v with one (ratio %.2f)", n, many, one, ratio)
	if ratio < 1/1.6 || ratio > 1.6 {
		t.Errorf("one play took %.2f times as long as several: the decision time tells the play count", ratio)
	}
}
