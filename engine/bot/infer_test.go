package bot

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"testing"

	"tessera/engine"
)

// truePosition is a decision of a real match with where every tile the
// deciding seat cannot see really is: place[i] for unseen tile i (a seat,
// or boneyardPlace).
type truePosition struct {
	p     *position
	place [engine.NumTiles]int
}

// truePositions plays matches of level at every seat and keeps every
// every-th decision with a choice and at least one other seat's play this
// hand, with the true places of the unseen tiles.
func truePositions(t testing.TB, o engine.Options, level Player, matches, every int) []truePosition {
	t.Helper()
	players := make([]Player, o.Players)
	for s := range players {
		players[s] = level
	}
	var out []truePosition
	k := 0
	for i := 0; i < matches; i++ {
		playMatch(t, o, engine.Seed{uint64(i), 7}, players, func(m *engine.Match, seat int) bool {
			v := m.View(seat)
			if v.You.Confirm || len(v.You.Legal) < 2 {
				return true
			}
			if k++; k%every != 0 {
				return true
			}
			p, err := readPosition(v)
			if err != nil {
				t.Fatal(err)
			}
			tp := truePosition{p: p}
			for m2 := p.unseen; m2 != 0; m2 &= m2 - 1 {
				i := bits.TrailingZeros32(m2)
				tp.place[i] = boneyardPlace
				for s := 0; s < o.Players; s++ {
					if s != seat && m.Holds(s, tileOf[i]) {
						tp.place[i] = s
					}
				}
			}
			out = append(out, tp)
			return true
		})
	}
	return out
}

// infoBits is, over the positions, the mean cost in bits of naming where
// each unseen tile is under the distribution of worlds weighted by
// weigh(p) (nil: uniform): lower is better. It also returns the mean
// effective sample size of the weights, per world.
func infoBits(pos []truePosition, worlds int, weigh func(p *position) func([][]engine.Tile) float64) (float64, float64) {
	return infoBitsWith(pos, worlds, func(p *position) dealer { return newSampler(p) }, weigh)
}

// infoBitsWith is infoBits with the worlds dealt by deal(p).
func infoBitsWith(pos []truePosition, worlds int, deal func(p *position) dealer, weigh func(p *position) func([][]engine.Tile) float64) (float64, float64) {
	var cost, n, ess float64
	for j, tp := range pos {
		p := tp.p
		r := rand.New(rand.NewPCG(uint64(j), 1))
		sa := deal(p)
		var w func([][]engine.Tile) float64
		if weigh != nil {
			w = weigh(p)
		}
		hands := make([][]engine.Tile, p.opts.Players)
		var at [engine.NumTiles][boneyardPlace + 1]float64
		var sum, sum2 float64
		for k := 0; k < worlds; k++ {
			bone := sa.sample(r, hands)
			wt := 1.0
			if w != nil {
				wt = w(hands)
			}
			sum += wt
			sum2 += wt * wt
			for s, h := range hands {
				if s == p.seat {
					continue
				}
				for _, t := range h {
					at[tileIdx[t[0]][t[1]]][s] += wt
				}
			}
			for _, t := range bone {
				at[tileIdx[t[0]][t[1]]][boneyardPlace] += wt
			}
		}
		if sum == 0 {
			continue
		}
		ess += sum * sum / sum2 / float64(worlds)
		for m := p.unseen; m != 0; m &= m - 1 {
			i := bits.TrailingZeros32(m)
			// A small floor: a true place no sampled world put the tile in
			// costs about log2(worlds) bits, not infinity.
			q := (at[i][tp.place[i]] + 0.01*sum/float64(worlds)) / (sum * (1 + 0.05/float64(worlds)))
			cost += -math.Log2(min(q, 1))
			n++
		}
	}
	return cost / n, ess / float64(len(pos))
}

// BenchmarkInference reports how much the expert's weights learn about
// where the hidden tiles are (docs/bots.md, "inference"): bits per unseen
// tile under uniform worlds and under each model, in positions of matches
// between hard players and between medium players. One op is the whole
// measurement.
func BenchmarkInference(b *testing.B) {
	for _, cfg := range []string{"fiveup2", "partnership"} {
		for _, lv := range []string{"hard", "medium"} {
			b.Run(cfg+"/"+lv, func(b *testing.B) {
				level := Levels()[lv]
				matches := 40
				if lv == "medium" {
					matches = 40
				}
				pos := truePositions(b, configs[cfg], level, matches, 3)
				w, ll, ll0 := fitModel(b, configs[cfg], level, matches)
				b.Logf("%s/%s fitted %v: log-likelihood per decision %.3f (uniform %.3f)", cfg, lv, w, ll, ll0)
				models := append(inferModels, inferModel{"fitted", func(p *position) func([][]engine.Tile) float64 {
					o := newObserver(p, 1)
					o.weights = &w
					return o.weight
				}})
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					uni, _ := infoBits(pos, 600, nil)
					b.ReportMetric(uni, "bits-uniform")
					exact, _ := infoBitsWith(pos, 600, func(p *position) dealer { return &rejecter{sa: newSampler(p)} }, nil)
					b.ReportMetric(uni-exact, "gain-exactuniform")
					for _, m := range models {
						bits, ess := infoBits(pos, 600, m.weigh)
						b.ReportMetric(uni-bits, "gain-"+m.name)
						b.ReportMetric(ess, "ess-"+m.name)
					}
				}
				b.ReportMetric(float64(len(pos)), "positions")
			})
		}
	}
}

