package bot

import (
	"runtime"
	"slices"
	"syscall"
	"tessera/engine"
	"testing"
	"time"
)

// threadCPU is the CPU time the calling OS thread has used (Linux
// RUSAGE_THREAD): a decision's cost on one core, without the time the thread
// waited while other processes ran.
func threadCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(1, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// percentile is the p-th percentile (0..100) of sorted durations, in ms.
func percentile(sorted []time.Duration, p int) float64 {
	return float64(sorted[(len(sorted)-1)*p/100].Microseconds()) / 1000
}

// BenchmarkHard measures hard decisions on positions from the start, middle
// and end of hands of 2-player Five Up, 4-player Five Up in pairs and the
// partnership game. One op is one decision on every position of the stage
// (a few hundred); the metrics are over all decisions made: mean, p50 and
// p99 of the wall-clock time (mean-ms, p50-ms, p99-ms) and p50 and p99 of
// the deciding thread's CPU time (cpu-p50-ms, cpu-p99-ms), which is what one
// decision costs on one core when other processes share the machine.
func BenchmarkHard(b *testing.B) { benchDecisions(b, Hard) }

// BenchmarkExpert is BenchmarkHard for the expert (docs/bots.md: at most
// 150 ms p99 on one core).
func BenchmarkExpert(b *testing.B) { benchDecisions(b, Expert) }

// BenchmarkAdvise is a hint's thinking: the expert's search with every
// play's points and chances tallied (docs/bots.md, "hints").
func BenchmarkAdvise(b *testing.B) {
	benchDecisions(b, func(v *engine.View, seed uint64) (engine.Move, bool) {
		a, ok := Advise(v, seed)
		return a.Best, ok
	})
}

func benchDecisions(b *testing.B, decide Player) {
	for _, cfg := range []string{"fiveup2", "fiveup4pairs", "partnership"} {
		stages := samplePlayPositions(b, configs[cfg], 40, 3)
		for st, name := range []string{"start", "middle", "end"} {
			pos := stages[st]
			b.Run(cfg+"/"+name, func(b *testing.B) {
				if len(pos) == 0 {
					b.Skip("no positions")
				}
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				var wall, cpu []time.Duration
				var total time.Duration
				for b.Loop() {
					for _, d := range pos {
						t0, c0 := time.Now(), threadCPU()
						decide(d.view, d.seed)
						w := time.Since(t0)
						wall = append(wall, w)
						cpu = append(cpu, threadCPU()-c0)
						total += w
					}
				}
				slices.Sort(wall)
				slices.Sort(cpu)
				b.ReportMetric(float64(total.Microseconds())/1000/float64(len(wall)), "mean-ms")
				b.ReportMetric(percentile(wall, 50), "p50-ms")
				b.ReportMetric(percentile(wall, 99), "p99-ms")
				b.ReportMetric(percentile(cpu, 50), "cpu-p50-ms")
				b.ReportMetric(percentile(cpu, 99), "cpu-p99-ms")
				b.ReportMetric(float64(len(pos)), "positions")
			})
		}
	}
}

// BenchmarkMedium measures one medium decision over the same kinds of
// positions.
func BenchmarkMedium(b *testing.B) {
	stages := samplePlayPositions(b, configs["fiveup2"], 40, 3)
	pos := slices.Concat(stages[0], stages[1], stages[2])
	for i := 0; b.Loop(); i++ {
		d := pos[i%len(pos)]
		Medium(d.view, d.seed)
	}
}
