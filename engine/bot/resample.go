package bot

import (
	"math/rand/v2"
	"slices"

	"tessera/engine"
)

// resampler deals worlds drawn by weight from a pool of sampled worlds:
// pool worlds are dealt and weighed up front (the same work whatever the
// candidates), and each world the search asks for is one of them chosen
// with probability proportional to its weight (importance resampling).
// The search then weighs its worlds alike.
type resampler struct {
	hands [][][]engine.Tile // per pool world, per seat
	bones [][]engine.Tile
	cum   []float64 // cumulative weights
}

func newResampler(p *position, r *rand.Rand, pool int, weigh func([][]engine.Tile) float64) *resampler {
	sa := newSampler(p)
	rs := &resampler{}
	hands := make([][]engine.Tile, p.opts.Players)
	total := 0.0
	for range pool {
		bone := sa.sample(r, hands)
		total += weigh(hands)
		cp := make([][]engine.Tile, len(hands))
		for s, h := range hands {
			cp[s] = slices.Clone(h)
		}
		rs.hands = append(rs.hands, cp)
		rs.bones = append(rs.bones, slices.Clone(bone))
		rs.cum = append(rs.cum, total)
	}
	if total == 0 { // no world explains the plays: all alike
		for i := range rs.cum {
			rs.cum[i] = float64(i + 1)
		}
	}
	return rs
}

func (rs *resampler) sample(r *rand.Rand, hands [][]engine.Tile) []engine.Tile {
	x := r.Float64() * rs.cum[len(rs.cum)-1]
	i, _ := slices.BinarySearch(rs.cum, x)
	i = min(i, len(rs.cum)-1)
	for s := range hands {
		hands[s] = append(hands[s][:0], rs.hands[i][s]...)
	}
	return rs.bones[i]
}

// ExpertResampling is the expert with worlds resampled by weight from a
// pool of factor x budget weighed worlds, for the arena's measurements.
func ExpertResampling(beta float64, budget, factor int) Player {
	return func(v *engine.View, seed uint64) (engine.Move, bool) {
		p, legal, mv, ok := searchable(v, seed)
		if p == nil {
			return mv, ok
		}
		r := newRandFor(seed)
		rs := newResampler(p, r, factor*budget, newObserver(p, beta).weight)
		mv, _ = searchWith(p, legal, budget, r, rs, nil, nil)
		return mv, true
	}
}

// ExpertByWin is the expert choosing by the chance to win the match (the
// tallies Advise reports: the race model past the hand) rather than by
// its playouts' points, for the arena's measurements.
func ExpertByWin() Player {
	return func(v *engine.View, seed uint64) (engine.Move, bool) {
		a, ok := Advise(v, seed)
		if !ok {
			return Expert(v, seed)
		}
		best := 0
		for i, p := range a.Plays {
			b := a.Plays[best]
			if p.Win > b.Win+1e-9 || (p.Win > b.Win-1e-9 && p.Points > b.Points) {
				best = i
			}
		}
		return a.Plays[best].Move, true
	}
}

// HardFair is hard with the playout policy that reads the risk as the
// mover sees it (rollout with fair), for the arena's measurements.
func HardFair(budget int) Player {
	return func(v *engine.View, seed uint64) (engine.Move, bool) {
		mv, ok, _ := hard(v, seed, budget, true)
		return mv, ok
	}
}
