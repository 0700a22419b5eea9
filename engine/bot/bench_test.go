package bot

import (
	"slices"
	"testing"
	"time"
)

// BenchmarkHard measures one hard decision on positions from the start,
// middle and end of hands of 2-player Five Up and of the partnership game,
// and reports the p50 and p99 of the decision times over all positions of
// the stage (the ns/op is their mean).
func BenchmarkHard(b *testing.B) {
	for _, cfg := range []string{"fiveup2", "fiveup4pairs", "partnership"} {
		stages := samplePlayPositions(b, configs[cfg], 40, 3)
		for st, name := range []string{"start", "middle", "end"} {
			pos := stages[st]
			b.Run(cfg+"/"+name, func(b *testing.B) {
				if len(pos) == 0 {
					b.Skip("no positions")
				}
				times := make([]time.Duration, 0, b.N)
				for i := 0; b.Loop(); i++ {
					d := pos[i%len(pos)]
					t0 := time.Now()
					Hard(d.view, d.seed)
					times = append(times, time.Since(t0))
				}
				slices.Sort(times)
				b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "p50-ms")
				b.ReportMetric(float64(times[len(times)*99/100].Microseconds())/1000, "p99-ms")
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
