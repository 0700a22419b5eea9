package engine

import (
	"fmt"
	"slices"
	"testing"
)

// xorshift is a tiny generator for benchmarks, so that the random choices
// cost next to nothing.
type xorshift uint64

func (x *xorshift) next(n int) int {
	*x ^= *x << 13
	*x ^= *x >> 7
	*x ^= *x << 17
	return int(uint64(*x) % uint64(n))
}

// playHand deals a hand and plays it out with random legal choices,
// returning the number of plays.
func playHand(s *Sim, opts Options, seed Seed, h int, x *xorshift, buf []Move) int {
	order := seed.shuffle(h, 0)
	s.deal(opts, &order, h%opts.Players)
	plays := 0
	for !s.Over() {
		legal := s.AppendLegal(buf[:0])
		mv := legal[x.next(len(legal))]
		s.Play(mv.Tile, mv.End)
		plays++
		s.Advance()
	}
	return plays
}

// BenchmarkRandomHand: deal a 4-player Five Up hand (the real shuffle,
// SHA-256 and all) and play it out with random legal moves through the
// checked Play. Target (issue 14): at most 2 µs, no allocation; see
// docs/engine.md.
func BenchmarkRandomHand(b *testing.B) {
	var s Sim
	x := xorshift(88172645463325252)
	buf := make([]Move, 0, 32)
	plays := 0
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		plays += playHand(&s, fiveUp4, Seed{1, 2}, i, &x, buf)
	}
	b.ReportMetric(float64(plays)/float64(b.N), "plays/hand")
}

// benchPositions collects mid-hand positions of 4-player Five Up hands.
func benchPositions() []Sim {
	var out []Sim
	var s Sim
	x := xorshift(1)
	buf := make([]Move, 0, 32)
	for h := 0; len(out) < 1000; h++ {
		order := Seed{5, 5}.shuffle(h, 0)
		s.deal(fiveUp4, &order, 0)
		for k := 0; !s.Over(); k++ {
			if k == 6 || k == 12 {
				out = append(out, s)
			}
			legal := s.AppendLegal(buf[:0])
			mv := legal[x.next(len(legal))]
			s.Play(mv.Tile, mv.End)
			s.Advance()
		}
	}
	return out
}

// BenchmarkLegal: legal-move generation on mid-hand positions. Target: no
// allocation.
func BenchmarkLegal(b *testing.B) {
	pos := benchPositions()
	buf := make([]Move, 0, 32)
	n := 0
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		n += len(pos[i%len(pos)].AppendLegal(buf[:0]))
	}
	b.ReportMetric(float64(n)/float64(b.N), "moves/op")
}

// BenchmarkApply: one legal play and the forced draws and passes after it,
// on mid-hand positions. Target: no allocation.
func BenchmarkApply(b *testing.B) {
	pos := benchPositions()
	moves := make([]Move, len(pos))
	for i := range pos {
		moves[i] = pos[i].AppendLegal(nil)[0]
	}
	var s Sim
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		k := i % len(pos)
		s = pos[k]
		if _, err := s.Play(moves[k].Tile, moves[k].End); err != nil {
			b.Fatal(err)
		}
		s.Advance()
	}
}

// BenchmarkMatchMove: a move through Match.Apply, with the log and record
// kept, as the service makes it.
func BenchmarkMatchMove(b *testing.B) {
	var buf [32]Move
	r := newRand(1)
	m := newStarted(b, fiveUp4, Seed{1, 1})
	b.ReportAllocs()
	for b.Loop() {
		if m.Status() != StatusPlaying {
			m = newStarted(b, fiveUp4, Seed{uint64(len(m.log)), 1})
		}
		seat, mv := randomMove(m, r, buf[:])
		if err := m.Apply(seat, mv); err != nil {
			b.Fatal(err)
		}
	}
}

// finishedMatches plays n seeded random 4-player Five Up matches to 250.
func finishedMatches(tb testing.TB, n int) []*Match {
	out := make([]*Match, n)
	for s := range out {
		m := newStarted(tb, fiveUp4, Seed{uint64(s), 77})
		for i := range m.seats {
			m.seats[i].Name = ""
		}
		playOut(tb, m, newRand(uint64(s)), nil)
		out[s] = m
	}
	return out
}

func BenchmarkEncode(b *testing.B) {
	ms := finishedMatches(b, 50)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		Encode(ms[i%len(ms)])
	}
}

// BenchmarkDecode: decoding replays the whole match.
func BenchmarkDecode(b *testing.B) {
	ms := finishedMatches(b, 50)
	enc := make([][]byte, len(ms))
	for i, m := range ms {
		enc[i] = Encode(m)
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := Decode(enc[i%len(enc)]); err != nil {
			b.Fatal(err)
		}
	}
}

// TestEncodedSize: a finished 4-player Five Up match to 250 encodes in at
// most 1,024 bytes, names and token hashes aside, over 1,000 seeded matches.
func TestEncodedSize(t *testing.T) {
	n := 1000
	if testing.Short() {
		n = 100
	}
	sizes := make([]int, 0, n)
	hands := 0
	for _, m := range finishedMatches(t, n) {
		sizes = append(sizes, len(Encode(m)))
		hands += len(m.records)
	}
	slices.Sort(sizes)
	t.Logf("encoded size over %d finished 4-player fiveup matches to 250: min %d, median %d, max %d bytes (%.1f hands/match)",
		n, sizes[0], sizes[n/2], sizes[n-1], float64(hands)/float64(n))
	if sizes[n-1] > 1024 {
		t.Errorf("largest encoding %d bytes, want at most 1024", sizes[n-1])
	}
}

// BenchmarkShuffle: one deal's shuffle from the seed (ChaCha8).
func BenchmarkShuffle(b *testing.B) {
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		Seed{1, 2}.shuffle(i, 0)
	}
}

// BenchmarkDecodeAt: decoding a 4-player Five Up match after 10 and 100
// moves and at its end, for targets 250 and 1000. A decode replays from the
// checkpoint at the start of the previous hand, so its cost does not grow
// with the match (before format 4 it replayed every move).
func BenchmarkDecodeAt(b *testing.B) {
	for _, target := range []int{250, 1000} {
		for _, at := range []string{"10", "100", "end"} {
			b.Run(fmt.Sprintf("target%d/%s", target, at), func(b *testing.B) {
				opts := fiveUp4
				opts.Target = target
				var enc [][]byte
				var moves int
				for s := range 20 {
					m := newStarted(b, opts, Seed{uint64(s), 5})
					r := newRand(uint64(s))
					var buf [32]Move
					n := 0
					for m.Status() == StatusPlaying && (at == "end" || fmt.Sprint(n) != at) {
						seat, mv := randomMove(m, r, buf[:])
						if err := m.Apply(seat, mv); err != nil {
							b.Fatal(err)
						}
						n++
					}
					moves += n
					enc = append(enc, Encode(m))
				}
				b.ReportMetric(float64(moves)/float64(len(enc)), "moves")
				b.ReportAllocs()
				for i := 0; b.Loop(); i++ {
					if _, err := Decode(enc[i%len(enc)]); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