type inferModel struct {
	name  string
	weigh func(p *position) func([][]engine.Tile) float64
}

var inferModels = []inferModel{
	{"main1", func(p *position) func([][]engine.Tile) float64 {
		o := newObserver(p, 1)
		o.weights = nil
		return o.weight
	}},
	{"main3", func(p *position) func([][]engine.Tile) float64 {
		o := newObserver(p, 3)
		o.weights = nil
		return o.weight
	}},
	{"model", func(p *position) func([][]engine.Tile) float64 { return newObserver(p, 1).weight }},
}

// fitModel fits the weights of the model of play (features) to the
// decisions of level at every seat, by maximum likelihood (Newton's
// method on the conditional logit), in matches other than truePositions'.
// It returns the weights and the mean log-likelihood per decision, fitted
// and with every play alike.
func fitModel(t testing.TB, o engine.Options, level Player, matches int) (features, float64, float64) {
	t.Helper()
	type choice struct {
		f      []features
		chosen int
	}
	var data []choice
	players := make([]Player, o.Players)
	for s := range players {
		players[s] = level
	}
	var fr featurer
	for i := 0; i < matches; i++ {
		playMatch(t, o, engine.Seed{uint64(i), 8}, players, func(m *engine.Match, seat int) bool {
			v := m.View(seat)
			if v.You.Confirm || len(v.You.Legal) < 2 {
				return true
			}
			mv, _ := level(v, m.BotSeed(seat))
			p, err := readPosition(v)
			if err != nil {
				t.Fatal(err)
			}
			b := boardOf(p.plays, p.opts.Rules().Spinner)
			next := (seat + 1) % o.Players
			fr.replies = nil
			c := choice{chosen: -1}
			for j, lm := range legalMoves(v) {
				var f features
				fr.of(&f, o, seat, len(p.plays), p.hand, p.held[next], &b, lm.Tile, lm.End)
				c.f = append(c.f, f)
				if lm.Tile == mv.Tile && lm.End == mv.End {
					c.chosen = j
				}
			}
			if c.chosen >= 0 {
				data = append(data, c)
			}
			return true
		})
	}
	var w features
	loglik := func(w features) float64 {
		ll := 0.0
		for _, c := range data {
			maxS := math.Inf(-1)
			sc := make([]float64, len(c.f))
			for j, f := range c.f {
				for k := range f {
					sc[j] += w[k] * f[k]
				}
				maxS = max(maxS, sc[j])
			}
			z := 0.0
			for _, x := range sc {
				z += math.Exp(x - maxS)
			}
			ll += sc[c.chosen] - maxS - math.Log(z)
		}
		return ll / float64(len(data))
	}
	ll0 := loglik(w)
	for it := 0; it < 30; it++ {
		var g features
		var h [nFeatures][nFeatures]float64
		for _, c := range data {
			sc := make([]float64, len(c.f))
			maxS := math.Inf(-1)
			for j, f := range c.f {
				for k := range f {
					sc[j] += w[k] * f[k]
				}
				maxS = max(maxS, sc[j])
			}
			z := 0.0
			for j := range sc {
				sc[j] = math.Exp(sc[j] - maxS)
				z += sc[j]
			}
			var mean features
			for j, f := range c.f {
				for k := range f {
					mean[k] += sc[j] / z * f[k]
				}
			}
			for k := range g {
				g[k] += c.f[c.chosen][k] - mean[k]
			}
			for j, f := range c.f {
				pj := sc[j] / z
				for a := range f {
					for bb := range f {
						h[a][bb] += pj * (f[a] - mean[a]) * (f[bb] - mean[bb])
					}
				}
			}
		}
		for a := range h {
			h[a][a] += 1e-3 * float64(len(data)) // a little ridge: features that never vary
		}
		step := solve(h, g)
		for k := range w {
			w[k] += step[k]
		}
	}
	return w, loglik(w), ll0
}

// solve answers h x = g by Gaussian elimination with partial pivoting.
func solve(h [nFeatures][nFeatures]float64, g features) features {
	n := nFeatures
	for c := 0; c < n; c++ {
		piv := c
		for r := c + 1; r < n; r++ {
			if math.Abs(h[r][c]) > math.Abs(h[piv][c]) {
				piv = r
			}
		}
		h[c], h[piv] = h[piv], h[c]
		g[c], g[piv] = g[piv], g[c]
		for r := c + 1; r < n; r++ {
			f := h[r][c] / h[c][c]
			for k := c; k < n; k++ {
				h[r][k] -= f * h[c][k]
			}
			g[r] -= f * g[c]
		}
	}
	var x features
	for r := n - 1; r >= 0; r-- {
		s := g[r]
		for k := r + 1; k < n; k++ {
			s -= h[r][k] * x[k]
		}
		x[r] = s / h[r][r]
	}
	return x
}

// rejecter deals worlds exactly uniformly among those consistent with what
// the seats showed they lack: every unseen tile to a place at random
// (the counts kept), a world that breaks a lack thrown away; after 20,000
// tries, the sampler's deal.
type rejecter struct{ sa *sampler }

func (rj *rejecter) sample(r *rand.Rand, hands [][]engine.Tile) []engine.Tile {
	sa := rj.sa
	for a := 0; a < 20000; a++ {
		sa.try(r, false)
		ok := true
		for k, j := range sa.order {
			if sa.elig[j]&(1<<sa.place[k]) == 0 {
				ok = false
				break
			}
		}
		if ok {
			return sa.collect(r, hands)
		}
	}
	return sa.sample(r, hands)
}
